package dev.apmagent.plugin.dubbo.helper;

import dev.apmagent.plugin.dubbo.DubboAdapter;
import dev.apmagent.plugin.dubbo.DubboNames;
import dev.apmagent.plugin.Propagation;
import dev.apmagent.trace.TraceParentHeader;
import org.apache.dubbo.common.URL;
import org.apache.dubbo.rpc.AsyncRpcResult;
import org.apache.dubbo.rpc.Invocation;
import org.apache.dubbo.rpc.Invoker;
import org.apache.dubbo.rpc.Result;
import org.apache.dubbo.rpc.RpcContext;
import org.apache.dubbo.rpc.RpcException;
import org.apache.dubbo.rpc.cluster.ClusterInvoker;

import java.lang.reflect.Method;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * {@link DubboAdapter} over Apache Dubbo 2.7.3+ and 3.x. Compiled against 2.7.23; every method it calls has the same
 * descriptor in 3.2 and 3.3. Defined next to the application's Dubbo by {@link dev.apmagent.plugin.LibraryHelper}.
 * Attachments are written as strings only: Dubbo 3 serializes attachments and the context.
 */
public final class ApacheDubboAdapter implements DubboAdapter {

    private static final String CONSUMER = "consumer";
    private static final String INJVM = "injvm";
    private static final String TIMEOUT_KEY = "timeout";
    private static final int DEFAULT_TIMEOUT_MILLIS = 1000; // Dubbo's own default
    private static final String[] TRACE_HEADERS = {
            TraceParentHeader.TRACEPARENT, TraceParentHeader.TRACESTATE, TraceParentHeader.ELASTIC_TRACEPARENT};

    /** The public method names of each service interface, read once per interface. */
    private static final ClassValue<Set<String>> methodNames = new ClassValue<Set<String>>() {
        @Override
        protected Set<String> computeValue(Class<?> type) {
            Set<String> names = new HashSet<String>();
            for (Method m : type.getMethods()) {
                names.add(m.getName());
            }
            return names;
        }
    };

    /**
     * Dubbo 2.7 copies the thread's RpcContext attachments over the invocation's when sending; 3.x keeps the inbound
     * ones apart (server attachment) and copies client attachments only where absent.
     */
    private final boolean contextOverwritesInvocation;

    public ApacheDubboAdapter() {
        boolean dubbo3;
        try {
            RpcContext.class.getMethod("getClientAttachment");
            dubbo3 = true;
        } catch (NoSuchMethodException e) {
            dubbo3 = false;
        }
        this.contextOverwritesInvocation = !dubbo3;
    }

    @Override
    public boolean isConsumer(Object invoker) {
        if (invoker instanceof ClusterInvoker) {
            return true; // 3.x: the consumer side of MonitorFilter is MonitorClusterFilter, in the cluster chain
        }
        URL url = ((Invoker<?>) invoker).getUrl();
        return url != null && CONSUMER.equals(url.getParameter("side"));
    }

    @Override
    public boolean isInJvm(Object invoker) {
        URL url = ((Invoker<?>) invoker).getUrl();
        return url != null && INJVM.equals(url.getProtocol());
    }

    @Override
    public String serviceInterface(Object invoker) {
        Invoker<?> i = (Invoker<?>) invoker;
        URL url = i.getUrl();
        String name = url == null ? null : url.getServiceInterface();
        if (name == null || name.isEmpty()) {
            Class<?> type = i.getInterface();
            name = type == null ? null : type.getName();
        }
        return name;
    }

    @Override
    public String methodName(Object invocation) {
        Invocation inv = (Invocation) invocation;
        String method = inv.getMethodName();
        return DubboNames.isGeneric(method) ? DubboNames.realMethod(method, inv.getArguments()) : method;
    }

    @Override
    public boolean declaresMethod(Object invoker, String method) {
        Class<?> type = ((Invoker<?>) invoker).getInterface();
        return type != null && methodNames.get(type).contains(method);
    }

    @Override
    public String first(Object invocation, String name) {
        Object value = ((Invocation) invocation).getObjectAttachments().get(name);
        return value instanceof String ? (String) value : null;
    }

    @Override
    public void all(Object invocation, String name, Propagation.HeaderSink sink) {
        String value = first(invocation, name);
        if (value != null) {
            sink.accept(value);
        }
    }

    @Override
    public void set(Object invocation, String name, String value) {
        ((Invocation) invocation).setAttachment(name, value);
    }

    @Override
    public void clearTraceHeaders(Object invocation) {
        Map<String, Object> attachments = ((Invocation) invocation).getObjectAttachments();
        if (attachments != null) {
            for (int i = 0; i < TRACE_HEADERS.length; i++) {
                attachments.remove(TRACE_HEADERS[i]);
            }
        }
        if (contextOverwritesInvocation) {
            Map<String, Object> context = RpcContext.getContext().getObjectAttachments();
            if (context != null && !context.isEmpty()) {
                for (int i = 0; i < TRACE_HEADERS.length; i++) {
                    context.remove(TRACE_HEADERS[i]);
                }
            }
        }
    }

    @Override
    public String remoteHost(Object invoker, Object invocation) {
        URL url = remoteUrl(invoker, invocation);
        return url == null ? null : url.getHost();
    }

    @Override
    public int remotePort(Object invoker, Object invocation) {
        URL url = remoteUrl(invoker, invocation);
        int port = url == null ? 0 : url.getPort();
        return port > 0 ? port : -1;
    }

    /** The URL of the provider invoker the call reached: Dubbo records it in the invocation as it goes down the chain. */
    private static URL remoteUrl(Object invoker, Object invocation) {
        Invoker<?> last = ((Invocation) invocation).getInvoker();
        if (last == null || last instanceof ClusterInvoker) {
            last = (Invoker<?>) invoker;
        }
        return last.getUrl();
    }

    @Override
    public boolean isPending(Object result) {
        return result instanceof AsyncRpcResult && !((AsyncRpcResult) result).getResponseFuture().isDone();
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void whenComplete(Object result, BiConsumer<Object, Throwable> callback) {
        ((Result) result).whenCompleteWithContext((BiConsumer) callback);
    }

    @Override
    public Throwable failure(Object result) {
        Result r = (Result) result;
        return r.hasException() ? r.getException() : null;
    }

    @Override
    public boolean isTimeout(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof RpcException && ((RpcException) t).isTimeout()
                    || t instanceof org.apache.dubbo.remoting.TimeoutException
                    || t instanceof java.util.concurrent.TimeoutException) {
                return true;
            }
        }
        return false;
    }

    @Override
    public long timeoutMillis(Object invoker, Object invocation) {
        Object attachment = ((Invocation) invocation).getObjectAttachments().get(TIMEOUT_KEY);
        if (attachment instanceof Number) {
            return ((Number) attachment).longValue();
        }
        if (attachment instanceof String) {
            try {
                return Long.parseLong((String) attachment);
            } catch (NumberFormatException e) {
                // fall through to the URL's timeout
            }
        }
        URL url = ((Invoker<?>) invoker).getUrl();
        return url == null ? DEFAULT_TIMEOUT_MILLIS
                : url.getMethodParameter(((Invocation) invocation).getMethodName(), TIMEOUT_KEY, DEFAULT_TIMEOUT_MILLIS);
    }
}
