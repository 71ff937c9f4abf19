package dev.apmagent.plugin.dubbo;

/**
 * Pure naming rules shared by spans and transactions; allocation-free (they append to the event's name builder).
 * <ul>
 *   <li>name: {@code <SimpleInterfaceName>#<method>}, e.g. {@code OrderService#place} for
 *   {@code com.shop.OrderService.place}; a nested interface keeps only its own name ({@code Outer$Api} gives
 *   {@code Api});</li>
 *   <li>generic invocations ({@code $invoke}, {@code $invokeAsync}) are named by the method they really call, the
 *   first argument;</li>
 *   <li>result: {@code OK}, {@code Error} (the invocation failed) or {@code Timeout} (it timed out).</li>
 * </ul>
 */
public final class DubboNames {

    public static final String RESULT_OK = "OK";
    public static final String RESULT_ERROR = "Error";
    public static final String RESULT_TIMEOUT = "Timeout";

    private static final String UNKNOWN = "unknown";

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
