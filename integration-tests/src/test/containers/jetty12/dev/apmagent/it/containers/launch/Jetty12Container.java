package dev.apmagent.it.containers.launch;

import dev.apmagent.it.containers.ServletContainer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;

import jakarta.servlet.DispatcherType;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

/** Embedded Jetty 12 (jakarta, ee10). */
public final class Jetty12Container implements ServletContainer {

    private Server server;

    @Override
    public int start(Map<String, String> servlets, List<String> filters, Path baseDir) throws Exception {
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        for (Map.Entry<String, String> servlet : servlets.entrySet()) {
            ServletHolder holder = context.addServlet(servlet.getValue(), servlet.getKey());
            holder.setAsyncSupported(true);
        }
        for (String filter : filters) {
            FilterHolder holder = new FilterHolder();
            holder.setClassName(filter);
            holder.setAsyncSupported(true);
            context.addFilter(holder, "/*", EnumSet.of(DispatcherType.REQUEST));
        }
        server.setHandler(context);
        server.start();
        return connector.getLocalPort();
    }

    @Override
    public void stop() throws Exception {
        server.stop();
    }
}
