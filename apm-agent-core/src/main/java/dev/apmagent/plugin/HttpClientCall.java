package dev.apmagent.plugin;

/**
 * One HTTP client call in progress on a thread, as {@link HttpClientExits#enter} hands it to the plugin's exit: the
 * outermost call of any HTTP client on the thread (which records the span), or a call nested in it (a client's
 * {@code send} calling its own {@code sendAsync}, an interceptor chain calling {@code proceed}). One object per thread,
 * shared by every HTTP client plugin, so a client that wraps another is nested in it too.
 */
public final class HttpClientCall extends ExitCall {

    HttpClientCall() {
    }
}
