package dev.apmagent.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Every option the agent knows, collected from the {@link OptionProvider}s listed in
 * {@code META-INF/services/dev.apmagent.config.OptionProvider}. Loading never throws: a provider that cannot be
 * loaded, or a key declared twice, becomes a warning (the first declaration wins).
 */
public final class OptionRegistry {

    /** Guards against a broken service iterator that never advances. */
    private static final int MAX_PROVIDERS = 10_000;

    private final List<OptionProvider> providers;
    private final Map<String, ConfigOption<?>> byKey;
    private final Map<String, OptionProvider> providerByKey;
    private final List<String> warnings;

    private OptionRegistry(List<OptionProvider> providers, List<String> warnings) {
        Map<String, ConfigOption<?>> keys = new LinkedHashMap<String, ConfigOption<?>>();
        Map<String, OptionProvider> owners = new LinkedHashMap<String, OptionProvider>();
        List<OptionProvider> accepted = new ArrayList<OptionProvider>();
        for (OptionProvider provider : providers) {
            List<ConfigOption<?>> options;
            try {
                options = provider.options();
            } catch (RuntimeException e) {
                warnings.add("Option provider " + provider.getClass().getName() + " failed to list its options (" + e + "); its options are unknown");
                continue;
            }
            accepted.add(provider);
            for (ConfigOption<?> option : options) {
                OptionProvider previous = owners.get(option.key());
                if (previous != null) {
                    warnings.add("Option " + option.key() + " is declared by both " + previous.getClass().getName() + " and "
                            + provider.getClass().getName() + "; the first declaration is used");
                    continue;
                }
                keys.put(option.key(), option);
                owners.put(option.key(), provider);
            }
        }
        this.providers = Collections.unmodifiableList(accepted);
        this.byKey = Collections.unmodifiableMap(keys);
        this.providerByKey = Collections.unmodifiableMap(owners);
        this.warnings = Collections.unmodifiableList(new ArrayList<String>(warnings));
    }

    /** The providers that {@link ServiceLoader} finds through {@code classLoader}. */
    public static OptionRegistry load(ClassLoader classLoader) {
        List<OptionProvider> found = new ArrayList<OptionProvider>();
        List<String> warnings = new ArrayList<String>();
        try {
            Iterator<OptionProvider> it = ServiceLoader.load(OptionProvider.class, classLoader).iterator();
            for (int i = 0; i < MAX_PROVIDERS; i++) {
                try {
                    if (!it.hasNext()) {
                        break;
                    }
                    found.add(it.next());
                } catch (ServiceConfigurationError e) {
                    warnings.add("An option provider could not be loaded (" + e.getMessage() + "); its options are unknown");
                }
            }
        } catch (RuntimeException e) {
            warnings.add("Option providers could not be listed (" + e + ")");
        }
        return new OptionRegistry(found, warnings);
    }

    /** A registry of exactly these providers (tests, tools). */
    public static OptionRegistry of(OptionProvider... providers) {
        List<OptionProvider> list = new ArrayList<OptionProvider>();
        Collections.addAll(list, providers);
        return new OptionRegistry(list, new ArrayList<String>());
    }

    public List<OptionProvider> providers() {
        return providers;
    }

    /** The option with this key, or null. */
    public ConfigOption<?> option(String key) {
        return byKey.get(key);
    }

    /** The provider that declared {@code option}'s key, or null. */
    public OptionProvider providerOf(ConfigOption<?> option) {
        return providerByKey.get(option.key());
    }

    public Collection<ConfigOption<?>> options() {
        return byKey.values();
    }

    /** Problems met while loading providers. */
    public List<String> warnings() {
        return warnings;
    }

    /** The known key closest to {@code unknown} (at most two edits away), or null: for "did you mean" hints. */
    public String closestKey(String unknown) {
        String best = null;
        int bestDistance = 3;
        for (String key : byKey.keySet()) {
            int d = editDistance(unknown, key, bestDistance);
            if (d < bestDistance) {
                bestDistance = d;
                best = key;
            }
        }
        return best;
    }

    /** Levenshtein distance, or {@code limit} when it is at least {@code limit}. */
    static int editDistance(String a, String b, int limit) {
        if (Math.abs(a.length() - b.length()) >= limit) {
            return limit;
        }
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            int rowMin = cur[0];
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
                rowMin = Math.min(rowMin, cur[j]);
            }
            if (rowMin >= limit) {
                return limit;
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return Math.min(prev[b.length()], limit);
    }
}
