package dev.apmagent.plugin.dubbo;

import dev.apmagent.config.ConfigOption;
import dev.apmagent.config.OptionProvider;
import dev.apmagent.config.Parsers;

import java.util.Collections;
import java.util.List;

/** The Dubbo plugin's one option. */
public final class DubboOptions implements OptionProvider {

    public static final ConfigOption<Long> DUBBO_ASYNC_GRACE = ConfigOption.of("dubbo_async_grace", "Duration", "10s",
            Parsers.durationMillis("ms"),
            "An asynchronous Dubbo invocation whose result never arrives is ended by the agent this long after the invocation's own "
                    + "timeout (outcome failure, result Timeout), so a future that never completes cannot hold its span or transaction.");

    private static final List<ConfigOption<?>> ALL = Collections.<ConfigOption<?>>singletonList(DUBBO_ASYNC_GRACE);

    @Override
    public String category() {
        return "RPC";
    }

    @Override
    public List<ConfigOption<?>> options() {
        return ALL;
    }
}
