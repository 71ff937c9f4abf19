package dev.apmagent.plugin.servlet;

import dev.apmagent.plugin.Instrumentation;
import dev.apmagent.plugin.Plugin;
import dev.apmagent.plugin.servlet.jakarta.JakartaServletInstrumentations;
import dev.apmagent.plugin.servlet.javax.JavaxServletInstrumentations;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A transaction per incoming HTTP request, for the javax and the jakarta servlet APIs. */
public final class ServletPlugin implements Plugin {

    @Override
    public String name() {
        return "servlet";
    }

    @Override
    public List<Instrumentation> instrumentations() {
        List<Instrumentation> all = new ArrayList<Instrumentation>(JavaxServletInstrumentations.all());
        all.addAll(JakartaServletInstrumentations.all());
        return Collections.unmodifiableList(all);
    }
}
