package dev.apmagent.plugin.servlet;

import testapp.servlet.javax.JavaxTestApp;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.FilterHolder;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;

import javax.servlet.DispatcherType;
import javax.servlet.Filter;
import javax.servlet.Servlet;
import java.util.EnumSet;
import java.util.Map;

/** The servlet scenarios on Jetty 9.4 (javax.servlet). */
class Jetty9JavaxServletTest extends AbstractServletContainerTest {

    private Server server;

    @Override
    @SuppressWarnings("unchecked")
    protected int startContainer(Map<String, Class<?>> servlets, Class<?> filter) throws Exception {
        server = new Server(0);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        for (Map.Entry<String, Class<?>> e : servlets.entrySet()) {
            ServletHolder holder = new ServletHolder((Class<? extends Servlet>) e.getValue());
            holder.setAsyncSupported(true);
            context.addServlet(holder, e.getKey());
        }
        FilterHolder filterHolder = new FilterHolder((Class<? extends Filter>) filter);
        filterHolder.setAsyncSupported(true);
        context.addFilter(filterHolder, "/*", EnumSet.of(DispatcherType.REQUEST));
        server.setHandler(context);
        server.start();
        return ((ServerConnector) server.getConnectors()[0]).getLocalPort();
    }

    @Override
    protected void stopContainer() throws Exception {
        server.stop();
    }

    @Override
    protected Map<String, Class<?>> servlets() {
        return JavaxTestApp.servlets();
    }

    @Override
    protected Class<?> filter() {
        return JavaxTestApp.filter();
    }
}
