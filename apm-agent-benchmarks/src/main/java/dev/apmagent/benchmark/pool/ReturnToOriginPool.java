package dev.apmagent.benchmark.pool;

import java.util.concurrent.atomic.AtomicLong;

import dev.apmagent.pool.ObjectPool;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.MpscLinkedQueue;
import org.jctools.queues.MpscUnboundedArrayQueue;

/**
 * COMPARISON ONLY, not a core strategy: the pool design the Elastic agent sketched in a comment and never built, and
 * the one a JCTools MPSC queue is safe for. Every thread that acquires owns an MPSC queue of returned objects (its
 * "home"); an object remembers the home of the thread that acquired it, and {@link #release} (on any thread, usually
 * the reporter) offers it back there, so the only consumer of each queue is its owner. A thread that finds its home
 * empty allocates.
 *
 * <p>Two queue kinds: {@link MpscLinkedQueue} (allocates a node on every release, which the allocation profile of the
 * benchmark shows) and {@link MpscUnboundedArrayQueue} (chunks of {@value #CHUNK} slots, allocating a chunk now and
 * then). Bound: a home holding {@code capacityPerThread} objects drops further releases. The chunked queue's size is
 * O(1) and checked on every release; the linked queue's size walks the list, so it is checked every
 * {@value #LINKED_CHECK_EVERY} releases into that home. Objects in the homes of dead threads are lost to the pool; a
 * real implementation would also need a bound per virtual thread.
 */
public final class ReturnToOriginPool implements ObjectPool<PooledEvent> {

    static final int CHUNK = 64;
    static final int LINKED_CHECK_EVERY = 64;

    private final boolean linked;
    private final int capacityPerThread;
    private final Allocator<PooledEvent> allocator;
    private final ThreadLocal<Home> homes = new ThreadLocal<Home>();
    private final AtomicLong created = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();

    /**
     * @param linked            {@link MpscLinkedQueue} when true, {@link MpscUnboundedArrayQueue} otherwise
     * @param capacityPerThread objects a home keeps at most
     */
    public ReturnToOriginPool(boolean linked, int capacityPerThread, Allocator<PooledEvent> allocator) {
        this.linked = linked;
        this.capacityPerThread = capacityPerThread;
        this.allocator = allocator;
    }

    /** The returned objects of one acquiring thread; only that thread polls. */
    static final class Home {
        final MessagePassingQueue<PooledEvent> returned;
        /** Releases since the linked queue's O(n) size was last checked; written by releasing threads. */
        int releasesSinceCheck;
        volatile boolean full;

        Home(boolean linked) {
            returned = linked ? new MpscLinkedQueue<PooledEvent>() : new MpscUnboundedArrayQueue<PooledEvent>(CHUNK);
        }
    }

    @Override
    public PooledEvent acquire() {
        Home home = homes.get();
        if (home == null) {
            home = new Home(linked);
            homes.set(home);
        }
        PooledEvent event = home.returned.relaxedPoll();
        if (event == null) {
            created.incrementAndGet();
            event = allocator.create();
            home.full = false;
        }
        event.home = home;
        return event;
    }

    @Override
    public void release(PooledEvent event) {
        Home home = (Home) event.home;
        event.home = null;
        if (home == null) {
            dropped.incrementAndGet();
            return;
        }
        if (linked) {
            // MpscLinkedQueue.size() walks the list: re-check the bound only now and then (benign race on the count:
            // it only decides how often the bound is checked)
            if (++home.releasesSinceCheck >= LINKED_CHECK_EVERY) {
                home.releasesSinceCheck = 0;
                home.full = home.returned.size() >= capacityPerThread;
            }
            if (home.full) {
                dropped.incrementAndGet();
                return;
            }
        } else if (home.returned.size() >= capacityPerThread) {
            dropped.incrementAndGet();
            return;
        }
        home.returned.offer(event);
    }

    @Override
    public long createdCount() {
        return created.get();
    }

    @Override
    public long droppedCount() {
        return dropped.get();
    }

    @Override
    public int sharedCount() {
        return 0;
    }

    @Override
    public int sharedCapacity() {
        return 0;
    }
}
