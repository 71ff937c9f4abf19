package dev.apmagent.plugin.jdbc;

import dev.apmagent.trace.Span;

/**
 * Span names from SQL: the {@link SqlSignature} of the statement ({@code SELECT FROM orders}), looked up first in the
 * {@link SqlNameCache} by the identity of the SQL string. On a miss the thread's {@code SqlSignature} writes the name
 * straight into the span's reusable name builder, so naming allocates nothing.
 */
final class SqlNames {

    static final String EMPTY_QUERY = "(empty query)";
    static final String UNKNOWN_QUERY = "(unknown query)";

    static final SqlNameCache cache = new SqlNameCache();

    private SqlNames() {
    }

    /**
     * Names {@code span} after {@code sql} and sets its {@code db.statement}; for null SQL names it
     * {@value #UNKNOWN_QUERY} and returns false.
     */
    static boolean apply(Span span, String sql) {
        if (sql == null) {
            span.setName(UNKNOWN_QUERY);
            return false;
        }
        String cached = cache.get(sql);
        if (cached != null) {
            span.setName(cached);
        } else {
            StringBuilder name = span.nameBuilder();
            SqlSignature.appendOnThisThread(sql, name);
            if (name.length() == 0) {
                name.append(EMPTY_QUERY);
            }
            cache.offer(sql, name);
        }
        span.context().db().setStatement(sql);
        return true;
    }
}
