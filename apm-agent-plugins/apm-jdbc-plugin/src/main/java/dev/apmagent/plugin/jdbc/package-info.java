/**
 * The JDBC plugin: {@link dev.apmagent.plugin.jdbc.JdbcPlugin} and its instrumentations (statements, prepare and
 * close on connections, {@code Driver.connect}, {@code DataSource.getConnection}), whose trampoline advice calls
 * {@link dev.apmagent.plugin.jdbc.JdbcHelper}, the only place with tracing logic; the bounded lock-free state it keeps
 * ({@link dev.apmagent.plugin.jdbc.ContextStore}, {@link dev.apmagent.plugin.jdbc.SqlNameCache},
 * {@link dev.apmagent.plugin.jdbc.DbEndpoint}); and the pure, table-tested pieces it uses
 * ({@link dev.apmagent.plugin.jdbc.SqlSignature} and its {@link dev.apmagent.plugin.jdbc.SqlLexer} for span names,
 * {@link dev.apmagent.plugin.jdbc.JdbcUrlParser} and {@link dev.apmagent.plugin.jdbc.ConnectionInfo} for the database
 * vendor, address and instance). The pure pieces never throw, never log, use no regular expressions and allocate only
 * their results; they know nothing of the tracer. Nothing here logs on an application thread.
 */
package dev.apmagent.plugin.jdbc;
