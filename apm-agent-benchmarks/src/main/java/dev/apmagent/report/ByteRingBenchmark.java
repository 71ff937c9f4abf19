package dev.apmagent.report;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The byte ring on its own, one thread playing the reporter and the sender in turn, in nanoseconds per entry. In the
 * package of {@link ByteRing} because {@code take} is package-private. {@code putTake}: the server keeps up; the
 * reporter appends {@value #BATCH} entries of {@code size} bytes, then the sender takes them in 16 KB batches (its HTTP
 * chunk). {@code putEvicting}: the server is away and the ring is full; every append evicts the oldest entries.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
public class ByteRingBenchmark {

    static final int BATCH = 256;
    static final int CAPACITY = 4 * 1024 * 1024;
    static final int SENDER_CHUNK = 16 * 1024;

    /** Serialized size of one event: about a span (600) and a small transaction's worth of context (1,500). */
    @Param({"600", "1500"})
    public int size;

    ByteRing ring;
    byte[] line;
    byte[] dst;
    TypeSequence taken;

    @Setup(Level.Trial)
    public void setUp() {
        ring = new ByteRing(CAPACITY, new ReporterStats(new ReporterStats.BufferProbe() {
            @Override
            public long buffered() {
                return 0;
            }
        }));
        line = new byte[size];
        for (int i = 0; i < size; i++) {
            line[i] = (byte) ('a' + i % 26);
        }
        line[size - 1] = '\n';
        dst = new byte[64 * 1024];
        taken = new TypeSequence();
    }

    /** Returns the bytes taken, {@value #BATCH} x size. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long putTake() {
        for (int i = 0; i < BATCH; i++) {
            ring.put(EventTypes.SPAN, line, 0, line.length);
        }
        long bytes = 0;
        for (int n = ring.take(dst, SENDER_CHUNK, taken); n > 0; n = ring.take(dst, SENDER_CHUNK, taken)) {
            bytes += n;
            taken.clear();
        }
        trimSpares(ring); // the reporter does it once a second; here once per batch, the harder case
        return bytes;
    }

    /** The old ring (before issue #17) had no spares to trim; this method is the one line to drop to run it there. */
    static void trimSpares(ByteRing ring) {
        ring.trimSpares();
    }

    /** Returns the bytes buffered, which stay near the bound. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long putEvicting() {
        for (int i = 0; i < BATCH; i++) {
            ring.put(EventTypes.SPAN, line, 0, line.length);
        }
        return ring.usedBytes();
    }
}
