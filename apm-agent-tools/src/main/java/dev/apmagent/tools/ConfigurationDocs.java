package dev.apmagent.tools;

import dev.apmagent.config.ConfigLoader;
import dev.apmagent.config.ConfigOption;
import dev.apmagent.config.OptionProvider;
import dev.apmagent.config.OptionRegistry;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Generates docs/configuration.md from the option registry: the prose of {@code configuration-docs.md} (a resource
 * beside this class) with one table per {@link OptionProvider}, grouped by category ("Core" first, then
 * alphabetically).
 *
 * <p>Each provider's table is preceded by {@code <!-- provider: class name -->}. A table whose provider class cannot
 * be loaded where the generator runs (for example a plugin's options, seen from this module's class path) is kept as it
 * is in the existing file, so regenerating or checking from a partial class path never loses other modules' options;
 * the complete regeneration runs on the agent jar, which holds every provider:
 * <pre>java -cp apm-agent/target/apm-agent.jar dev.apmagent.tools.ConfigurationDocs docs/configuration.md</pre>
 */
public final class ConfigurationDocs {

    public static final String REGENERATE_COMMAND =
            "./mvnw -B -q -DskipTests -pl apm-agent -am clean package && java -cp apm-agent/target/apm-agent.jar dev.apmagent.tools.ConfigurationDocs docs/configuration.md";
    static final String TEMPLATE = "configuration-docs.md";
    static final String OPTIONS_PLACEHOLDER = "{{OPTIONS}}";
    static final String COMMAND_PLACEHOLDER = "{{REGENERATE_COMMAND}}";
    static final String PROVIDER_MARKER = "<!-- provider: ";
    static final String OPTIONS_END = "<!-- end of options -->";
    static final String CORE_CATEGORY = "Core";
    private static final Charset UTF_8 = Charset.forName("UTF-8");

    private ConfigurationDocs() {
    }

    /**
     * Regenerates the file named by the first argument (default docs/configuration.md) from the registry of this
     * class path; with {@code --check} first, only reports whether it is up to date (exit status 1 when not).
     */
    public static void main(String[] args) throws IOException {
        boolean check = args.length > 0 && args[0].equals("--check");
        String path = args.length > (check ? 1 : 0) ? args[check ? 1 : 0] : "docs/configuration.md";
        File file = new File(path);
        String existing = file.isFile() ? read(file) : "";
        ClassLoader loader = ConfigurationDocs.class.getClassLoader();
        OptionRegistry registry = OptionRegistry.load(loader);
        for (String warning : registry.warnings()) {
            System.err.println("warning: " + warning);
        }
        String generated = render(registry, existing, loader);
        if (check) {
            List<String> diffs = differences(generated, existing);
            for (String d : diffs) {
                System.err.println(d);
            }
            System.exit(diffs.isEmpty() ? 0 : 1);
            return;
        }
        File parent = file.getAbsoluteFile().getParentFile();
        if (parent != null && !parent.isDirectory() && !parent.mkdirs()) {
            throw new IOException("cannot create " + parent);
        }
        try (OutputStream out = new FileOutputStream(file)) {
            out.write(generated.getBytes(UTF_8));
        }
        System.out.println((generated.equals(existing) ? "unchanged: " : "wrote: ") + file.getPath() + " ("
                + registry.options().size() + " options from " + registry.providers().size() + " providers)");
    }

    /**
     * The document for {@code registry}. Tables in {@code existingDoc} whose provider class is not loadable through
     * {@code classLoader} are carried over unchanged; tables of loadable classes that are no longer registered are
     * dropped.
     */
    public static String render(OptionRegistry registry, String existingDoc, ClassLoader classLoader) {
        Map<String, Block> blocks = new LinkedHashMap<String, Block>();
        for (OptionProvider provider : registry.providers()) {
            String name = provider.getClass().getName();
            List<ConfigOption<?>> own = new ArrayList<ConfigOption<?>>();
            for (ConfigOption<?> option : provider.options()) {
                if (registry.providerOf(option) == provider) {
                    own.add(option);
                }
            }
            blocks.put(name, new Block(provider.category(), name, table(name, own)));
        }
        for (Block kept : parseBlocks(existingDoc)) {
            if (!blocks.containsKey(kept.provider) && !loadable(kept.provider, classLoader)) {
                blocks.put(kept.provider, kept);
            }
        }
        List<Block> ordered = new ArrayList<Block>(blocks.values());
        Collections.sort(ordered, new Comparator<Block>() {
            @Override
            public int compare(Block a, Block b) {
                int c = categoryRank(a.category) - categoryRank(b.category);
                if (c == 0) {
                    c = a.category.compareTo(b.category);
                }
                return c != 0 ? c : a.provider.compareTo(b.provider);
            }
        });
        StringBuilder options = new StringBuilder();
        String category = null;
        for (Block block : ordered) {
            if (!block.category.equals(category)) {
                category = block.category;
                options.append("### ").append(category).append("\n\n");
            }
            options.append(block.text).append('\n');
        }
        options.append(OPTIONS_END);
        return template().replace(COMMAND_PLACEHOLDER, REGENERATE_COMMAND).replace(OPTIONS_PLACEHOLDER, options.toString());
    }

