package dev.apmagent.trace;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Random and mutated traceparent and tracestate headers (fixed seed): parsing never throws; a header the independent
 * oracle below rejects is rejected; every valid version-00 header round-trips exactly through format(parse(x)).
 */
class W3cHeaderFuzzTest {

    private static final int ITERATIONS = 150_000;
    private static final String HEX = "0123456789abcdef";
    private static final String NOISE = "0123456789abcdefABCDEF-xz \t.=,@*/_";

    @Test
    void traceparentNeverThrowsRejectsInvalidAndRoundTrips() {
        Random r = new Random(0x7EA_CE1DL);
        TraceParentHeader h = new TraceParentHeader();
        char[] buf = new char[TraceParentHeader.LENGTH];
        int valid = 0;
        for (int i = 0; i < ITERATIONS; i++) {
            String header = traceparent(r, i);
            boolean ok;
            try {
                ok = h.parse(header);
            } catch (Throwable t) {
                fail("threw on " + header, t);
                return;
            }
            assertEquals(oracle(header), ok, header);
            if (ok) {
                valid++;
                if (h.version() == 0 && header.length() == TraceParentHeader.LENGTH) {
                    TraceParentHeaderTest.write(buf, 0, h.traceIdHigh(), h.traceIdLow(), h.parentId(), h.flags());
                    // reserved flag bits are not propagated (W3C level 1): only the sampled bit comes back
                    assertEquals(header.substring(0, 53) + "0" + (h.flags() & 1), new String(buf), "round trip");
                }
            }
        }
        assertTrue(valid > ITERATIONS / 10, "the generator must produce valid headers too: " + valid);
        assertTrue(valid < ITERATIONS - ITERATIONS / 10, "and invalid ones: " + valid);
    }

    @Test
    void tracestateNeverThrowsAndPropagatesOnlyValidStates() {
        Random r = new Random(0x57A7EL);
        TraceState ts = new TraceState(512);
        TraceState reparsed = new TraceState(4096);
        int invalid = 0;
        int truncated = 0;
        for (int i = 0; i < ITERATIONS; i++) {
            ts.reset();
            int values = 1 + r.nextInt(3);
            for (int v = 0; v < values; v++) {
                String value = tracestate(r);
                try {
                    ts.add(value);
                } catch (Throwable t) {
                    fail("threw on " + value, t);
                }
            }
            String outgoing = ts.toOutgoing(r.nextBoolean() ? Double.NaN : r.nextDouble());
            reparsed.reset();
            assertTrue(reparsed.add(outgoing), "outgoing must be valid: " + outgoing);
            assertTrue(reparsed.memberCount() + (Double.isNaN(reparsed.sampleRate()) ? 0 : 1) <= TraceState.MAX_MEMBERS);
            assertTrue(outgoing.length() <= 512 + TraceState.MAX_MEMBERS + 16, "bounded: " + outgoing.length());
            truncated += ts.isTruncated() ? 1 : 0;
            if (!ts.isValid()) {
                invalid++;
                assertFalse(outgoing.contains(","), "nothing but our entry from an invalid state: " + outgoing);
            }
        }
        assertTrue(invalid > ITERATIONS / 10 && invalid < ITERATIONS - ITERATIONS / 10, "mix of states: " + invalid);
        assertTrue(truncated > 100, "some states are truncated: " + truncated);
    }

    /** An independent, straightforward reading of the W3C traceparent rules. */
    private static boolean oracle(String raw) {
        String s = raw;
        while (!s.isEmpty() && (s.charAt(0) == ' ' || s.charAt(0) == '\t')) {
            s = s.substring(1);
        }
        while (!s.isEmpty() && (s.charAt(s.length() - 1) == ' ' || s.charAt(s.length() - 1) == '\t')) {
            s = s.substring(0, s.length() - 1);
        }
        if (s.length() < 55) {
            return false;
        }
        String version = s.substring(0, 2);
        if (!lowerHex(version) || version.equals("ff")) {
            return false;
        }
        if (version.equals("00") && s.length() != 55) {
            return false;
        }
        if (s.length() > 55 && s.charAt(55) != '-') {
            return false;
        }
        String[] parts = s.substring(0, 55).split("-", -1);
        return parts.length == 4 && lowerHex(parts[1]) && parts[1].length() == 32 && lowerHex(parts[2])
            && parts[2].length() == 16 && lowerHex(parts[3]) && parts[3].length() == 2
            && !parts[1].equals("00000000000000000000000000000000") && !parts[2].equals("0000000000000000");
    }

    private static boolean lowerHex(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (HEX.indexOf(s.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    private static String traceparent(Random r, int i) {
        StringBuilder sb = new StringBuilder();
        sb.append(r.nextInt(4) == 0 ? hex(r, 2) : "00").append('-');
        sb.append(r.nextInt(50) == 0 ? "00000000000000000000000000000000" : hex(r, 32)).append('-');
        sb.append(r.nextInt(50) == 0 ? "0000000000000000" : hex(r, 16)).append('-').append(hex(r, 2));
        if (r.nextInt(6) == 0) {
            sb.append(r.nextBoolean() ? "-" : "").append(noise(r, r.nextInt(10)));
        }
        switch (i % 5) {
            case 0:
                return sb.toString();
            case 1: { // mutate a character
                int at = r.nextInt(sb.length());
                sb.setCharAt(at, NOISE.charAt(r.nextInt(NOISE.length())));
                return sb.toString();
            }
            case 2: // truncate or extend
                return r.nextBoolean() ? sb.substring(0, r.nextInt(sb.length() + 1)) : sb + noise(r, 1 + r.nextInt(3));
            case 3: // surrounding whitespace
                return (r.nextBoolean() ? " \t" : "") + sb + (r.nextBoolean() ? "\t " : "");
            default: { // random characters
                int n = r.nextInt(70);
                StringBuilder g = new StringBuilder();
                for (int j = 0; j < n; j++) {
                    g.append(r.nextInt(4) == 0 ? (char) r.nextInt(0x10000) : NOISE.charAt(r.nextInt(NOISE.length())));
                }
                return g.toString();
            }
        }
    }

    private static String tracestate(Random r) {
        StringBuilder sb = new StringBuilder();
        int members = r.nextInt(r.nextBoolean() ? 8 : 40);
        for (int m = 0; m < members; m++) {
            if (m > 0) {
                sb.append(r.nextInt(5) == 0 ? " , " : ",");
            }
            switch (r.nextInt(40)) {
                case 0:
                    sb.append("es=s:").append(r.nextInt(3) == 0 ? "1.5" : "0." + r.nextInt(10000));
                    break;
                case 1:
                    sb.append(noise(r, r.nextInt(12)));
                    break;
                case 2:
                case 3:
                case 4:
                    sb.append("t").append(r.nextInt(500)).append("@sys=v").append(r.nextInt(100));
                    break;
                default:
                    sb.append("k").append(r.nextInt(1000)).append('=').append(noise(r, 1 + r.nextInt(30)).replace(',', 'x')
                        .replace('=', 'y').replace('\t', 'z').trim()).append('v');
                    break;
            }
        }
        if (r.nextInt(10) == 0) {
            int at = r.nextInt(sb.length() + 1);
            sb.insert(at, (char) r.nextInt(0x10000));
        }
        return sb.toString();
    }

    private static String hex(Random r, int n) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            sb.append(HEX.charAt(r.nextInt(16)));
        }
        return sb.toString();
    }

    private static String noise(Random r, int n) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            sb.append(NOISE.charAt(r.nextInt(NOISE.length())));
        }
        return sb.toString();
    }
}
