package testapp.dubbo;

/**
 * What a consumer (or any client that speaks Dubbo's protocol) may believe {@link GreetingService} to be: it calls a
 * method the provider's interface does not have.
 */
public interface MadeUpMethodService {

    String greet(String name);

    String madeUpMethodNumber7(String name);
}
