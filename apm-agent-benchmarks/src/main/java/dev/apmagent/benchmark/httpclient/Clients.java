package dev.apmagent.benchmark.httpclient;

import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.core5.http.io.entity.EntityUtils;

import java.io.IOException;

/** The two clients of {@link ApacheHttpClientBenchmark}, each a pooled client kept for the trial. */
final class Clients {

    private Clients() {
    }

    static ApacheHttpClientBenchmark.Call apache5(String uri) {
        CloseableHttpClient client = HttpClients.createDefault();
        return new ApacheHttpClientBenchmark.Call() {
            @Override
            public int get() throws IOException {
                return client.execute(new HttpGet(uri), response -> {
                    EntityUtils.consume(response.getEntity());
                    return response.getCode();
                });
            }

            @Override
            public void close() throws IOException {
                client.close();
            }
        };
    }

    static ApacheHttpClientBenchmark.Call apache4(String uri) {
        org.apache.http.impl.client.CloseableHttpClient client = org.apache.http.impl.client.HttpClients.createDefault();
        return new ApacheHttpClientBenchmark.Call() {
            @Override
            public int get() throws IOException {
                try (org.apache.http.client.methods.CloseableHttpResponse response =
                             client.execute(new org.apache.http.client.methods.HttpGet(uri))) {
                    org.apache.http.util.EntityUtils.consume(response.getEntity());
                    return response.getStatusLine().getStatusCode();
                }
            }

            @Override
            public void close() throws IOException {
                client.close();
            }
        };
    }
}
