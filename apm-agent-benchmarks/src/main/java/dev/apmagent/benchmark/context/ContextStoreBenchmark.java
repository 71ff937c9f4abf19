package dev.apmagent.benchmark.context;

import dev.apmagent.plugin.ContextField;
import dev.apmagent.plugin.ContextStore;
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

import java.util.concurrent.TimeUnit;

/**
 * The kit's {@link ContextStore} on its two paths, through one store bound to a key type as the JDBC plugin's are:
 * {@code field}, keys whose class has the context field ({@link FieldKey}, written by hand exactly as the class file
 * hook generates it: a volatile field and the three {@link ContextField} methods), and {@code map}, keys of a class
 * without it ({@link MapKey}), which go to the store's weak map after an {@code instanceof ContextField} that fails
 * (some classes of the type have the field, these do not: a pool loaded before an attach, a driver after);
 * {@code map_attach}, the same keys in a store of a key type no class has the field of (all of them loaded before an
 * attach), which skips that {@code instanceof}; and {@code map_only}, the same keys in a map-only store (made by the
 * constructor: the code path from before context fields existed). Both key classes implement six other interfaces,
 * as a JDBC statement class does, which a failing {@code instanceof} scans on JDK 17. The map holds {@value #LIVE}
 * other keys throughout, so its chains are as long as a busy JDBC store's.
 * <ul>
 *   <li>{@link #get}: one lookup of a mapped key, what each statement execution does for its SQL;</li>
 *   <li>{@link #putGetRemove}: a statement's life in the store, prepare (put), execute (get), close (remove).</li>
 * </ul>
 * Use {@code -prof gc}: the map allocates an entry per put, the field nothing.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class ContextStoreBenchmark {

    /** Keys mapped for the whole trial. */
    static final int LIVE = 4096;
    /** Keys {@link #putGetRemove} goes through in turn. */
    static final int CYCLED = 1024;
    static final String VALUE = "SELECT name FROM users WHERE id = ?";

    /** Bound once per JVM, as the plugins' stores are; 65,536 map entries in 16,384 buckets, as the JDBC statements'. */
    static final ContextStore<String> boundStore = ContextStore.forType(FieldKey.class.getName(), 65_536, 14);
    /** Bound to a key type whose field no class has. */
    static final ContextStore<String> attachStore = ContextStore.forType(MapKey.class.getName(), 65_536, 14);

    static {
        ContextStore.fieldAdded(FieldKey.class.getName()); // what the class file hook does when it adds the field
    }

    @Param({"field", "map", "map_attach", "map_only"})
    public String path;

    ContextStore<String> store;
    Object[] live;
    Object[] cycled;
    int next;

    @Setup(Level.Trial)
    public void setUp() {
        if (!boundStore.ownsField()) {
            throw new IllegalStateException("another store owns the field of " + FieldKey.class.getName());
        }
        store = path.equals("map_only") ? new ContextStore<String>(65_536, 14)
                : path.equals("map_attach") ? attachStore : boundStore;
        live = keys(LIVE);
        cycled = keys(CYCLED);
        for (Object key : live) {
            if (!store.put(key, VALUE)) {
                throw new IllegalStateException("not stored");
            }
        }
    }

    private Object[] keys(int n) {
        Object[] keys = new Object[n];
        for (int i = 0; i < n; i++) {
            keys[i] = path.equals("field") ? new FieldKey() : new MapKey();
        }
        return keys;
    }

    /** The value of a mapped key. */
    @Benchmark
    public String get() {
        return store.get(live[next++ & (LIVE - 1)]);
    }

    /** Put, get and remove on a key that had no value. */
    @Benchmark
    public String putGetRemove() {
        Object key = cycled[next++ & (CYCLED - 1)];
        store.put(key, VALUE);
        String value = store.get(key);
        store.remove(key);
        return value;
    }

    /** Interfaces of the key classes besides {@link ContextField}, as many as a JDBC statement class has. */
    interface I1 {
    }

    interface I2 {
    }

    interface I3 {
    }

    interface I4 {
    }

    interface I5 {
    }

    interface I6 {
    }

    /** What the class file hook adds to a key type's class, by hand: a volatile field and its accessor. */
    public static final class FieldKey implements I1, I2, I3, I4, I5, I6, ContextField {
        private transient volatile Object context;

        @Override
        public String apmagent$contextKeyType() {
            return "dev.apmagent.benchmark.context.ContextStoreBenchmark$FieldKey"; // a constant, as generated
        }

        @Override
        public Object apmagent$lvContext() {
            return context;
        }

        @Override
        public void apmagent$svContext(Object value) {
            context = value;
        }
    }

    /** A key whose class has no field (loaded before an attach). */
    public static final class MapKey implements I1, I2, I3, I4, I5, I6 {
    }
}
