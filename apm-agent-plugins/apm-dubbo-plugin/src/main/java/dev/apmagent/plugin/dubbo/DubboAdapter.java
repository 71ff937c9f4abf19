package dev.apmagent.plugin.dubbo;

import dev.apmagent.plugin.Propagation;

import java.util.function.BiConsumer;

/**
 * What {@link DubboHelper} needs from Dubbo, as the agent's class loader can express it: invokers, invocations and
 * results are passed as {@code Object}. The implementation lives in the {@code helper} package and is defined next to
 * the application's Dubbo by {@link dev.apmagent.plugin.LibraryHelper}, so it links against Dubbo's types even
 * inside a fat-jar loader the agent cannot see. It reads and writes attachments (strings only) and never throws for
 * well-formed Dubbo objects; callers still guard every call.
 */
public interface DubboAdapter extends Propagation.HeaderGetter<Object>, Propagation.HeaderSetter<Object> {

    /** Whether {@code invoker} is the calling side (a cluster invoker, or a URL with {@code side=consumer}). */
    boolean isConsumer(Object invoker);

    /** Whether the call stays inside this JVM ({@code injvm} protocol): not a remote call, not traced as one. */
    boolean isInJvm(Object invoker);

    /** The service interface's full name (the real interface for generic references), or null. */
    String serviceInterface(Object invoker);

    /** The invoked method; for a generic {@code $invoke} the method it really calls. */
    String methodName(Object invocation);

    /**
     * Whether the service interface of {@code invoker} (a provider's) has a public method named {@code method}: the
     * name of a provider's transaction is the caller's choice until the method is found (see {@link DubboNames}).
     * Allocation-free after the first call per interface.
     */
    boolean declaresMethod(Object invoker, String method);

    /**
     * Removes trace headers from the invocation's attachments and, on Dubbo 2.7, from the thread's {@code RpcContext}
     * attachments: 2.7 copies those over the invocation's just before sending, so the inbound headers of a provider
     * that calls another service would otherwise replace the outbound ones.
     */
    void clearTraceHeaders(Object invocation);

    /** Host of the provider the invocation went to (the last invoker it reached), or null. */
    String remoteHost(Object invoker, Object invocation);

    /** Port of that provider, or -1. */
    int remotePort(Object invoker, Object invocation);

    /** Whether {@code result} is an asynchronous result that has not completed yet. */
    boolean isPending(Object result);

    /** Calls {@code callback} with the result (or failure) when {@code result} completes, on whichever thread completes it. */
    void whenComplete(Object result, BiConsumer<Object, Throwable> callback);

    /** The failure a completed result carries (an exception of the service or of the RPC), or null. */
    Throwable failure(Object result);

    /** Whether {@code failure} is a timeout of the invocation. */
    boolean isTimeout(Throwable failure);

    /** The invocation's timeout in milliseconds: the caller's timeout attachment, else the URL's, else Dubbo's default. */
    long timeoutMillis(Object invoker, Object invocation);
}
