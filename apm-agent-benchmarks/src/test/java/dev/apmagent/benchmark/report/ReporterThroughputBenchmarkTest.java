package dev.apmagent.benchmark.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Runs the end-to-end reporter benchmark once against the loopback sink and checks every event was delivered. */
class ReporterThroughputBenchmarkTest {

    @ParameterizedTest
    @ValueSource(strings = {"true", "false"})
    void oneOperationDeliversEveryEventToTheSink(String compression) throws Exception {
        ReporterThroughputBenchmark b = new ReporterThroughputBenchmark();
        b.compression = compression;
        b.setUp();
        ReporterThroughputBenchmark.Delivery delivery = new ReporterThroughputBenchmark.Delivery();
        try {
            assertEquals(ReporterThroughputBenchmark.EVENTS_PER_OP, b.reportAndFlush(delivery));
            assertEquals(ReporterThroughputBenchmark.EVENTS_PER_OP, delivery.events);
            assertEquals(0, delivery.dropped);
            assertTrue(b.sink.requests() >= 1, "at least one intake request");
            assertTrue(b.sink.bodyBytes() > 0);
            assertEquals(0, b.sink.failures());
        } finally {
            b.tearDown();
        }
    }

    @Test
    void sinkReadsAChunkedBodyToItsEnd() throws Exception {
        byte[] body = "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        assertEquals(11, LoopbackSink.readChunked(new ByteArrayInputStream(body)));
        assertEquals(-1, LoopbackSink.readChunked(new ByteArrayInputStream("5\r\nhel".getBytes(StandardCharsets.US_ASCII))));
        String head = LoopbackSink.readHead(new ByteArrayInputStream(
                "POST /intake/v2/events HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(3, LoopbackSink.contentLength(head.toLowerCase()));
    }
}
