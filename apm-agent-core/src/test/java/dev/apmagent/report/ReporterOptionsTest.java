package dev.apmagent.report;

import dev.apmagent.config.ConfigLoader;
import dev.apmagent.config.CoreOptions;
import dev.apmagent.config.OptionRegistry;
import org.junit.jupiter.api.Test;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The reporter's timing options have lower bounds: tiny values would flood the APM Server or the agent's log. */
class ReporterOptionsTest {

    private static ConfigLoader.Result load(Map<String, String> sysProps) {
        return ConfigLoader.load(OptionRegistry.of(new CoreOptions(), new ReporterOptions()), null, sysProps,
                Collections.<String, String>emptyMap(), null);
    }

    @Test
    void intervalsBelowASecondAreWarnedAboutAndTakeTheirDefault() {
        Map<String, String> sysProps = new HashMap<String, String>();
        sysProps.put("elastic.apm.api_request_time", "1ms");
        sysProps.put("elastic.apm.metrics_interval", "1ms");
        sysProps.put("elastic.apm.reporter_stats_log_interval", "500ms");
        ConfigLoader.Result result = load(sysProps);
        assertEquals(3, result.warnings().size(), result.warnings().toString());
        assertTrue(result.warnings().get(0).contains("for api_request_time") && result.warnings().get(0).contains("must be at least 1s"),
                result.warnings().get(0));
        assertTrue(result.warnings().get(1).contains("for metrics_interval") && result.warnings().get(1).contains("must be 0 (off) or at least 1s"),
                result.warnings().get(1));
        PipelineSettings settings = PipelineSettings.from(result.config());
        assertEquals(10_000, settings.requestTimeMillis);
        assertEquals(30_000, settings.metricsIntervalMillis);
        assertEquals(60_000, settings.statsLogIntervalMillis);
    }

    /** 0 turns metrics and the counters' line off, as in the Elastic agent; a second is the smallest interval. */
    @Test
    void zeroTurnsOffAndOneSecondIsAccepted() {
        Map<String, String> sysProps = new HashMap<String, String>();
        sysProps.put("elastic.apm.api_request_time", "1s");
        sysProps.put("elastic.apm.metrics_interval", "0");
        sysProps.put("elastic.apm.reporter_stats_log_interval", "1s");
        ConfigLoader.Result result = load(sysProps);
        assertEquals(Collections.emptyList(), result.warnings());
        PipelineSettings settings = PipelineSettings.from(result.config());
        assertEquals(1000, settings.requestTimeMillis);
        assertEquals(0, settings.metricsIntervalMillis);
        assertEquals(1000, settings.statsLogIntervalMillis);
    }
}
