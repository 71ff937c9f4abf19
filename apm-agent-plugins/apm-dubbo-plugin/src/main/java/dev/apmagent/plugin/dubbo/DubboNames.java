package dev.apmagent.plugin.dubbo;

/**
 * Pure naming rules shared by spans and transactions; allocation-free (they append to the event's name builder).
 * <ul>
 *   <li>name: {@code <SimpleInterfaceName>#<method>}, e.g. {@code OrderService#place} for
 *   {@code com.shop.OrderService.place}; a nested interface keeps only its own name ({@code Outer$Api} gives
 *   {@code Api});</li>
 *   <li>generic invocations ({@code $invoke}, {@code $invokeAsync}) are named by the method they really call, the
 *   first argument;</li>
 *   <li>a provider's transaction (a name chosen by whoever calls the port: any consumer, or a client that speaks
 *   Dubbo's protocol) is named by its method only when the exported interface has a public method of that name, or
 *   it is one of Dubbo's own ({@code $invoke}, {@code $invokeAsync}, {@code $echo}); any other method, which Dubbo then
 *   answers with a "not found method" error, is named {@value #OTHER_METHOD}, a name no Java method can have. The
 *   interface is the provider's own (its exported URL), so names stay bounded by the provider's code. A consumer's
 *   span is named by the method the application calls, from its own code, and is not checked;</li>
 *   <li>result: {@code OK}, {@code Error} (the invocation failed) or {@code Timeout} (it timed out).</li>
 * </ul>
 */
public final class DubboNames {

    public static final String RESULT_OK = "OK";
    public static final String RESULT_ERROR = "Error";
    public static final String RESULT_TIMEOUT = "Timeout";

    private static final String UNKNOWN = "unknown";
    /** The method part of the name of a provider's transaction for a method its interface does not have. */
    public static final String OTHER_METHOD = "<other>";

    private DubboNames() {
    }

    /** Appends {@code <SimpleInterfaceName>#<method>}; a missing part is written as {@code unknown}. */
    public static StringBuilder appendName(StringBuilder out, String serviceInterface, String method) {
        if (serviceInterface == null || serviceInterface.isEmpty()) {
            out.append(UNKNOWN);
        } else {
            int start = 0;
            for (int i = serviceInterface.length() - 1; i >= 0; i--) {
                char c = serviceInterface.charAt(i);
                if (c == '.' || c == '$' || c == '/') {
                    start = i + 1;
                    break;
                }
            }
            if (start == serviceInterface.length()) {
                out.append(serviceInterface);
            } else {
                out.append(serviceInterface, start, serviceInterface.length());
            }
        }
        out.append('#');
        out.append(method == null || method.isEmpty() ? UNKNOWN : method);
        return out;
    }

    /**
     * The method part of a provider transaction's name: {@code method} when the interface declares it or it is one of
     * Dubbo's own entry points (or null, written as unknown), otherwise {@value #OTHER_METHOD}.
     */
    public static String providerMethod(String method, boolean declared) {
        if (method == null || declared || isGeneric(method) || "$echo".equals(method)) {
            return method;
        }
        return OTHER_METHOD;
    }

    /** Whether {@code method} is one of Dubbo's generic entry points, whose first argument names the real method. */
    public static boolean isGeneric(String method) {
        return "$invoke".equals(method) || "$invokeAsync".equals(method);
    }

    /**
     * The method an invocation really calls: the first argument of a generic invocation when it is a non-empty
     * string, otherwise {@code method} itself.
     */
    public static String realMethod(String method, Object[] arguments) {
        if (isGeneric(method) && arguments != null && arguments.length == 3 && arguments[0] instanceof String
                && !((String) arguments[0]).isEmpty()) {
            return (String) arguments[0];
        }
        return method;
    }

    /** The transaction result for an invocation that failed with {@code failure} (null: succeeded). */
    public static String result(Throwable failure, boolean timeout) {
        if (failure == null) {
            return RESULT_OK;
        }
        return timeout ? RESULT_TIMEOUT : RESULT_ERROR;
    }
}
