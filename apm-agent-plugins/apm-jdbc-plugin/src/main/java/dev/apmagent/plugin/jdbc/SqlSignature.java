package dev.apmagent.plugin.jdbc;

import dev.apmagent.plugin.jdbc.SqlLexer.Kind;

/**
 * Derives a low-cardinality span name from a SQL statement, as the shared cross-agent vectors define it:
 * {@code SELECT FROM users}, {@code INSERT INTO orders}, {@code UPDATE orders}, {@code DELETE FROM t},
 * {@code CALL proc}, {@code REPLACE INTO t}, {@code MERGE INTO t}, and for everything else (DDL, transaction control,
 * broken or unknown statements) the first word, upper-cased. Joins and lists name the first table; a SELECT whose
 * outermost FROM is a derived table is just {@code SELECT}. Only blank input gives an empty name.
 *
 * <p>{@link #appendTo(CharSequence, StringBuilder)} allocates nothing and runs in time linear in the input. An instance
 * holds its scanner, so it is not thread-safe: keep one per thread (the static {@link #of(String)} does that). Names
 * are capped at {@link #MAX_NAME_LENGTH} characters.
 */
public final class SqlSignature {

    /** Longest name produced; longer identifiers are cut. */
    public static final int MAX_NAME_LENGTH = 256;

    private static final ThreadLocal<SqlSignature> PER_THREAD = new ThreadLocal<SqlSignature>() {
        @Override
        protected SqlSignature initialValue() {
            return new SqlSignature();
        }
    };

    private final SqlLexer lexer = new SqlLexer();
    private final StringBuilder scratch = new StringBuilder(64);
    private int limit;

    /**
     * The span name of {@code sql} (empty for null or blank input), via a per-thread instance. Allocates the result
     * String only.
     */
    public static String of(String sql) {
        SqlSignature s = PER_THREAD.get();
        StringBuilder sb = s.scratch;
        sb.setLength(0);
        s.appendTo(sql, sb);
        return sb.toString();
    }

    /** {@link #appendTo} with this thread's instance: allocates nothing once the thread has one. */
    static void appendOnThisThread(CharSequence sql, StringBuilder out) {
        PER_THREAD.get().appendTo(sql, out);
    }

    /** Appends the span name of {@code sql} to {@code out}; appends nothing for null or blank input. */
    public void appendTo(CharSequence sql, StringBuilder out) {
        SqlLexer lx = lexer.reset(sql);
        limit = out.length() + MAX_NAME_LENGTH;
        int mark = out.length();
        try {
            parse(lx, out, mark);
            if (out.length() == mark) {
                // e.g. an empty quoted identifier first: never leave a non-blank statement unnamed
                appendTrimmed(out, lx.input());
            }
        } finally {
            lx.clear();
        }
    }

    /** Characters the scanner examined during the last call on this thread's instance; for tests. */
    long lastSteps() {
        return lexer.steps();
    }

    SqlLexer lexer() {
        return lexer;
    }

    private void parse(SqlLexer lx, StringBuilder out, int mark) {
        Kind first = lx.nextNonComment();
        // statements wrapped in parentheses, e.g. (SELECT ...) UNION (SELECT ...), are named by their first word
        int firstStart = lx.start();
        // and JDBC escapes {call p(?)} / {? = call p(?)} by the call
        while (first == Kind.LPAREN || isChar(lx, first, '{')) {
            first = lx.nextNonComment();
        }
        if (isChar(lx, first, '?')) {
            int qStart = lx.start();
            int qEnd = lx.end();
            Kind eq = lx.nextNonComment();
            if (isChar(lx, eq, '=') && lx.nextNonComment() == Kind.CALL) {
                first = Kind.CALL;
            } else {
                out.setLength(mark);
                appendUpper(out, lx.input(), qStart, qEnd);
                return;
            }
        }
        if (first == Kind.EOF) {
            fallbackFirstToken(lx, out, firstStart);
            return;
        }
        int wordStart = lx.start();
        int wordEnd = lx.end();
        switch (first) {
            case SELECT:
                if (select(lx, out)) {
                    return;
                }
                break;
            case INSERT:
            case REPLACE:
            case MERGE:
                if (lx.scanUntil(Kind.INTO) && lx.nextNonComment() == Kind.IDENT) {
                    appendUpper(out, lx.input(), wordStart, wordEnd);
                    append(out, " INTO ");
                    appendQualifiedName(lx, out);
                    return;
                }
                break;
            case DELETE:
                if (lx.scanUntil(Kind.FROM) && lx.nextNonComment() == Kind.IDENT) {
                    append(out, "DELETE FROM ");
                    appendQualifiedName(lx, out);
                    return;
                }
                break;
            case UPDATE:
                if (update(lx, out)) {
                    return;
                }
                break;
            case CALL:
                if (lx.nextNonComment() == Kind.IDENT) {
                    append(out, "CALL ");
                    appendQualifiedName(lx, out);
                    return;
                }
                break;
            default:
                break;
        }
        out.setLength(mark);
        appendUpper(out, lx.input(), wordStart, wordEnd);
    }

