package dev.apmagent.report;

import java.util.concurrent.TimeUnit;

import dev.apmagent.trace.ErrorEvent;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Transaction;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One NDJSON line per event type, as the reporter thread writes it: the serializer of that type into a reused
 * {@link JsonHelper}. Should allocate nothing ({@code -prof gc}). Lives in the reporter's package because the
 * serializers are package-private; the events come from {@link SampleEvents}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class SerializerBenchmark {

    @Param({"transaction", "span", "error"})
    public String eventType;

    final JsonHelper json = new JsonHelper();
    final ErrorSerializer errorSerializer = new ErrorSerializer();
    Transaction transaction;
    Span span;
    ErrorEvent error;

    @Setup(Level.Trial)
    public void setUp() {
        SampleEvents events = SampleEvents.create();
        transaction = events.transactions.get(0);
        span = events.spans.get(0);
        error = events.errors.get(0);
        if (!"transaction".equals(eventType) && !"span".equals(eventType) && !"error".equals(eventType)) {
            throw new IllegalArgumentException("eventType must be transaction, span or error: " + eventType);
        }
    }

    /** Serializes the event of the chosen type; returns the line's length in bytes. */
    @Benchmark
    public int serialize() {
        JsonHelper out = json;
        out.reset();
        switch (eventType) {
            case "transaction":
                TransactionSerializer.serialize(transaction, out);
                break;
            case "span":
                SpanSerializer.serialize(span, out);
                break;
            default:
                errorSerializer.serialize(error, out);
                break;
        }
        return out.size();
    }
}
