package dev.apmagent.trace;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TraceStateTest {

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', nullValues = "NaN", value = {
        "es=s:0.5                         | 0.5",
        "es=s:1                           | 1.0",
        "es=s:0                           | 0.0",
        "es=s:.25                         | 0.25",
        "es=s:0.0001                      | 0.0001",
        "es=s:.1000000000000000000        | 0.1",
        "es=s:.9999999999999999999        | 1.0",
        "es=s:0.50000000000000000001      | NaN",
        "es=x:1;s:0.75;y:2                | 0.75",
        "rojo=1,es=s:0.3,congo=2          | 0.3",
        "es=s:1.5                         | NaN",
        "es=s:-0.5                        | NaN",
        "es=s:abc                         | NaN",
        "es=s:                            | NaN",
        "es=foo                           | NaN",
        "rojo=1                           | NaN",
    })
    void readsElasticSampleRate(String header, Double expected) {
        TraceState ts = new TraceState();
        assertTrue(ts.add(header));
        assertEquals(expected == null ? Double.NaN : expected, ts.sampleRate());
    }

    @ParameterizedTest(name = "[{index}] {0} @ {1}")
    @CsvSource(delimiter = '|', value = {
        "rojo=1,es=s:0.3,congo=2          | 0.25     | es=s:0.25,rojo=1,congo=2",
        "rojo=1                           | 1        | es=s:1,rojo=1",
        "''                               | 0.00004  | es=s:0",
        "''                               | 0.33333  | es=s:0.3333",
        "a=1 , ,b=2                       | 0.1      | es=s:0.1,a=1,b=2",
        "a=1,A=2                          | 0.5      | es=s:0.5",
        "a=1,es=s:1,es=s:0                | 0.5      | es=s:0.5",
    })
    void writesOutgoingWithOurEntryFirst(String header, double rate, String expected) {
        TraceState ts = new TraceState();
        ts.add(header);
        assertEquals(expected, ts.toOutgoing(rate));
    }

    @Test
    void withoutRateWritesOnlyOtherVendors() {
        TraceState ts = new TraceState();
        ts.add("a=1");
        ts.add("b=2");
        assertEquals("a=1,b=2", ts.toOutgoing(Double.NaN));
    }

    @Test
    void truncatesToThirtyTwoMembersAndSizeLimit() {
        StringBuilder header = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            header.append(i == 0 ? "" : ",").append("k").append(i).append("=v");
        }
        TraceState ts = new TraceState();
        assertTrue(ts.add(header));
        assertTrue(ts.isTruncated());
        assertEquals(TraceState.MAX_MEMBERS, ts.memberCount());
        assertEquals(TraceState.MAX_MEMBERS, ts.toOutgoing(Double.NaN).split(",").length);
        String withEs = ts.toOutgoing(1);
        assertEquals(TraceState.MAX_MEMBERS, withEs.split(",").length);
        assertTrue(withEs.startsWith("es=s:1,k0=v,"));

        TraceState small = new TraceState(64);
        assertTrue(small.add("aaaaaaaaaa=0123456789012345678901234567890123456789,b=1,cccccccccc=0123456789012345678901234567"));
        assertTrue(small.isTruncated());
        assertEquals("aaaaaaaaaa=0123456789012345678901234567890123456789,b=1", small.toOutgoing(Double.NaN));
    }

    @Test
    void invalidHeaderIsDroppedEntirely() {
        TraceState ts = new TraceState();
        assertTrue(ts.add("a=1,es=s:0.5"));
        assertFalse(ts.add("b=2,B=3"));
        assertFalse(ts.isValid());
        assertTrue(Double.isNaN(ts.sampleRate()));
        assertEquals(0, ts.memberCount());
        assertEquals("es=s:0.2", ts.toOutgoing(0.2));
        assertFalse(ts.add("c=1"), "stays invalid until reset");
        ts.reset();
        assertTrue(ts.add("c=1"));
        assertEquals("c=1", ts.toOutgoing(Double.NaN));
    }
}
