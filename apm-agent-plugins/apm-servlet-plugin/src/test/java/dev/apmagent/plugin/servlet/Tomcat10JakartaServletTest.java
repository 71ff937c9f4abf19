package dev.apmagent.plugin.servlet;

import testapp.servlet.jakarta.JakartaTestApp;
import jakarta.servlet.Servlet;
import org.apache.catalina.Context;
import org.apache.catalina.Wrapper;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

/** The servlet scenarios on Tomcat 10.1 (jakarta.servlet). */
class Tomcat10JakartaServletTest extends AbstractServletContainerTest {

    @TempDir
    Path baseDir;

    private Tomcat tomcat;

    @Override
    protected int startContainer(Map<String, Class<?>> servlets, Class<?> filter) throws Exception {
        tomcat = new Tomcat();
        tomcat.setPort(0);
        tomcat.setBaseDir(baseDir.toString());
        Context context = tomcat.addContext("", null);
        int i = 0;
        for (Map.Entry<String, Class<?>> e : servlets.entrySet()) {
            String name = "servlet" + i++;
            Wrapper wrapper = Tomcat.addServlet(context, name, (Servlet) e.getValue().getDeclaredConstructor().newInstance());
            wrapper.setAsyncSupported(true);
            context.addServletMappingDecoded(e.getKey(), name);
        }
        FilterDef def = new FilterDef();
        def.setFilterName("marking");
        def.setFilterClass(filter.getName());
        def.setAsyncSupported("true");
        context.addFilterDef(def);
        FilterMap map = new FilterMap();
        map.setFilterName("marking");
        map.addURLPattern("/*");
        context.addFilterMap(map);
        tomcat.getConnector();
        tomcat.start();
        return tomcat.getConnector().getLocalPort();
    }

    @Override
    protected void stopContainer() throws Exception {
        tomcat.stop();
        tomcat.destroy();
    }

    @Override
    protected Map<String, Class<?>> servlets() {
        return JakartaTestApp.servlets();
    }

    @Override
    protected Class<?> filter() {
        return JakartaTestApp.filter();
    }
}
