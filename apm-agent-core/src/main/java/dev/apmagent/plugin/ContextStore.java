package dev.apmagent.plugin;

import java.lang.ref.WeakReference;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Attaches state to library objects (a statement's SQL, a connection's address, a task's trace context), lock-free for
 * readers and writers, in one of two places, chosen per object by its class:
 * <ul>
 *   <li><b>A context field</b> of the object's class, for a store {@linkplain #forType bound to a key type} that an
 *   instrumentation declared ({@link Instrumentation#contextKeyTypes()}): the class file hook adds the field to the
 *   key type's classes that it transforms as they are loaded, and makes them implement {@link ContextField}. Reading
 *   and writing it is a volatile load or store; nothing is allocated, nothing needs removing (the value goes with the
 *   object), and there is no bound to reach.</li>
 *   <li><b>A weak map</b> for every other object: classes loaded before the agent was installed (a runtime attach
 *   retransforms them, which cannot add fields), lambdas and hidden classes, classes whose loader cannot see
 *   {@code ContextField}, and every key of a store made with the constructor ({@code new ContextStore(...)}, map only).
 *   A bounded map from objects, compared by identity and held weakly, to values (below).</li>
 * </ul>
 * Both give the same answers: {@link #get}, {@link #put}, {@link #putIfAbsent} and {@link #remove} have the semantics
 * their javadoc states on either path, with two differences, in {@link #putIfAbsent} and {@link #remove}: see there.
 *
 * <p>Why volatile and not a plain field: a value is read by whichever thread uses the object next, and the store
 * cannot know what synchronization the application has between the two (a pool's hand-off has some; a connection the
 * application shares between threads may have none), so it must publish the value safely itself, as the map's CAS
 * does (the values need not be immutable); and a plain field lets the JIT keep a stale read across a loop. A volatile load costs what a plain one does on x86 (on ARM an {@code ldar}); the
 * store's fence is paid once per put or remove, against the map's entry allocation and CAS (docs/benchmarks.md).
 *
 * <h2>The map</h2>
 * <ul>
 *   <li>A fixed array of buckets (never resized, so no rehash pause); each bucket holds an immutable chain of
 *   entries, replaced as a whole by CAS. {@link #get} walks one chain and allocates nothing.</li>
 *   <li>Each entry is a {@link WeakReference} to its key. Entries are meant to be removed explicitly when the key is
 *   closed ({@link #remove}); removal also {@link WeakReference#clear() clears} the reference, so the garbage collector
 *   never has to process it. Keys that are never removed (statements the application never closes) are collected
 *   normally; their cleared entries are dropped from a chain whenever that chain is written, and by a full sweep when
 *   the map is full. No {@code ReferenceQueue}: its {@code poll()} takes a lock whenever the collector enqueued
 *   something, and nothing here may block an application thread.</li>
 *   <li>Bounded: at {@code maxSize} live entries new keys are rejected and counted ({@link #rejected()}); the caller
 *   then works without the value. A full map first tries one sweep of cleared entries (at most one sweep per
 *   {@value #SWEEP_EVERY} rejections, so a map full of live keys never makes every insert pay for a sweep).</li>
 * </ul>
 * Removing an entry from the middle of a chain copies the entries before it (chains are short: the JDBC maps have a
 * bucket for every four entries at most).
 */
public final class ContextStore<V> {

    static final int SWEEP_EVERY = 256;

    /** Every key type named by a store or by the class file hook, by name. */
    private static final ConcurrentMap<String, KeyType> keyTypes = new ConcurrentHashMap<String, KeyType>();

    /** The key type whose context field is this store's; null: the map only. */
    private final KeyType fieldType;
    private final AtomicReferenceArray<Entry<V>> buckets;
    private final int mask;
    private final int maxSize;
    private final AtomicInteger size = new AtomicInteger();
    private final AtomicInteger sweeping = new AtomicInteger();
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicLong sweeps = new AtomicLong();

    /**
     * A store that keeps every value in its weak map: for keys whose classes cannot be given a field (tasks, which are
     * often lambdas) or that no instrumentation declares.
     *
     * @param maxSize    live map entries at most
     * @param bucketBits log2 of the number of buckets
     */
    public ContextStore(int maxSize, int bucketBits) {
        this(null, maxSize, bucketBits);
    }

    private ContextStore(KeyType fieldType, int maxSize, int bucketBits) {
        if (maxSize < 1 || bucketBits < 1 || bucketBits > 24) {
            throw new IllegalArgumentException("maxSize " + maxSize + ", bucketBits " + bucketBits);
        }
        this.fieldType = fieldType;
        this.maxSize = maxSize;
        this.buckets = new AtomicReferenceArray<Entry<V>>(1 << bucketBits);
        this.mask = (1 << bucketBits) - 1;
    }

    /**
     * A store bound to the context field of {@code keyType}: objects whose class got that field (an instrumentation
     * declared the type in {@link Instrumentation#contextKeyTypes()}, and the class was loaded after the agent was
     * installed) keep their value in it; every other key goes to the weak map. A type has one field: a second store
     * bound to the same type keeps all its values in its map (see {@link #ownsField()}).
     *
     * @param keyType    the name of the key type, exactly as the instrumentation declares it
     * @param maxSize    live map entries at most
     * @param bucketBits log2 of the number of buckets
     */
    public static <V> ContextStore<V> forType(String keyType, int maxSize, int bucketBits) {
        if (keyType == null || keyType.isEmpty()) {
            throw new IllegalArgumentException("key type " + keyType);
        }
        KeyType type = KeyType.named(keyType);
        return new ContextStore<V>(type.owned.compareAndSet(false, true) ? type : null, maxSize, bucketBits);
    }

    /**
     * Called by the class file hook before it defines a class with the context field of {@code keyType} (and by tests
     * and benchmarks that write such a class by hand): until then the stores of that type skip the
     * {@code instanceof ContextField} of every key, which costs about 16 ns per lookup when it fails on JDK 17 (an
     * interface check that misses scans the class's secondary supers; nothing measurable on JDK 25, which hashes them:
     * {@code ContextStoreBenchmark}, {@code map} against {@code map_attach}, docs/benchmarks.md), so that the map path
     * after an attach, where no class has the field, costs what it did before context fields existed.
     */
    public static void fieldAdded(String keyType) {
        KeyType type = KeyType.named(keyType);
        if (!type.fieldAdded) {
            type.fieldAdded = true;
        }
    }

    /** Whether keys whose class has the context field of this store's key type keep their value in it. */
    public boolean ownsField() {
        return fieldType != null;
    }

    private static int hash(Object key) {
        int h = System.identityHashCode(key);
        return h ^ (h >>> 16);
    }

    /**
     * {@code key} as the holder of this store's context field, or null when its class has none, or has another key
     * type's. The key type is compared by reference: the generated method returns a string constant, which the JVM
     * interns, and {@link KeyType#name} is interned. While no class has the field, not even {@code instanceof} runs
     * (see {@link #fieldAdded}).
     */
    private ContextField fieldOf(Object key) {
        KeyType type = fieldType;
        if (type != null && type.fieldAdded && key instanceof ContextField) {
            ContextField holder = (ContextField) key;
            if (holder.apmagent$contextKeyType() == type.name) {
                return holder;
            }
        }
        return null;
    }

    /** The value of {@code key}, or null. Lock-free; allocates nothing. */
    @SuppressWarnings("unchecked")
    public V get(Object key) {
        if (key == null) {
            return null;
        }
        ContextField holder = fieldOf(key);
        if (holder != null) {
            return (V) holder.apmagent$lvContext();
        }
        int h = hash(key);
        for (Entry<V> e = buckets.get(h & mask); e != null; e = e.next) {
            if (e.hash == h && e.get() == key) {
                return e.value;
            }
        }
        return null;
    }

    /**
     * Maps {@code key} to {@code value}, replacing any other value; false when the map is full (counted; a context
     * field is never full). Mapping a key to a value equal to the one it has writes nothing and allocates nothing.
     */
    public boolean put(Object key, V value) {
        return put(key, value, false);
    }

    /**
     * Maps {@code key} to {@code value} unless it has a value already; false when it had one or the map is full.
     *
     * <p>Atomicity: in the map, one CAS decides, so of two threads racing to put a value for the same key exactly one
     * succeeds. In a context field it is a volatile load, then a volatile store if the load found nothing: atomic
     * against every write made before it by any thread (the load sees it), but not against a write racing it on
     * another thread, where both may return true and the later store wins. So use it where one thread at a time
     * writes a key's value: the first SQL of a statement's batch ({@code addBatch}, on one statement, which JDBC's
     * rules give to one thread at a time). Where racing writers must see exactly one winner (a task submitted from
     * two threads at once), use a map-only store. No CAS on the field: that needs a per-class
     * {@code AtomicReferenceFieldUpdater} (a static initializer in the library's class), a {@code VarHandle}
     * (Java 9+) or {@code Unsafe} (which warns on JDK 24+).
     */
    public boolean putIfAbsent(Object key, V value) {
        return put(key, value, true);
    }

    private boolean put(Object key, V value, boolean onlyIfAbsent) {
        if (key == null || value == null) {
            return false;
        }
        ContextField holder = fieldOf(key);
        if (holder != null) {
            Object existing = holder.apmagent$lvContext();
            if (existing != null && onlyIfAbsent) {
                return false;
            }
            if (existing != null && value.equals(existing)) {
                return true; // as in the map: an equal value is not written again
            }
            holder.apmagent$svContext(value);
            return true;
        }
        int h = hash(key);
        int i = h & mask;
        boolean swept = false;
        while (true) {
            Entry<V> head = buckets.get(i);
            Entry<V> existing = find(head, key, h);
            if (existing != null && onlyIfAbsent) {
                return false;
            }
            if (existing != null && value.equals(existing.value)) {
                return true; // a driver's prepareStatement overloads calling each other map the same statement again
            }
            if (existing == null && size.get() >= maxSize) {
                long n = rejected.getAndIncrement();
                if (!swept && n % SWEEP_EVERY == 0 && sweep()) {
                    swept = true;
                    rejected.decrementAndGet();
                    continue;
                }
                return false;
            }
            Entry<V> rest = without(head, existing);
            Entry<V> fresh = new Entry<V>(key, h, value, rest);
            if (buckets.compareAndSet(i, head, fresh)) {
                // the fresh entry joins; the replaced entry and the cleared ones dropped from the chain leave
                int delta = 1 - dropped(head, rest);
                if (delta != 0) {
                    size.addAndGet(delta);
                }
                if (existing != null) {
                    existing.clear();
                }
                return true;
            }
        }
    }

    /**
     * Removes {@code key}; returns its value or null. In a context field, a volatile load and, if it found a value, a
     * volatile store of null: a put racing it on another thread may be lost (a key is closed by the thread using it).
     */
    @SuppressWarnings("unchecked")
    public V remove(Object key) {
        if (key == null) {
            return null;
        }
        ContextField holder = fieldOf(key);
        if (holder != null) {
            Object existing = holder.apmagent$lvContext();
            if (existing != null) {
                holder.apmagent$svContext(null);
            }
            return (V) existing;
        }
        int h = hash(key);
        int i = h & mask;
        while (true) {
            Entry<V> head = buckets.get(i);
            Entry<V> existing = find(head, key, h);
            if (existing == null) {
                return null;
            }
            Entry<V> rest = without(head, existing);
            if (buckets.compareAndSet(i, head, rest)) {
                size.addAndGet(-dropped(head, rest));
                existing.clear();
                return existing.value;
            }
        }
    }

    /**
     * Drops the entries of collected keys from every bucket; true when something was dropped. One sweeper at a time;
     * a bucket whose CAS is lost to a concurrent writer is skipped (that writer prunes it).
     */
    boolean sweep() {
        if (!sweeping.compareAndSet(0, 1)) {
            return false;
        }
        try {
            sweeps.incrementAndGet();
            int total = 0;
            for (int i = 0; i <= mask; i++) {
                Entry<V> head = buckets.get(i);
                if (head == null) {
                    continue;
                }
                Entry<V> rest = without(head, null);
                int dropped = dropped(head, rest);
                if (dropped > 0 && buckets.compareAndSet(i, head, rest)) {
                    size.addAndGet(-dropped);
                    total += dropped;
                }
            }
            return total > 0;
        } finally {
            sweeping.set(0);
        }
    }

    private static <V> Entry<V> find(Entry<V> head, Object key, int h) {
        for (Entry<V> e = head; e != null; e = e.next) {
            if (e.hash == h && e.get() == key) {
                return e;
            }
        }
        return null;
    }

    /**
     * How many entries of the chain {@code head} are not in {@code rest}, a chain {@link #without} built from it.
     * Counted from the two immutable chains rather than predicted, because the collector may clear more keys while
     * {@code without} runs.
     */
    private static <V> int dropped(Entry<V> head, Entry<V> rest) {
        if (head == rest) {
            return 0;
        }
        return length(head) - length(rest);
    }

    private static <V> int length(Entry<V> e) {
        int n = 0;
        for (; e != null; e = e.next) {
            n++;
        }
        return n;
    }

    /**
     * The chain without {@code target} and without cleared entries: the tail after the last dropped entry is shared,
     * the kept entries before it are copied in front of it (in reverse order; order within a chain does not matter).
     * Each kept key is held strongly while it is copied, so none is lost. Iterative: no chain length can overflow the
     * stack.
     */
    private static <V> Entry<V> without(Entry<V> head, Entry<V> target) {
        Entry<V> lastDropped = null;
        for (Entry<V> e = head; e != null; e = e.next) {
            if (e == target || e.get() == null) {
                lastDropped = e;
            }
        }
        if (lastDropped == null) {
            return head;
        }
        Entry<V> rest = lastDropped.next;
        for (Entry<V> e = head; e != lastDropped; e = e.next) {
            Object key = e.get();
            if (e != target && key != null) {
                rest = new Entry<V>(key, e.hash, e.value, rest);
            }
        }
        return rest;
    }

    /** Live entries of the map plus cleared ones not yet dropped; values in context fields are not counted. */
    public int size() {
        return size.get();
    }

    /** Most live entries of the map. */
    public int maxSize() {
        return maxSize;
    }

    /** Inserts refused because the map was full (context fields are never full). */
    public long rejected() {
        return rejected.get();
    }

    /** Full sweeps run. */
    long sweeps() {
        return sweeps.get();
    }

    /** A key type: its interned name, whether a store owns its field, whether some class has the field yet. */
    private static final class KeyType {
        final String name;
        final AtomicBoolean owned = new AtomicBoolean();
        /**
         * Set once, before the first class with the field is defined, so before any object of it can reach a store;
         * volatile, so that no thread keeps reading false from a register.
         */
        volatile boolean fieldAdded;

        private KeyType(String name) {
            this.name = name;
        }

        static KeyType named(String name) {
            KeyType type = keyTypes.get(name);
            if (type == null) {
                KeyType fresh = new KeyType(name.intern());
                type = keyTypes.putIfAbsent(name, fresh);
                if (type == null) {
                    type = fresh;
                }
            }
            return type;
        }
    }

    static final class Entry<V> extends WeakReference<Object> {
        final int hash;
        final V value;
        final Entry<V> next;

        Entry(Object key, int hash, V value, Entry<V> next) {
            super(key);
            this.hash = hash;
            this.value = value;
            this.next = next;
        }
    }
}
