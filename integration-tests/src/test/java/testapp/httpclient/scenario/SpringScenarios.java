package testapp.httpclient.scenario;

import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

/** Spring 6 RestTemplate and RestClient over HttpClient 5 classic (HttpComponentsClientHttpRequestFactory). */
public final class SpringScenarios extends Scenario {

    private static final HttpComponentsClientHttpRequestFactory factory =
            new HttpComponentsClientHttpRequestFactory(HttpClients.createDefault());

    @Override
    protected String cases() {
        return "restTemplate,restClient";
    }

    @Override
    protected String run(String c, String base, String tag) {
        String down = downstream(base, tag);
        switch (c) {
            case "restTemplate":
                return "200 " + new RestTemplate(factory).getForObject(down, String.class);
            case "restClient":
                return "200 " + RestClient.builder().requestFactory(factory).build().get().uri(down).retrieve().body(String.class);
            default:
                return "unknown case " + c;
        }
    }
}
