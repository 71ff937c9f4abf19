package dev.apmagent.instrument;

import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

import static net.bytebuddy.matcher.ElementMatchers.isBootstrapClassLoader;
import static net.bytebuddy.matcher.ElementMatchers.nameContains;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.not;

/**
 * Types and class loaders the agent never instruments: its own classes, the JDK's (but not Jersey 1 and Metro, which
 * live under {@code com.sun.}), other bytecode tools and agents, and generated classes (JDK proxies, lambdas, CGLIB
 * and ByteBuddy subclasses, reflection accessors). These checks look only at names, so they cost
 * nothing per class beyond a few string comparisons and keep start-up cost proportional to what we instrument.
 * A check that needs more than the name (a synthetic class, say) must not be here, where every loaded class meets
 * it: asking for a modifier makes ByteBuddy parse the whole class file, methods and all, and parsing every class the
 * application loads is what made ASM's {@code ClassReader.readMethod} the most expensive C2 compilation of start-up
 * (docs/benchmarks.md). Such checks go in {@link CheapFirstMatcher}, behind an instrumentation's name pre-filter.
 */
public final class IgnoreRules {

    private IgnoreRules() {
    }

    public static ElementMatcher.Junction<TypeDescription> ignoredTypes() {
        return nameStartsWith("dev.apmagent.")
                .or(nameStartsWith("java."))
                .or(nameStartsWith("javax.management."))
                .or(nameStartsWith("jdk."))
                .or(nameStartsWith("sun."))
                .or(nameStartsWith("com.sun.").and(not(nameStartsWith("com.sun.jersey.")).and(not(nameStartsWith("com.sun.xml.ws.")))))
                .or(nameStartsWith("net.bytebuddy."))
                .or(nameStartsWith("org.objectweb.asm."))
                .or(nameStartsWith("javassist."))
                .or(nameStartsWith("org.aspectj."))
                .or(nameStartsWith("kotlin."))
                .or(nameStartsWith("scala.runtime."))
                .or(nameStartsWith("groovy.").or(nameStartsWith("org.codehaus.groovy.")))
                .or(nameStartsWith("co.elastic.apm.").or(nameStartsWith("io.opentelemetry.javaagent."))
                        .or(nameStartsWith("datadog.trace.")).or(nameStartsWith("com.newrelic."))
                        .or(nameStartsWith("com.dynatrace.")).or(nameStartsWith("com.appdynamics."))
                        .or(nameStartsWith("com.instana.")))
                .or(nameContains("$$Lambda")).or(nameContains("$Lambda$"))
                .or(nameContains("$$EnhancerBy")).or(nameContains("$$FastClassBy")).or(nameContains("$$SpringCGLIB"))
                .or(nameContains("$HibernateProxy$")).or(nameContains("$ByteBuddy$"))
                .or(nameContains(".$Proxy")).or(nameStartsWith("$Proxy"));
    }

    public static ElementMatcher.Junction<ClassLoader> ignoredClassLoaders() {
        return isBootstrapClassLoader().or(new ElementMatcher.Junction.AbstractBase<ClassLoader>() {
            @Override
            public boolean matches(ClassLoader loader) {
                if (loader == null) {
                    return true;
                }
                String name = loader.getClass().getName();
                return name.equals("dev.apmagent.plugin.HelperClassLoader")
                        || name.equals("sun.reflect.DelegatingClassLoader")
                        || name.equals("jdk.internal.reflect.DelegatingClassLoader")
                        || name.equals("org.codehaus.groovy.runtime.callsite.CallSiteClassLoader");
            }
        });
    }
}
