package dev.apmagent.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class TraceContextTest {

    @Test
    void writesTraceparentWithThisEventAsParent() {
        TraceContext tc = new TraceContext();
        tc.initRemoteChild(0x0af7651916cd43ddL, 0x8448eb211c80319cL, 0x1111111111111111L, 1, 0.5, "es=s:0.5",
                0xb7ad6b7169203331L);
        char[] chars = new char[TraceContext.TRACEPARENT_LENGTH];
        tc.writeTraceparent(chars, 0);
        assertEquals("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", new String(chars));
        byte[] bytes = new byte[TraceContext.TRACEPARENT_LENGTH + 1];
        tc.setSampled(false);
        tc.writeTraceparent(bytes, 1);
        assertEquals("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00",
                new String(bytes, 1, TraceContext.TRACEPARENT_LENGTH, StandardCharsets.US_ASCII));
    }

    @Test
    void childInheritsTraceFlagsRateAndTracestate() {
        TraceContext parent = new TraceContext();
        parent.initRoot(7, 8, 9, true, 0.25);
        parent.setTracestate("es=s:0.25");
        TraceContext child = new TraceContext();
        child.initChild(parent, 10);
        assertEquals(7, child.traceIdHigh());
        assertEquals(8, child.traceIdLow());
        assertEquals(10, child.id());
        assertEquals(9, child.parentId());
        assertTrue(child.isSampled());
        assertEquals(0.25, child.sampleRate());
        assertEquals("es=s:0.25", child.tracestate());
    }

    @Test
    void resetRestoresNewState() {
        TraceContext tc = new TraceContext();
        tc.initRemoteChild(1, 2, 3, 1, 0.5, "x", 4);
        tc.reset();
        assertEquals(0, tc.traceIdHigh() | tc.traceIdLow() | tc.id() | tc.parentId());
        assertFalse(tc.isSampled());
        assertFalse(tc.hasSampleRate());
        assertNull(tc.tracestate());
    }
}
