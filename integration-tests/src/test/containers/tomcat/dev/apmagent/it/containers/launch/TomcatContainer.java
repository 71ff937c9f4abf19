package dev.apmagent.it.containers.launch;

import dev.apmagent.it.containers.ServletContainer;
import org.apache.catalina.Context;
import org.apache.catalina.Wrapper;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Embedded Tomcat. Everything is registered by class name, so one source serves Tomcat 9 (javax) and Tomcat 10.1
 * (jakarta); the pom compiles it once against each.
 */
public final class TomcatContainer implements ServletContainer {

    private Tomcat tomcat;

    @Override
    public int start(Map<String, String> servlets, List<String> filters, int port, Path baseDir) throws Exception {
        tomcat = new Tomcat();
        tomcat.setBaseDir(baseDir.toString());
        tomcat.setPort(port);
        tomcat.getConnector().setProperty("address", "127.0.0.1");
        Context context = tomcat.addContext("", null);
        for (Map.Entry<String, String> servlet : servlets.entrySet()) {
            String name = servlet.getValue().substring(servlet.getValue().lastIndexOf('$') + 1);
            Wrapper wrapper = Tomcat.addServlet(context, name, servlet.getValue());
            wrapper.setAsyncSupported(true);
            context.addServletMappingDecoded(servlet.getKey(), name);
        }
        for (String filter : filters) {
            FilterDef def = new FilterDef();
            def.setFilterName(filter);
            def.setFilterClass(filter);
            def.setAsyncSupported("true");
            context.addFilterDef(def);
            FilterMap map = new FilterMap();
            map.setFilterName(filter);
            map.addURLPattern("/*");
            context.addFilterMap(map);
        }
        tomcat.start();
        return tomcat.getConnector().getLocalPort();
    }

    @Override
    public void stop() throws Exception {
        tomcat.stop();
        tomcat.destroy();
    }
}
