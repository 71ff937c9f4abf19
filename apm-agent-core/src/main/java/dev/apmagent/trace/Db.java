package dev.apmagent.trace;

/** {@code context.db} of a database span. */
public final class Db {

    /** Statements longer than this are truncated. */
    public static final int MAX_STATEMENT_LENGTH = 10_000;

    private CharSequence instance;
    private CharSequence type;
    private CharSequence user;
    private final StringBuilder statement = new StringBuilder();
    private long rowsAffected = -1;

    public boolean hasContent() {
        return instance != null || type != null || user != null || statement.length() > 0 || rowsAffected != -1;
    }

    public CharSequence instance() {
        return instance;
    }

    public void setInstance(CharSequence instance) {
        this.instance = instance;
    }

    /** The statement (at most {@link #MAX_STATEMENT_LENGTH} characters); empty when none. */
    public CharSequence statement() {
        return statement;
    }

    /** Copies at most {@link #MAX_STATEMENT_LENGTH} characters of {@code value}. */
    public void setStatement(CharSequence value) {
        Texts.copy(value, statement, MAX_STATEMENT_LENGTH);
    }

    /** "sql" for relational databases. */
    public CharSequence type() {
        return type;
    }

    public void setType(CharSequence type) {
        this.type = type;
    }

    public CharSequence user() {
        return user;
    }

    public void setUser(CharSequence user) {
        this.user = user;
    }

    /** -1 when unknown. */
    public long rowsAffected() {
        return rowsAffected;
    }

    public void setRowsAffected(long rowsAffected) {
        this.rowsAffected = rowsAffected;
    }

    public void reset() {
        instance = null;
        type = null;
        user = null;
        Texts.clear(statement, 2 * MAX_STATEMENT_LENGTH);
        rowsAffected = -1;
    }
}
