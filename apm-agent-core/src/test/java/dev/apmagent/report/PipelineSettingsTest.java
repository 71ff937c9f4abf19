package dev.apmagent.report;

import dev.apmagent.config.Config;
import dev.apmagent.log.AgentLog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.UnsupportedEncodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** max_buffer_size and max_event_size as the reporter uses them: clamped, capped at a share of the heap, and every clamp warned about. */
class PipelineSettingsTest {

    private static final long KB = 1024;
    private static final long MB = KB * KB;
    private static final long GB = KB * MB;

    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();

    @BeforeEach
    void captureLog() throws UnsupportedEncodingException {
        AgentLog.setOutput(new PrintStream(logBytes, true, "UTF-8"));
        AgentLog.setMaxPerMinute(0);
    }

    @AfterEach
    void restoreLog() {
        AgentLog.setOutput(System.out);
        AgentLog.setMaxPerMinute(AgentLog.DEFAULT_MAX_PER_MINUTE);
    }

    /**
     * requested max_buffer_size, maximum heap (-1: no limit) -> size used, and the text of the one WARN ('' for none;
     * fragments separated by '|').
     */
    @ParameterizedTest(name = "max_buffer_size={0} on a heap of {1} -> {2}")
    @CsvSource(delimiter = ';', value = {
            "4mb;    64mb;    4mb;   ''",
            "8mb;    64mb;    8mb;   ''",
            "1gb;    64mb;    8mb;   max_buffer_size=1gb|1/8 of the maximum heap (64mb)|using 8mb",
            "2gb;    512mb;   64mb;  max_buffer_size=2gb|1/8 of the maximum heap (512mb)|using 64mb",
            "1gb;    4gb;     512mb; max_buffer_size=1gb|1/8 of the maximum heap (4gb)|using 512mb",
            "2gb;    32gb;    1gb;   max_buffer_size=2gb|above the largest, 1gb|using 1gb",
            "1gb;    -1;      1gb;   ''",
            "2gb;    -1;      1gb;   max_buffer_size=2gb|above the largest, 1gb|using 1gb",
            "1kb;    64mb;    64kb;  max_buffer_size=1kb|below the smallest, 64kb|using 64kb",
            "0;      64mb;    64kb;  max_buffer_size=0|below the smallest, 64kb|using 64kb",
            "16mb;   63.5mb;  8128kb; max_buffer_size=16mb|1/8 of the maximum heap (63.5mb)|using 8128kb",
            "64kb;   256kb;   64kb;  ''",
    })
    void bufferSizeIsClampedCappedAtAnEighthOfTheHeapAndEveryClampWarned(String requested, String heap, String used,
                                                                         String warning) {
        int size = PipelineSettings.bufferSize(bytes(requested), heap.equals("-1") ? Long.MAX_VALUE : bytes(heap));

        assertEquals(bytes(used), size);
        List<String> warnings = warnings();
        if (warning.isEmpty()) {
            assertEquals(new ArrayList<String>(), warnings);
        } else {
            assertEquals(1, warnings.size(), "one WARN: " + warnings);
            for (String fragment : warning.split("\\|")) {
                assertTrue(warnings.get(0).contains(fragment), "'" + fragment + "' in " + warnings.get(0));
            }
        }
    }

    /** max_event_size above what the buffer holds follows the buffer; set explicitly, the clamp is warned about. */
    @Test
    void anExplicitMaxEventSizeThatIsClampedIsWarnedAbout() {
        PipelineSettings quiet = PipelineSettings.from(config("max_buffer_size", 64 * KB), 64 * MB);
        assertEquals(64 * KB - ByteRing.HEADER_SIZE, quiet.maxEventSize, "the default 300kb follows a 64kb buffer");
        assertEquals(new ArrayList<String>(), warnings(), "nothing was set that is not used");

        PipelineSettings tooBig = PipelineSettings.from(config("max_event_size", 8 * MB), 64 * MB);
        assertEquals(4 * MB - ByteRing.HEADER_SIZE, tooBig.maxEventSize);
        assertEquals(1, warnings().size(), warnings().toString());
        assertTrue(warnings().get(0).contains("max_event_size=8mb"), warnings().get(0));

        logBytes.reset();
        PipelineSettings tooSmall = PipelineSettings.from(config("max_event_size", 100L), 64 * MB);
        assertEquals(1024, tooSmall.maxEventSize);
        assertEquals(1, warnings().size(), warnings().toString());
        assertTrue(warnings().get(0).contains("max_event_size=100"), warnings().get(0));
    }

    @Test
    void theDefaultsNeedNoClampOnASmallHeap() {
        PipelineSettings s = PipelineSettings.from(Config.defaults(), 32 * MB);
        assertEquals(4 * MB, s.bufferSize);
        assertEquals(300 * KB, s.maxEventSize);
        assertEquals(new ArrayList<String>(), warnings());
    }

    private static Config config(String key, long value) {
        Map<String, Object> options = new HashMap<String, Object>();
        options.put(key, value);
        return Config.ofParsed(options);
    }

    private List<String> warnings() {
        List<String> lines = new ArrayList<String>();
        for (String line : Arrays.asList(new String(logBytes.toByteArray(), StandardCharsets.UTF_8).split("\\R"))) {
            if (line.contains("] WARN ")) {
                lines.add(line);
            }
        }
        return lines;
    }

    /** 4mb, 63.5mb, 1kb, 0 (a decimal number is rounded down to a byte). */
    private static long bytes(String size) {
        String s = size.trim();
        long unit = s.endsWith("gb") ? GB : s.endsWith("mb") ? MB : s.endsWith("kb") ? KB : 1;
        String number = unit == 1 ? s : s.substring(0, s.length() - 2);
        return (long) (Double.parseDouble(number) * unit);
    }
}
