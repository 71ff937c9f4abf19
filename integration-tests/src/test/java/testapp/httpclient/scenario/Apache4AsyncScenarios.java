package testapp.httpclient.scenario;

import org.apache.http.HttpResponse;
import org.apache.http.client.config.RequestConfig;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.concurrent.FutureCallback;
import org.apache.http.impl.nio.client.CloseableHttpAsyncClient;
import org.apache.http.impl.nio.client.HttpAsyncClients;
import org.apache.http.util.EntityUtils;

import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** HttpAsyncClient 4.1. */
public final class Apache4AsyncScenarios extends Scenario {

    private static final CloseableHttpAsyncClient client = start();
    private static final CloseableHttpAsyncClient throwaway = start();

    private static CloseableHttpAsyncClient start() {
        CloseableHttpAsyncClient c = HttpAsyncClients.custom()
                .setDefaultRequestConfig(RequestConfig.custom().setSocketTimeout(5000).setConnectTimeout(2000).build()).build();
        c.start();
        return c;
    }

    @Override
    protected String cases() {
        return ASYNC_CASES;
    }

    @Override
    protected String get(String url, String traceparent, How how) throws Exception {
        HttpGet get = new HttpGet(url);
        if (traceparent != null) {
            get.setHeader("traceparent", traceparent);
        }
        Future<HttpResponse> future = how == How.THROWING_CALLBACK ? throwaway.execute(get, new Throwing()) : client.execute(get, null);
        HttpResponse response = future.get(10, TimeUnit.SECONDS);
        return response.getStatusLine().getStatusCode() + " " + EntityUtils.toString(response.getEntity());
    }

    static final class Throwing implements FutureCallback<HttpResponse> {
        @Override
        public void completed(HttpResponse result) {
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
