package testapp.httpclient.scenario;

import org.apache.hc.client5.http.HttpRequestRetryStrategy;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.classic.ExecChain;
import org.apache.hc.client5.http.classic.ExecRuntime;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.CloseableHttpResponse;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.classic.HttpRequestRetryExec;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.message.BasicClassicHttpResponse;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.util.concurrent.Callable;

/** HttpClient 5 classic, with only what 5.1 has. */
public final class Apache5Scenarios extends Scenario {

    private static final CloseableHttpClient client = HttpClients.custom()
            .setDefaultRequestConfig(RequestConfig.custom().setResponseTimeout(Timeout.ofMilliseconds(500))
                    .setConnectTimeout(Timeout.ofSeconds(2)).build()).build();

    @Override
    protected String cases() {
        return CLASSIC_CASES;
    }

    @Override
    @SuppressWarnings("deprecation") // execute(request) is the call most code makes, deprecated since 5.3
    protected String get(String url, String traceparent, How how) throws Exception {
        HttpGet get = new HttpGet(url);
        if (traceparent != null) {
            get.setHeader("traceparent", traceparent);
        }
        try (CloseableHttpResponse response = client.execute(get)) {
            String body = how == How.PLAIN ? EntityUtils.toString(response.getEntity()) : "(body not read)";
            return response.getCode() + " " + body + mark(traceparent, get.getFirstHeader("traceparent"));
        }
    }

    /** {@code HttpRequestRetryExec} (5.1+) over a stub chain that answers 200, with a strategy that never retries. */
    @Override
    protected Callable<?> handler(String tag) {
        final ClassicHttpResponse canned = new BasicClassicHttpResponse(200);
        ExecChain inner = (request, scope) -> canned;
        HttpRequestRetryExec exec = new HttpRequestRetryExec(new NoRetry());
        HttpGet request = new HttpGet("http://127.0.0.1:9/x?case=" + tag + "&q=1");
        HttpRoute route = new HttpRoute(new HttpHost("127.0.0.1", 9));
        ExecRuntime runtime = (ExecRuntime) Proxy.newProxyInstance(ExecRuntime.class.getClassLoader(),
                new Class<?>[] {ExecRuntime.class}, (proxy, method, args) -> null); // the scope needs one; not called
        ExecChain.Scope scope = new ExecChain.Scope("ex-1", route, request, runtime, HttpClientContext.create());
        return () -> exec.execute(request, scope, inner);
    }

    static final class NoRetry implements HttpRequestRetryStrategy {
        @Override
        public boolean retryRequest(HttpRequest request, IOException exception, int execCount, HttpContext context) {
            return false;
        }

        @Override
        public boolean retryRequest(HttpResponse response, int execCount, HttpContext context) {
            return false;
        }

        @Override
        public TimeValue getRetryInterval(HttpResponse response, int execCount, HttpContext context) {
            return TimeValue.ZERO_MILLISECONDS;
        }
    }
}
