package testapp.dubbo;

import java.util.concurrent.CompletableFuture;

/** The test application's front service. */
public interface GreetingService {

    String greet(String name);

    /** Always throws IllegalStateException with {@code message}. */
    String fail(String message);

    /** Completes on another thread of the provider, a little later. */
    CompletableFuture<String> greetAsync(String name);

    /** Returns a future the provider never completes. */
    CompletableFuture<String> never(String name);

    /** Calls {@link EchoBackend#echo} itself: a provider that is also a consumer. */
    String relay(String name);
}
