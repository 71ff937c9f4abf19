package dev.apmagent.plugin.apache;

import dev.apmagent.plugin.HttpClientExits;
import dev.apmagent.plugin.HttpClientRequest;

/**
 * What the plugin needs of one Apache HttpClient line (4.x or 5.x), as the agent's loader can express it: library
 * objects are passed as {@code Object}. The implementations ({@code helper4.Apache4Http}, {@code helper5.Apache5Http})
 * are defined next to the application's library, one per class loader, each with its own {@link HttpClientExits}.
 * Every method may throw on an object it does not expect; the callers count that and go on.
 */
public abstract class ApacheHttp implements HttpClientRequest<Object> {

    final HttpClientExits<Object> exits = new HttpClientExits<Object>(this, ApacheHttpHelper.health);

    /**
     * The status code of what a call returned or a future completed with (a response, a message whose head is a
     * response), or -1 when it is none of these.
     */
    public abstract int statusCode(Object responseOrResult);

    /**
     * Whether the plugin can read {@code requestOrProducer}: a request, or an asynchronous request producer that holds
     * its request and hands it out without side effects (4.x {@code BasicAsyncRequestProducer}). A producer of the
     * application's own is not traced.
     */
    public abstract boolean traceable(Object requestOrProducer);

    /** {@code URI.getHost()} keeps an IPv6 literal's brackets; the kit adds them where a URL or a name needs them. */
    protected static String stripBrackets(String host) {
        if (host != null && host.length() > 1 && host.charAt(0) == '[' && host.charAt(host.length() - 1) == ']') {
            return host.substring(1, host.length() - 1);
        }
        return host;
    }
}
