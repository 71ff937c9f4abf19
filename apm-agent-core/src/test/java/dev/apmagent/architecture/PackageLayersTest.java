package dev.apmagent.architecture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The layering of docs/architecture.md, checked on the sources: a package of the core refers only to packages below it
 * in {@link #LAYERS} (nothing outside {@code bootstrap} refers to {@code bootstrap}), and a plugin refers to nothing of
 * the core but the kit ({@code dev.apmagent.plugin}), the event model ({@code trace}), option declarations
 * ({@code config}) and the bootstrap bridge.
 */
class PackageLayersTest {

    /** Top to bottom: each package may use those after it, never those before it. */
    static final List<String> LAYERS = Arrays.asList("bootstrap", "instrument", "plugin", "report", "trace", "metrics", "pool",
            "config", "log", "bridge");

    static final List<String> PLUGIN_MAY_USE = Arrays.asList("plugin", "trace", "config", "bridge");

    private static final Pattern REFERENCE = Pattern.compile("\\bdev\\.apmagent\\.([a-z]+)\\.");
    /** A plugin's package under the kit's: a plugin may name its own, never another plugin's. */
    private static final Pattern PLUGIN_REFERENCE = Pattern.compile("\\bdev\\.apmagent\\.plugin\\.([a-z]+)\\.");

    @Test
    void corePackagesOnlyUsePackagesBelowThem() throws IOException {
        Path root = Paths.get("src/main/java/dev/apmagent");
        List<String> violations = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).collect(Collectors.toList())) {
                String pkg = root.relativize(file).getName(0).toString();
                int level = LAYERS.indexOf(pkg);
                assertTrue(level >= 0, file + ": package " + pkg + " is not in the layer table");
                for (String used : references(file, REFERENCE)) {
                    int usedLevel = LAYERS.indexOf(used);
                    if (!used.equals(pkg) && usedLevel >= 0 && usedLevel < level) {
                        violations.add(file + " uses " + used);
                    }
                }
            }
        }
        assertEquals(new ArrayList<String>(), violations);
    }

    @Test
    void pluginsUseOnlyTheKitTheModelAndOptions() throws IOException {
        Path plugins = Paths.get("../apm-agent-plugins");
        List<String> violations = new ArrayList<>();
        List<Path> sources;
        try (Stream<Path> files = Files.walk(plugins)) {
            sources = files.filter(f -> f.toString().endsWith(".java") && f.toString().contains("/src/main/"))
                    .collect(Collectors.toList());
        }
        assertFalse(sources.isEmpty(), "plugin sources");
        for (Path file : sources) {
            for (String used : references(file, REFERENCE)) {
                if (!PLUGIN_MAY_USE.contains(used)) {
                    violations.add(file + " uses " + used);
                }
            }
            String own = file.toString().replaceFirst(".*/dev/apmagent/plugin/([a-z]+)/.*", "$1");
            for (String plugin : references(file, PLUGIN_REFERENCE)) {
                if (!plugin.equals(own)) {
                    violations.add(file + " uses the plugin " + plugin);
                }
            }
        }
        assertEquals(new ArrayList<String>(), violations);
    }

    /** Packages of the agent named in code (imports and qualified names), not in comments. */
    static List<String> references(Path file, Pattern reference) throws IOException {
        List<String> used = new ArrayList<>();
        boolean inComment = false;
        for (String raw : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String line = raw.trim();
            if (inComment) {
                if (line.contains("*/")) {
                    inComment = false;
                }
                continue;
            }
            if (line.startsWith("/*")) {
                inComment = !line.contains("*/");
                continue;
            }
            if (line.startsWith("//") || line.startsWith("package ")) {
                continue;
            }
            int comment = line.indexOf("//");
            Matcher m = reference.matcher(comment >= 0 ? line.substring(0, comment) : line);
            while (m.find()) {
                used.add(m.group(1));
            }
        }
        return used;
    }
}
