package dev.apmagent.trace;

import org.junit.jupiter.api.Tag;

/**
 * {@link AllocationTest} again on JDK 25, where the pool asks {@code Thread#isVirtual} (through a method handle) on
 * every acquire and release: that check must not allocate either.
 */
@Tag("jdk25")
class AllocationJdk25Test extends AllocationTest {
}