    /**
     * Human-readable differences between the generated and the existing document: options missing, differing or
     * stale, then the first differing line of the surrounding text. Empty when they are equal.
     */
    public static List<String> differences(String generated, String existing) {
        List<String> out = new ArrayList<String>();
        if (generated.equals(existing)) {
            return out;
        }
        Map<String, String> want = rows(generated);
        Map<String, String> have = rows(existing);
        for (Map.Entry<String, String> e : want.entrySet()) {
            String actual = have.get(e.getKey());
            if (actual == null) {
                out.add("missing option " + e.getKey() + ": expected row " + e.getValue());
            } else if (!actual.equals(e.getValue())) {
                out.add("option " + e.getKey() + " differs:\n    documented: " + actual + "\n    registry:   " + e.getValue());
            }
        }
        for (String key : have.keySet()) {
            if (!want.containsKey(key)) {
                out.add("documented option " + key + " is not in the registry (stale row)");
            }
        }
        if (out.isEmpty()) {
            String[] a = generated.split("\n", -1);
            String[] b = existing.split("\n", -1);
            int n = Math.min(a.length, b.length);
            int i = 0;
            while (i < n && a[i].equals(b[i])) {
                i++;
            }
            out.add("the text differs at line " + (i + 1) + ":\n    documented: " + (i < b.length ? b[i] : "<end of file>")
                    + "\n    generated:  " + (i < a.length ? a[i] : "<end of file>"));
        }
        return out;
    }

    // ---- tables

    private static String table(String providerClass, List<ConfigOption<?>> options) {
        StringBuilder sb = new StringBuilder();
        sb.append(PROVIDER_MARKER).append(providerClass).append(" -->\n\n");
        sb.append("| Option | Type | Default | Description |\n");
        sb.append("|---|---|---|---|\n");
        for (ConfigOption<?> o : options) {
            sb.append("| `").append(o.key()).append("`<br>`").append(ConfigLoader.ENV_PREFIX).append(o.key().toUpperCase(Locale.ROOT))
                    .append("` | ").append(cell(o.type())).append(o.isSensitive() ? " (secret)" : "")
                    .append(" | ").append(o.defaultText() == null ? "none" : o.defaultText().isEmpty() ? "empty" : "`" + cell(o.defaultText()) + "`")
                    .append(" | ").append(cell(o.description())).append(" |\n");
        }
        return sb.toString();
    }

    /** One table cell: one line, '|' escaped, and '<' '>' escaped outside `code` spans (they would be read as HTML). */
    private static String cell(String text) {
        StringBuilder sb = new StringBuilder(text.length() + 16);
        boolean code = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '`') {
                code = !code;
            }
            if (c == '\r' || c == '\n') {
                sb.append(' ');
            } else if (c == '|') {
                sb.append("\\|");
            } else if (!code && c == '<') {
                sb.append("&lt;");
            } else if (!code && c == '>') {
                sb.append("&gt;");
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** Table rows by option key ("| `key`..." lines). */
    private static Map<String, String> rows(String doc) {
        Map<String, String> rows = new TreeMap<String, String>();
        for (String line : doc.split("\n")) {
            if (line.startsWith("| `")) {
                int end = line.indexOf('`', 3);
                if (end > 3) {
                    rows.put(line.substring(3, end), line);
                }
            }
        }
        return rows;
    }

    // ---- blocks of an existing document

    static final class Block {
        final String category;
        final String provider;
        final String text;

        Block(String category, String provider, String text) {
            this.category = category;
            this.provider = provider;
            this.text = text;
        }
    }

    /** The provider tables of a document, with the category heading each sits under. */
    static List<Block> parseBlocks(String doc) {
        List<Block> out = new ArrayList<Block>();
        String[] lines = doc.split("\n", -1);
        String category = null;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.startsWith("### ")) {
                category = line.substring(4).trim();
            } else if (line.startsWith(PROVIDER_MARKER) && line.endsWith(" -->") && category != null) {
                String provider = line.substring(PROVIDER_MARKER.length(), line.length() - 4).trim();
                StringBuilder text = new StringBuilder(line).append('\n');
                int j = i + 1;
                while (j < lines.length && !lines[j].startsWith("### ") && !lines[j].startsWith(PROVIDER_MARKER)
                        && !lines[j].startsWith(OPTIONS_END)) {
                    text.append(lines[j]).append('\n');
                    j++;
                }
                // the generator separates blocks with one blank line; keep the block's own text only
                String body = text.toString();
                while (body.endsWith("\n\n")) {
                    body = body.substring(0, body.length() - 1);
                }
                out.add(new Block(category, provider, body));
                i = j - 1;
            }
        }
        return out;
    }

    private static boolean loadable(String className, ClassLoader classLoader) {
        try {
            Class.forName(className, false, classLoader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static int categoryRank(String category) {
        return category.equals(CORE_CATEGORY) ? 0 : 1;
    }

    static String template() {
        InputStream in = ConfigurationDocs.class.getResourceAsStream(TEMPLATE);
        if (in == null) {
            throw new IllegalStateException("resource " + TEMPLATE + " is missing");
        }
        try {
            try {
                return readAll(in);
            } finally {
                in.close();
            }
        } catch (IOException e) {
            throw new IllegalStateException("resource " + TEMPLATE + " cannot be read", e);
        }
    }

    private static String read(File file) throws IOException {
        InputStream in = new java.io.FileInputStream(file);
        try {
            return readAll(in);
        } finally {
            in.close();
        }
    }

    private static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        for (int n; (n = in.read(buffer)) > 0; ) {
            bytes.write(buffer, 0, n);
        }
        return new String(bytes.toByteArray(), UTF_8).replace("\r\n", "\n");
    }

    /** For tests: the keys in a document's tables. */
    static Set<String> documentedKeys(String doc) {
        return new LinkedHashSet<String>(rows(doc).keySet());
    }
}
