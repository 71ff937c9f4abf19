package testapp.dubbo;

/** The test application's downstream service, called by {@link GreetingService#relay}. */
public interface EchoBackend {

    String echo(String text);
}
