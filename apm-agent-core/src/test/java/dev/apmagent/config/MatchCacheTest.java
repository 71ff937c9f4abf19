package dev.apmagent.config;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MatchCacheTest {

    private static final WildcardMatcherList SANITIZE = WildcardMatcherList.of("password", "passwd", "pwd", "secret", "*key",
            "*token*", "*session*", "*credit*", "*card*", "*auth*", "set-cookie", "*principal*");

    /** The cache answers exactly as the list, for hits, misses, colliding names, long names and new String instances. */
    @Test
    void answersAsTheListDoes() {
        MatchCache cache = new MatchCache(SANITIZE);
        List<String> names = new ArrayList<>();
        for (String n : new String[] {"Authorization", "authorization", "Cookie", "Set-Cookie", "X-Api-Key", "accept", "Host",
                "user-agent", "X-CSRF-TOKEN", "JSESSIONID", "x".repeat(MatchCache.MAX_CACHED_LENGTH + 1) + "token", "", "pwd"}) {
            names.add(n);
        }
        for (int i = 0; i < 4 * MatchCache.SLOTS; i++) {
            names.add("x-custom-" + i + (i % 7 == 0 ? "-secret-token" : ""));
        }
        for (int round = 0; round < 3; round++) {
            for (String name : names) {
                String copy = new String(name.toCharArray()); // a fresh instance, as a container builds per request
                assertEquals(SANITIZE.matches(name), cache.matches(copy), name);
            }
        }
        assertFalse(cache.matches(null));
        assertFalse(new MatchCache(WildcardMatcherList.EMPTY).matches("password"));
        assertTrue(cache.matches("PASSWORD"));
    }

    @Test
    void aHitAllocatesNothing() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        MatchCache cache = new MatchCache(SANITIZE);
        String[] names = {"accept", "host", "user-agent", "authorization", "x-request-id"};
        boolean sink = false;
        for (int i = 0; i < 20_000; i++) {
            sink ^= cache.matches(names[i % names.length]);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 100_000; i++) {
            sink ^= cache.matches(names[i % names.length]);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < 1024, "allocated " + allocated + " B for 100,000 hits (" + sink + ")");
    }
}
