/**
 * The JDBC plugin: its instrumentations and helper, plus the pure, table-tested pieces they use
 * ({@link dev.apmagent.plugin.jdbc.SqlSignature} and its {@link dev.apmagent.plugin.jdbc.SqlLexer} for span names,
 * {@link dev.apmagent.plugin.jdbc.JdbcUrlParser} and {@link dev.apmagent.plugin.jdbc.ConnectionInfo} for the database
 * vendor, address and instance). The pure pieces never throw, never log, use no regular expressions and allocate only
 * their results; they know nothing of the tracer.
 */
package dev.apmagent.plugin.jdbc;
