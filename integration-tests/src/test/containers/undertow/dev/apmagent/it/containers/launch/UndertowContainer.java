package dev.apmagent.it.containers.launch;

import dev.apmagent.it.containers.ServletContainer;
import io.undertow.Undertow;
import io.undertow.servlet.Servlets;
import io.undertow.servlet.api.DeploymentInfo;
import io.undertow.servlet.api.DeploymentManager;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.Servlet;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Embedded Undertow 2.3 (jakarta). */
public final class UndertowContainer implements ServletContainer {

    private DeploymentManager deployment;
    private Undertow server;

    @Override
    @SuppressWarnings("unchecked")
    public int start(Map<String, String> servlets, List<String> filters, int port, Path baseDir) throws Exception {
        ClassLoader loader = UndertowContainer.class.getClassLoader();
        DeploymentInfo info = Servlets.deployment().setClassLoader(loader).setContextPath("/").setDeploymentName("app");
        for (Map.Entry<String, String> servlet : servlets.entrySet()) {
            Class<? extends Servlet> type = (Class<? extends Servlet>) Class.forName(servlet.getValue(), false, loader);
            info.addServlet(Servlets.servlet(simpleName(servlet.getValue()), type).addMapping(servlet.getKey()).setAsyncSupported(true));
        }
        for (String filter : filters) {
            Class<? extends Filter> type = (Class<? extends Filter>) Class.forName(filter, false, loader);
            info.addFilter(Servlets.filter(simpleName(filter), type).setAsyncSupported(true));
            info.addFilterUrlMapping(simpleName(filter), "/*", DispatcherType.REQUEST);
        }
        deployment = Servlets.defaultContainer().addDeployment(info);
        deployment.deploy();
        server = Undertow.builder().addHttpListener(port, "127.0.0.1").setHandler(deployment.start()).build();
        server.start();
        return ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
    }

    private static String simpleName(String className) {
        return className.substring(className.lastIndexOf('$') + 1);
    }

    @Override
    public void stop() throws Exception {
        server.stop();
        deployment.stop();
        deployment.undeploy();
    }
}
