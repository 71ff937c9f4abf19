package testapp.containers.javax;

import testapp.containers.AppDatabase;

import javax.servlet.AsyncContext;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.FilterConfig;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The servlets and filters every container IT serves, over the {@code javax} API; the build generates the
 * {@code jakarta} twin (integration-tests pom, containers-generate-jakarta). Plain application code: it knows
 * nothing of the agent, so its responses must be the same with and without it.
 */
public final class JavaxContainerServlets {

    private JavaxContainerServlets() {
    }

    /** URL pattern to servlet class name. */
    public static Map<String, String> routes() {
        Map<String, String> routes = new LinkedHashMap<>();
        routes.put("/hello", HelloServlet.class.getName());
        routes.put("/forward", ForwardServlet.class.getName());
        routes.put("/fail", FailingServlet.class.getName());
        routes.put("/users/*", UserServlet.class.getName());
        routes.put("/async", AsyncServlet.class.getName());
        return routes;
    }

    /** The filter chain in front of every servlet (REQUEST dispatches of /*), in order. */
    public static List<String> filters() {
        return Arrays.asList(OuterFilter.class.getName(), InnerFilter.class.getName());
    }

    /** Answers with a fixed body that echoes one request header, and sets a header of its own. */
    public static class HelloServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            resp.setContentType("text/plain;charset=UTF-8");
            resp.setHeader("X-Answer", "42");
            resp.getWriter().print("hello " + req.getHeader("X-Name"));
        }
    }

    /** Forwards to /hello. */
    public static class ForwardServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws ServletException, IOException {
            req.getRequestDispatcher("/hello").forward(req, resp);
        }
    }

    /** Throws; the container answers 500. */
    public static class FailingServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
            throw new IllegalStateException("failing on purpose");
        }
    }

    /** {@code /users/<id>}: one JDBC query on the request thread. */
    public static class UserServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            int id = Integer.parseInt(req.getPathInfo().substring(1));
            String name;
            try {
                name = AppDatabase.userName(id);
            } catch (SQLException e) {
                throw new IOException(e);
            }
            resp.setContentType("text/plain;charset=UTF-8");
            resp.getWriter().print("user " + id + " is " + name);
        }
    }

    /**
     * Starts async processing and runs a JDBC query in a task given to {@code AsyncContext.start}; {@code doGet} waits
     * until the task runs, so the task is on another thread than the request's, and says so in the body.
     */
    public static class AsyncServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws ServletException {
            final Thread requestThread = Thread.currentThread();
            final CountDownLatch taskRunning = new CountDownLatch(1);
            final AsyncContext async = req.startAsync();
            async.start(new Runnable() {
                @Override
                public void run() {
                    taskRunning.countDown();
                    try {
                        String name = AppDatabase.userName(2);
                        ServletResponse response = async.getResponse();
                        response.setContentType("text/plain;charset=UTF-8");
                        response.getWriter().print("async user 2 is " + name + ", on another thread: " + (Thread.currentThread() != requestThread));
                    } catch (SQLException | IOException e) {
                        ((HttpServletResponse) async.getResponse()).setStatus(500);
                    }
                    async.complete();
                }
            });
            try {
                if (!taskRunning.await(10, TimeUnit.SECONDS)) {
                    throw new ServletException("the async task did not start");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ServletException(e);
            }
        }
    }

    /** First in the chain: sets a header. */
    public static class OuterFilter implements Filter {
        @Override
        public void init(FilterConfig config) {
        }

        @Override
        public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
            ((HttpServletResponse) response).setHeader("X-Chain", "outer");
            chain.doFilter(request, response);
        }

        @Override
        public void destroy() {
        }
    }

    /** Second in the chain: adds to the header, and answers 403 itself (no servlet runs) when the request says X-Block. */
    public static class InnerFilter implements Filter {
        @Override
        public void init(FilterConfig config) {
        }

        @Override
        public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
            HttpServletResponse http = (HttpServletResponse) response;
            http.addHeader("X-Chain", "inner");
            if (((HttpServletRequest) request).getHeader("X-Block") != null) {
                http.setStatus(403);
                http.setContentType("text/plain;charset=UTF-8");
                http.getWriter().print("blocked by the filter");
                return;
            }
            chain.doFilter(request, response);
        }

        @Override
        public void destroy() {
        }
    }
}
