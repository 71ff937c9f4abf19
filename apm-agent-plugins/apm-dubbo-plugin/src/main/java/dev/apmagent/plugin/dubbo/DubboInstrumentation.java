package dev.apmagent.plugin.dubbo;

import dev.apmagent.plugin.Instrumentation;
import dev.apmagent.plugin.LibraryHelper;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;

import static dev.apmagent.plugin.ClassLoaderHasClass.hasClassNamed;
import static net.bytebuddy.matcher.ElementMatchers.declaresMethod;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.returns;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * {@code dubbo}: {@code org.apache.dubbo.monitor.support.MonitorFilter#invoke(Invoker, Invocation)}, the one filter
 * that Dubbo puts in every chain by default, on both sides, in 2.7 ({@code @Activate(group = {PROVIDER, CONSUMER})})
 * and 3.x (provider chain; on the consumer side its subclass {@code MonitorClusterFilter} inherits this very method).
 * Its {@code invoke} runs once per invocation and side, after the context filters and before the protocol.
 *
 * <p>Why this hook and not our own {@code Filter} registered through an injected {@code META-INF/dubbo} resource (the
 * OpenTelemetry way): Dubbo caches its extension classes and builds each chain once, when a service is exported or
 * referenced, so a filter added by an agent attached later would never be in an existing chain; and adding a class to
 * Dubbo's loader needs class injection. Advising an existing method is a plain retransformation (no new fields or
 * methods), works on chains built before attach, and needs no cooperation from the application. The return-type
 * guard ({@code Result.whenCompleteWithContext}) restricts it to 2.7.3 and later.
 */
public final class DubboInstrumentation extends Instrumentation {

    /** The adapter over Dubbo's API as the instrumented class's loader sees it. */
    public static final LibraryHelper<DubboAdapter> adapters = new LibraryHelper<DubboAdapter>(DubboAdapter.class,
            "dev.apmagent.plugin.dubbo.helper.ApacheDubboAdapter", "dev.apmagent.plugin.dubbo.helper.");

    static final String MONITOR_FILTER = "org.apache.dubbo.monitor.support.MonitorFilter";
    private static final String ADVICE = "dev.apmagent.plugin.dubbo.DubboInstrumentation$MonitorFilterInvokeAdvice";

    @Override
    public String name() {
        return "dubbo";
    }

    @Override
    public Collection<String> groupNames() {
        return Arrays.asList("dubbo", "apache-dubbo");
    }

    @Override
    public ElementMatcher<ClassLoader> classLoaderMatcher() {
        return hasClassNamed("org.apache.dubbo.rpc.Filter");
    }

    @Override
    public ElementMatcher<? super TypeDescription> typeNamePreFilter() {
        return named(MONITOR_FILTER);
    }

    @Override
    public ElementMatcher<? super TypeDescription> typeMatcher() {
        return named(MONITOR_FILTER).and(declaresMethod(invokeMethod())); // 2.7.0-2.7.2 are not even retransformed
    }

    private static ElementMatcher.Junction<MethodDescription> invokeMethod() {
        return named("invoke").and(takesArguments(2))
                .and(takesArgument(0, named("org.apache.dubbo.rpc.Invoker")))
                .and(takesArgument(1, named("org.apache.dubbo.rpc.Invocation")))
                .and(returns(named("org.apache.dubbo.rpc.Result").and(declaresMethod(named("whenCompleteWithContext")))));
    }

    @Override
    public List<AdviceBinding> advice() {
        return AdviceBinding.single(invokeMethod(), ADVICE);
    }

    /** {@code MonitorFilter.invoke(invoker, invocation)}: a trampoline into {@link DubboHelper}. */
    public static final class MonitorFilterInvokeAdvice {
        private MonitorFilterInvokeAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.Origin Class<?> type, @Advice.Argument(0) Object invoker, @Advice.Argument(1) Object invocation) {
            return DubboHelper.enter(adapters, type, invoker, invocation);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Origin Class<?> type, @Advice.Enter Object scope, @Advice.Argument(0) Object invoker,
                                @Advice.Argument(1) Object invocation, @Advice.Return Object result, @Advice.Thrown Throwable thrown) {
            DubboHelper.exit(adapters, type, scope, invoker, invocation, result, thrown);
        }
    }
}
