package dev.apmagent.plugin.jdbc;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

class SqlNameCacheTest {

    @Test
    void admitsAStringOnItsSecondSightingAndMatchesByIdentity() {
        SqlNameCache cache = new SqlNameCache();
        String sql = new String("SELECT a FROM t");
        assertNull(cache.get(sql));
        cache.offer(sql, new StringBuilder("SELECT FROM t"));
        assertNull(cache.get(sql), "first sighting: not admitted");
        cache.offer(sql, new StringBuilder("SELECT FROM t"));
        assertEquals("SELECT FROM t", cache.get(sql));
        assertSame(cache.get(sql), cache.get(sql));
        assertNull(cache.get(new String(sql)), "an equal string that is another object is another key");
    }

    @Test
    void longSqlIsNotCached() {
        SqlNameCache cache = new SqlNameCache();
        String sql = "SELECT " + "x, ".repeat(SqlNameCache.MAX_SQL_LENGTH) + "y FROM t";
        cache.offer(sql, "SELECT FROM t");
        cache.offer(sql, "SELECT FROM t");
        assertNull(cache.get(sql));
    }

    @Test
    void sqlBuiltForEveryCallAllocatesNoEntry() {
        SqlNameCache cache = new SqlNameCache();
        String[] fresh = new String[100_000];
        for (int i = 0; i < fresh.length; i++) {
            fresh[i] = new String("SELECT a FROM t WHERE id = 1");
            System.identityHashCode(fresh[i]);
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        StringBuilder name = new StringBuilder("SELECT FROM t");
        long before = threads.getCurrentThreadAllocatedBytes();
        int admitted = 0;
        for (String sql : fresh) {
            if (cache.get(sql) == null) {
                cache.offer(sql, name);
            }
            if (cache.get(sql) != null) {
                admitted++;
            }
        }
        long bytes = threads.getCurrentThreadAllocatedBytes() - before;
        // only identity-hash collisions within a slot admit an entry (each costs an entry and a name)
        assertEquals(0, bytes / fresh.length, bytes + " bytes, " + admitted + " admitted");
    }
}
