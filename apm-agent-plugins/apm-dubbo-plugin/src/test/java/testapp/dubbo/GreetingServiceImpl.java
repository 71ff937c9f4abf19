package testapp.dubbo;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/** Plain implementations of the test services; nothing in them knows about tracing. */
public final class GreetingServiceImpl implements GreetingService {

    private static final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "greeting-async-worker");
        t.setDaemon(true);
        return t;
    });

    /** The provider's own client of the backend (set by the test once the reference exists). */
    public static volatile EchoBackend backend;

    @Override
    public String greet(String name) {
        return "hello " + name;
    }

    @Override
    public String fail(String message) {
        throw new IllegalStateException(message);
    }

    @Override
    public CompletableFuture<String> greetAsync(String name) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                TimeUnit.MILLISECONDS.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "async hello " + name;
        }, worker);
    }

    @Override
    public CompletableFuture<String> never(String name) {
        return new CompletableFuture<>();
    }

    @Override
    public String relay(String name) {
        return "relayed " + backend.echo(name);
    }

    /** The backend. */
    public static final class Echo implements EchoBackend {
        @Override
        public String echo(String text) {
            return "echo " + text;
        }
    }
}
