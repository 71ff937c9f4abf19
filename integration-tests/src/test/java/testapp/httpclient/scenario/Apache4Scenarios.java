package testapp.httpclient.scenario;

import org.apache.http.HttpHost;
import org.apache.http.HttpResponse;
import org.apache.http.HttpVersion;
import org.apache.http.client.BackoffManager;
import org.apache.http.client.ConnectionBackoffStrategy;
import org.apache.http.client.config.RequestConfig;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.client.methods.HttpRequestWrapper;
import org.apache.http.client.protocol.HttpClientContext;
import org.apache.http.conn.routing.HttpRoute;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.impl.execchain.BackoffStrategyExec;
import org.apache.http.impl.execchain.ClientExecChain;
import org.apache.http.message.BasicHttpResponse;
import org.apache.http.message.BasicStatusLine;
import org.apache.http.util.EntityUtils;

import java.util.concurrent.Callable;

/** HttpClient 4.x classic, with only what 4.3 has. */
public final class Apache4Scenarios extends Scenario {

    private static final CloseableHttpClient client = HttpClients.custom()
            .setDefaultRequestConfig(RequestConfig.custom().setSocketTimeout(500).setConnectTimeout(2000).build()).build();

    @Override
    protected String cases() {
        return CLASSIC_CASES;
    }

    @Override
    protected String get(String url, String traceparent, How how) throws Exception {
        HttpGet get = new HttpGet(url);
        if (traceparent != null) {
            get.setHeader("traceparent", traceparent);
        }
        try (CloseableHttpResponse response = client.execute(get)) {
            String body = how == How.PLAIN ? EntityUtils.toString(response.getEntity()) : "(body not read)";
            return response.getStatusLine().getStatusCode() + " " + body + mark(traceparent, get.getFirstHeader("traceparent"));
        }
    }

    /** {@code BackoffStrategyExec} (4.3+) over a stub chain that answers 200; the back-off strategy never backs off. */
    @Override
    protected Callable<?> handler(String tag) {
        final CloseableHttpResponse canned = new CannedResponse();
        ClientExecChain inner = (route, request, context, aware) -> canned;
        BackoffStrategyExec exec = new BackoffStrategyExec(inner, new NoBackoff(), new NoBackoff());
        HttpRoute route = new HttpRoute(new HttpHost("127.0.0.1", 9));
        HttpRequestWrapper request = HttpRequestWrapper.wrap(new HttpGet("http://127.0.0.1:9/x?case=" + tag + "&q=1"));
        HttpClientContext context = HttpClientContext.create();
        return () -> exec.execute(route, request, context, null);
    }

    static final class CannedResponse extends BasicHttpResponse implements CloseableHttpResponse {
        CannedResponse() {
            super(new BasicStatusLine(HttpVersion.HTTP_1_1, 200, "OK"));
        }

        @Override
        public void close() {
        }
    }

    static final class NoBackoff implements ConnectionBackoffStrategy, BackoffManager {
        @Override
        public boolean shouldBackoff(Throwable t) {
            return false;
        }

        @Override
        public boolean shouldBackoff(HttpResponse resp) {
            return false;
        }

        @Override
        public void backOff(HttpRoute route) {
        }

        @Override
        public void probe(HttpRoute route) {
        }
    }
}
