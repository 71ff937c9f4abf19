package dev.apmagent.trace;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TraceParentHeaderTest {

    @Test
    void parsesFields() {
        TraceParentHeader h = new TraceParentHeader();
        assertTrue(h.parse("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"));
        assertEquals(0x0af7651916cd43ddL, h.traceIdHigh());
        assertEquals(0x8448eb211c80319cL, h.traceIdLow());
        assertEquals(0xb7ad6b7169203331L, h.parentId());
        assertEquals(1, h.flags());
        assertEquals(0, h.version());
        assertTrue(h.isSampled());

        assertTrue(h.parse("00-ffffffffffffffffffffffffffffffff-ffffffffffffffff-fe"));
        assertEquals(-1L, h.traceIdHigh());
        assertEquals(-1L, h.traceIdLow());
        assertEquals(-1L, h.parentId());
        assertEquals((byte) 0xfe, h.flags());
        assertFalse(h.isSampled());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01", // upper-case hex is invalid
        "00-0af7651916cd43dd8448eb211c80319c-B7AD6B7169203331-01",
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-0A",
        "0A-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        "00-00000000000000000000000000000000-b7ad6b7169203331-01",
        "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
        "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        "00_0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        "00-0af7651916cd43dd8448eb211c80319c_b7ad6b7169203331-01",
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331_01",
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-",
        "01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01x",
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-0",
        "",
        "   ",
    })
    void rejects(String header) {
        TraceParentHeader h = new TraceParentHeader();
        assertFalse(h.parse(header));
        assertFalse(h.isValid());
        assertEquals(0, h.traceIdHigh());
        assertEquals(0, h.parentId());
    }

    @ParameterizedTest
    @CsvSource({
        "01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-future, 1",
        "fe-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01, 254",
        "00-00000000000000010000000000000000-0000000000000001-00, 0",
    })
    void acceptsFutureVersionsAndEdgeIds(String header, int version) {
        TraceParentHeader h = new TraceParentHeader();
        assertTrue(h.parse(header));
        assertEquals(version, h.version());
    }

    @Test
    void nullAndRepeatedHeadersAreInvalid() {
        TraceParentHeader h = new TraceParentHeader();
        assertFalse(h.parse(null));
        h.reset();
        assertTrue(h.add("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"));
        assertFalse(h.add("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"));
        assertFalse(h.isValid());
        h.reset();
        assertTrue(h.add("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"));
    }

    @Test
    void theTraceContextWritesWhatTheParserReads() {
        String expected = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        char[] buf = new char[60];
        write(buf, 2, 0x0af7651916cd43ddL, 0x8448eb211c80319cL, 0xb7ad6b7169203331L, TraceParentHeader.FLAG_SAMPLED);
        assertEquals(expected, new String(buf, 2, TraceParentHeader.LENGTH));
        TraceParentHeader h = new TraceParentHeader();
        assertTrue(h.parse(new String(buf, 2, TraceParentHeader.LENGTH)));
        assertEquals(0xb7ad6b7169203331L, h.parentId());
    }

    /** Writes a traceparent whose parent id is {@code spanId} with the agent's one writer, {@link TraceContext}. */
    static void write(char[] buf, int offset, long traceIdHigh, long traceIdLow, long spanId, byte flags) {
        TraceContext context = new TraceContext();
        context.initRemoteChild(traceIdHigh, traceIdLow, 1L, flags, Double.NaN, null, spanId);
        context.writeTraceparent(buf, offset);
    }

    @Test
    void headerNamesMatchCaseInsensitively() {
        assertTrue(TraceParentHeader.isHeaderName("TraceParent", TraceParentHeader.TRACEPARENT));
        assertTrue(TraceParentHeader.isHeaderName("Elastic-Apm-Traceparent", TraceParentHeader.ELASTIC_TRACEPARENT));
        assertFalse(TraceParentHeader.isHeaderName("traceparent2", TraceParentHeader.TRACEPARENT));
        assertFalse(TraceParentHeader.isHeaderName(null, TraceParentHeader.TRACEPARENT));
    }

    @Test
    void parseAndFormatDoNotAllocate() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        TraceParentHeader h = new TraceParentHeader();
        TraceState ts = new TraceState();
        String header = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        String state = "rojo=00f067aa0ba902b7, es=s:0.5,congo=t61rcWkgMzE";
        char[] buf = new char[TraceParentHeader.LENGTH];
        StringBuilder sb = new StringBuilder(256);
        TraceContext context = new TraceContext();
        long sink = 0;
        for (int round = 0; round < 2; round++) {
            long tid = Thread.currentThread().getId();
            long before = mx.getThreadAllocatedBytes(tid);
            for (int i = 0; i < 20_000; i++) {
                h.parse(header);
                context.initRemoteChild(h.traceIdHigh(), h.traceIdLow() + i, 1L, h.flags(), Double.NaN, null, h.parentId());
                context.writeTraceparent(buf, 0);
                ts.reset();
                ts.add(state);
                sb.setLength(0);
                ts.appendOutgoing(sb, ts.sampleRate());
                sink += buf[40] + sb.length();
            }
            long allocated = mx.getThreadAllocatedBytes(tid) - before;
            if (round == 1) {
                assertTrue(allocated < 4096, "allocated " + allocated + " bytes over 20k parse/format rounds");
            }
        }
        assertTrue(sink > 0);
    }
}
