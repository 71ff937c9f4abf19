package dev.apmagent.trace;

/**
 * The events activated on one thread, innermost on top. Only its own thread touches it. Created lazily on the first
 * activation; starts with {@value #INITIAL_CAPACITY} slots and grows up to {@value #MAX_DEPTH}; deeper activations are
 * counted but not stored (and take no reference).
 */
final class ActiveStack {

    static final int INITIAL_CAPACITY = 4;
    static final int MAX_DEPTH = 64;

    private AbstractSpan[] items = new AbstractSpan[INITIAL_CAPACITY];
    private int size;
    /** Activations beyond {@link #MAX_DEPTH}, not stored; the innermost deactivations consume them first. */
    private int overflow;

    int size() {
        return size;
    }

    AbstractSpan top() {
        return size == 0 ? null : items[size - 1];
    }

    boolean isEmpty() {
        return size == 0 && overflow == 0;
    }

    /** Pushes {@code span}; false (nothing stored) when {@link #MAX_DEPTH} is reached. */
    boolean push(AbstractSpan span) {
        if (size == MAX_DEPTH) {
            overflow++;
            return false;
        }
        if (size == items.length) {
            AbstractSpan[] grown = new AbstractSpan[Math.min(MAX_DEPTH, items.length * 2)];
            System.arraycopy(items, 0, grown, 0, size);
            items = grown;
        }
        items[size++] = span;
        return true;
    }

    /** Consumes one overflowed activation if there is one. */
    boolean popOverflow() {
        if (overflow > 0) {
            overflow--;
            return true;
        }
        return false;
    }

    /** Index of {@code span} searching from the top, -1 when absent. */
    int indexOf(AbstractSpan span) {
        for (int i = size - 1; i >= 0; i--) {
            if (items[i] == span) {
                return i;
            }
        }
        return -1;
    }

    /** Removes and returns the top. */
    AbstractSpan pop() {
        AbstractSpan top = items[--size];
        items[size] = null;
        return top;
    }
}