    /** SELECT: the first table after the FROM at parenthesis depth 0, unless that is a derived table. */
    private boolean select(SqlLexer lx, StringBuilder out) {
        int depth = 0;
        for (Kind k = lx.nextNonComment(); k != Kind.EOF; k = lx.nextNonComment()) {
            if (k == Kind.LPAREN) {
                depth++;
            } else if (k == Kind.RPAREN) {
                depth--;
            } else if (k == Kind.FROM && depth == 0) {
                if (lx.nextNonComment() == Kind.IDENT) {
                    append(out, "SELECT FROM ");
                    appendQualifiedName(lx, out);
                    return true;
                }
                return false;
            }
        }
        return false;
    }

    /** UPDATE [LOW_PRIORITY] [IGNORE] [ONLY] table. */
    private boolean update(SqlLexer lx, StringBuilder out) {
        Kind k = lx.nextNonComment();
        while (k == Kind.IDENT && !lx.quoted() && isUpdateModifier(lx)) {
            k = lx.nextNonComment();
        }
        if (k != Kind.IDENT) {
            return false;
        }
        append(out, "UPDATE ");
        appendQualifiedName(lx, out);
        return true;
    }

    private static boolean isUpdateModifier(SqlLexer lx) {
        return lx.textEqualsIgnoreCase("IGNORE") || lx.textEqualsIgnoreCase("ONLY")
            || lx.textEqualsIgnoreCase("LOW_PRIORITY");
    }

    /** Appends the current IDENT and any following {@code . IDENT} parts (comments between them are skipped). */
    private void appendQualifiedName(SqlLexer lx, StringBuilder out) {
        appendToken(lx, out);
        while (lx.nextNonComment() == Kind.PERIOD) {
            Kind k = lx.nextNonComment();
            if (k != Kind.IDENT && !isKeyword(k)) {
                return;
            }
            append(out, ".");
            appendToken(lx, out);
        }
    }

    private static boolean isChar(SqlLexer lx, Kind k, char c) {
        return k == Kind.OTHER && lx.end() - lx.start() == 1 && lx.input().charAt(lx.start()) == c;
    }

    private static boolean isKeyword(Kind k) {
        return k.ordinal() >= Kind.AS.ordinal();
    }

    /** Blank or comment-only input: empty for blank, otherwise the first token's text. */
    private void fallbackFirstToken(SqlLexer lx, StringBuilder out, int firstStart) {
        lx.reset(lx.input());
        Kind k = lx.next();
        if (k == Kind.EOF) {
            return;
        }
        if (k == Kind.COMMENT || k == Kind.LPAREN) {
            // comment-only or only parentheses: name it by its trimmed text so it is never empty
            appendTrimmed(out, lx.input());
            return;
        }
        appendUpper(out, lx.input(), firstStart, lx.end());
    }

    private void appendTrimmed(StringBuilder out, CharSequence s) {
        int from = 0;
        int to = s.length();
        while (from < to && SqlLexer.isSpace(s.charAt(from))) {
            from++;
        }
        while (to > from && SqlLexer.isSpace(s.charAt(to - 1))) {
            to--;
        }
        for (int i = from; i < to && out.length() < limit; i++) {
            out.append(s.charAt(i));
        }
    }

    private void appendToken(SqlLexer lx, StringBuilder out) {
        CharSequence in = lx.input();
        for (int i = lx.start(), e = lx.end(); i < e && out.length() < limit; i++) {
            out.append(in.charAt(i));
        }
    }

    private void appendUpper(StringBuilder out, CharSequence in, int from, int to) {
        for (int i = from; i < to && out.length() < limit; i++) {
            out.append(Character.toUpperCase(in.charAt(i)));
        }
    }

    private void append(StringBuilder out, String s) {
        for (int i = 0, n = s.length(); i < n && out.length() < limit; i++) {
            out.append(s.charAt(i));
        }
    }
}
