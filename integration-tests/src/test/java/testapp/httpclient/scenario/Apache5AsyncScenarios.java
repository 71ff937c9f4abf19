package testapp.httpclient.scenario;

import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.util.Timeout;

import java.net.URI;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** HttpClient 5 async, with only what 5.1 has. */
public final class Apache5AsyncScenarios extends Scenario {

    private static final CloseableHttpAsyncClient client = start();
    private static final CloseableHttpAsyncClient throwaway = start();

    private static CloseableHttpAsyncClient start() {
        CloseableHttpAsyncClient c = HttpAsyncClients.custom()
                .setDefaultRequestConfig(RequestConfig.custom().setResponseTimeout(Timeout.ofSeconds(5))
                        .setConnectTimeout(Timeout.ofSeconds(2)).build()).build();
        c.start();
        return c;
    }

    @Override
    protected String cases() {
        return ASYNC_CASES;
    }

    @Override
    protected String get(String url, String traceparent, How how) throws Exception {
        SimpleHttpRequest request = new SimpleHttpRequest("GET", URI.create(url));
        if (traceparent != null) {
            request.setHeader("traceparent", traceparent);
        }
        Future<SimpleHttpResponse> future = how == How.THROWING_CALLBACK ? throwaway.execute(request, new Throwing()) : client.execute(request, null);
        SimpleHttpResponse response = future.get(10, TimeUnit.SECONDS);
        return response.getCode() + " " + response.getBodyText() + mark(traceparent, request.getFirstHeader("traceparent"));
    }

    static final class Throwing implements FutureCallback<SimpleHttpResponse> {
        @Override
        public void completed(SimpleHttpResponse result) {
            throw new IllegalStateException("the application's callback fails");
        }

        @Override
        public void failed(Exception ex) {
        }

        @Override
        public void cancelled() {
        }
    }
}
