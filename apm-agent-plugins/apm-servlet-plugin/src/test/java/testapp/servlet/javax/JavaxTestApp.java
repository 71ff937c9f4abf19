package testapp.servlet.javax;

import dev.apmagent.trace.GlobalTracer;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Tracer;

import javax.servlet.AsyncContext;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The servlets and the filter every container test serves, over the {@code javax} API. The build generates the
 * {@code jakarta} twin (see the module's pom). {@link #servlets()} maps URL patterns to servlet classes.
 */
public final class JavaxTestApp {

    private JavaxTestApp() {
    }

    public static Map<String, Class<?>> servlets() {
        Map<String, Class<?>> servlets = new LinkedHashMap<String, Class<?>>();
        servlets.put("/hello", HelloServlet.class);
        servlets.put("/forward", ForwardServlet.class);
        servlets.put("/fail", FailingServlet.class);
        servlets.put("/unavailable", UnavailableServlet.class);
        servlets.put("/async", AsyncServlet.class);
        servlets.put("/async-timeout", AsyncTimeoutServlet.class);
        servlets.put("/static/*", HelloServlet.class);
        servlets.put("/users/*", HelloServlet.class);
        return servlets;
    }

    public static Class<?> filter() {
        return MarkingFilter.class;
    }

    /** Answers with a fixed body, echoes one request header and sets a repeated header. */
    public static class HelloServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            resp.setContentType("text/plain");
            resp.setHeader("X-Answer", "42");
            resp.addHeader("X-Tag", "a");
            resp.addHeader("X-Tag", "b");
            resp.getWriter().print("hello " + req.getHeader("X-Name"));
        }

        @Override
        protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            doGet(req, resp);
        }
    }

    /** Forwards to /hello: one transaction, named by this servlet. */
    public static class ForwardServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws ServletException, IOException {
            req.getRequestDispatcher("/hello").forward(req, resp);
        }
    }

    /** Throws: the container answers 500, the transaction fails and the error is captured. */
    public static class FailingServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
            throw new IllegalStateException("failing on purpose");
        }
    }

    /** Answers 503 without throwing. */
    public static class UnavailableServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            resp.sendError(503, "try later");
        }
    }

    /** Completes on another thread, where it records a span under the request's transaction. */
    public static class AsyncServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
            final AsyncContext context = req.startAsync();
            context.start(new Runnable() {
                @Override
                public void run() {
                    Tracer tracer = GlobalTracer.get();
                    Span span = tracer == null ? null : tracer.createSpan();
                    if (span != null) {
                        span.setName("async work");
                        span.setType("app", "internal", null);
                        span.end();
                    }
                    try {
                        context.getResponse().getWriter().print("async done");
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                    context.complete();
                }
            });
        }
    }

    /** Starts async processing and never completes it: the container times the request out. */
    public static class AsyncTimeoutServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
            req.startAsync().setTimeout(300);
        }
    }

    /** A filter in front of every servlet; adds a response header, and throws when asked to by a request header. */
    public static class MarkingFilter implements Filter {
        @Override
        public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
            ((HttpServletResponse) response).setHeader("X-Filtered", "yes");
            if (((HttpServletRequest) request).getHeader("X-Fail-In-Filter") != null) {
                throw new IllegalArgumentException("failing in the filter");
            }
            chain.doFilter(request, response);
        }
    }
}
