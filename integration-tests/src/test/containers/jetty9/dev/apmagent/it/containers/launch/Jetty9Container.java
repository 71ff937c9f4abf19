package dev.apmagent.it.containers.launch;

import dev.apmagent.it.containers.ServletContainer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.FilterHolder;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;

import javax.servlet.DispatcherType;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

/** Embedded Jetty 9.4 (javax). */
public final class Jetty9Container implements ServletContainer {

    private Server server;

    @Override
    public int start(Map<String, String> servlets, List<String> filters, int port, Path baseDir) throws Exception {
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        for (Map.Entry<String, String> servlet : servlets.entrySet()) {
            ServletHolder holder = new ServletHolder();
            holder.setName(simpleName(servlet.getValue())); // else Jetty names it with an identity hash, shown on error pages
            holder.setClassName(servlet.getValue());
            holder.setAsyncSupported(true);
            context.addServlet(holder, servlet.getKey());
        }
        for (String filter : filters) {
            FilterHolder holder = new FilterHolder();
            holder.setName(simpleName(filter));
            holder.setClassName(filter);
            holder.setAsyncSupported(true);
            context.addFilter(holder, "/*", EnumSet.of(DispatcherType.REQUEST));
        }
        ErrorHandler errors = new ErrorHandler();
        errors.setShowStacks(false); // the stack of an error page depends on which pool thread ran the request
        context.setErrorHandler(errors);
        server.setHandler(context);
        server.start();
        return connector.getLocalPort();
    }

    private static String simpleName(String className) {
        return className.substring(className.lastIndexOf('$') + 1);
    }

    @Override
    public void stop() throws Exception {
        server.stop();
    }
}
