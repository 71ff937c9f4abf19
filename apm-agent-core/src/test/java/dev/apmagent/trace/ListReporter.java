package dev.apmagent.trace;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@link Reporter} for tests: records every reported event (holding the reporter's reference) and releases those
 * references in {@link #clear()}, which recycles the events. Thread-safe. {@link #setDropping(boolean)} makes it behave
 * like a full reporter: it releases the event at once and returns false.
 */
public final class ListReporter implements Reporter {

    private final List<Transaction> transactions = new ArrayList<>();
    private final List<Span> spans = new ArrayList<>();
    private final List<ErrorEvent> errors = new ArrayList<>();
    private volatile boolean dropping;

    public void setDropping(boolean dropping) {
        this.dropping = dropping;
    }

    @Override
    public boolean report(Transaction transaction) {
        if (dropping) {
            transaction.decrementReferences();
            return false;
        }
        synchronized (this) {
            transactions.add(transaction);
        }
        return true;
    }

    @Override
    public boolean report(Span span) {
        if (dropping) {
            span.decrementReferences();
            return false;
        }
        synchronized (this) {
            spans.add(span);
        }
        return true;
    }

    @Override
    public boolean report(ErrorEvent error) {
        if (dropping) {
            error.decrementReferences();
            return false;
        }
        synchronized (this) {
            errors.add(error);
        }
        return true;
    }

    public synchronized List<Transaction> transactions() {
        return new ArrayList<>(transactions);
    }

    public synchronized List<Span> spans() {
        return new ArrayList<>(spans);
    }

    public synchronized List<ErrorEvent> errors() {
        return new ArrayList<>(errors);
    }

    public synchronized Transaction onlyTransaction() {
        if (transactions.size() != 1) {
            throw new AssertionError("expected 1 transaction, got " + transactions.size());
        }
        return transactions.get(0);
    }

    public synchronized ErrorEvent onlyError() {
        if (errors.size() != 1) {
            throw new AssertionError("expected 1 error, got " + errors.size());
        }
        return errors.get(0);
    }

    /** Releases the reporter's reference of one recorded event and forgets it. */
    public void release(Object event) {
        boolean removed;
        synchronized (this) {
            removed = transactions.remove(event) | spans.remove(event) | errors.remove(event);
        }
        if (!removed) {
            throw new AssertionError("not reported: " + event);
        }
        if (event instanceof ErrorEvent) {
            ((ErrorEvent) event).decrementReferences();
        } else {
            ((AbstractSpan) event).decrementReferences();
        }
    }

    /** Releases the reporter's reference of every recorded event (spans first, as a reporter would) and forgets them. */
    public void clear() {
        List<AbstractSpan> events = new ArrayList<>();
        List<ErrorEvent> errorsToRelease;
        synchronized (this) {
            events.addAll(spans);
            events.addAll(transactions);
            errorsToRelease = new ArrayList<>(errors);
            spans.clear();
            transactions.clear();
            errors.clear();
        }
        for (AbstractSpan event : events) {
            event.decrementReferences();
        }
        for (ErrorEvent error : errorsToRelease) {
            error.decrementReferences();
        }
    }
}
