package dev.apmagent.plugin.jdkhttp;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.URI;
import java.util.Optional;
import java.util.function.BiPredicate;

/**
 * The few methods of {@code java.net.http} the handlers call, as method handles: the agent compiles for Java 8, which
 * has no {@code java.net.http}. Resolved once, when the class is first used, which only happens once the JDK's
 * {@code HttpClientImpl} was advised (JDK 11 and later). {@link #copyWithHeaders} needs
 * {@code HttpRequest.newBuilder(HttpRequest, BiPredicate)} (JDK 16): before that it returns null and requests go
 * without the trace headers (the span is still recorded).
 */
final class JdkHttpApi {

    private static final MethodHandle METHOD;
    private static final MethodHandle URI_OF;
    private static final MethodHandle FIRST_HEADER;
    private static final MethodHandle STATUS_CODE;
    private static final MethodHandle COPY;
    private static final MethodHandle SET_HEADER;
    private static final MethodHandle BUILD;

    /** Every header of the original request is copied. */
    private static final BiPredicate<String, String> ALL_HEADERS = new BiPredicate<String, String>() {
        @Override
        public boolean test(String name, String value) {
            return true;
        }
    };

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            Class<?> request = Class.forName("java.net.http.HttpRequest");
            Class<?> headers = Class.forName("java.net.http.HttpHeaders");
            Class<?> response = Class.forName("java.net.http.HttpResponse");
            Class<?> builder = Class.forName("java.net.http.HttpRequest$Builder");
            METHOD = lookup.findVirtual(request, "method", MethodType.methodType(String.class))
                    .asType(MethodType.methodType(String.class, Object.class));
            URI_OF = lookup.findVirtual(request, "uri", MethodType.methodType(URI.class))
                    .asType(MethodType.methodType(URI.class, Object.class));
            MethodHandle headersOf = lookup.findVirtual(request, "headers", MethodType.methodType(headers));
            MethodHandle firstValue = lookup.findVirtual(headers, "firstValue", MethodType.methodType(Optional.class, String.class));
            FIRST_HEADER = MethodHandles.filterArguments(firstValue, 0, headersOf)
                    .asType(MethodType.methodType(Optional.class, Object.class, String.class));
            STATUS_CODE = lookup.findVirtual(response, "statusCode", MethodType.methodType(int.class))
                    .asType(MethodType.methodType(int.class, Object.class));
            MethodHandle copy;
            try {
                copy = lookup.findStatic(request, "newBuilder", MethodType.methodType(builder, request, BiPredicate.class))
                        .asType(MethodType.methodType(Object.class, Object.class, BiPredicate.class));
            } catch (NoSuchMethodException e) {
                copy = null; // JDK 11 to 15
            }
            COPY = copy;
            SET_HEADER = lookup.findVirtual(builder, "setHeader", MethodType.methodType(builder, String.class, String.class))
                    .asType(MethodType.methodType(Object.class, Object.class, String.class, String.class));
            BUILD = lookup.findVirtual(builder, "build", MethodType.methodType(request))
                    .asType(MethodType.methodType(Object.class, Object.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private JdkHttpApi() {
    }

    static String method(Object request) throws Throwable {
        return (String) METHOD.invokeExact(request);
    }

    static URI uri(Object request) throws Throwable {
        return (URI) URI_OF.invokeExact(request);
    }

    /** The first value of header {@code name} of an {@code HttpRequest}, or null. */
    static String firstHeader(Object request, String name) throws Throwable {
        Optional<?> value = (Optional<?>) FIRST_HEADER.invokeExact(request, name);
        return value.isPresent() ? (String) value.get() : null;
    }

    static int statusCode(Object response) throws Throwable {
        return (int) STATUS_CODE.invokeExact(response);
    }

    /**
     * A copy of {@code request} with the headers {@code names[i]: values[i]} for i &lt; {@code count} set, or null when
     * this JDK cannot copy a request (before 16).
     */
    static Object copyWithHeaders(Object request, String[] names, String[] values, int count) throws Throwable {
        if (COPY == null) {
            return null;
        }
        Object builder = (Object) COPY.invokeExact(request, ALL_HEADERS);
        for (int i = 0; i < count; i++) {
            builder = (Object) SET_HEADER.invokeExact(builder, names[i], values[i]);
        }
        return (Object) BUILD.invokeExact(builder);
    }
}
