/**
 * The JDBC plugin: {@link dev.apmagent.plugin.jdbc.JdbcPlugin} and its instrumentations (statements, prepare and close
 * on connections, {@code Driver.connect}, {@code DataSource.getConnection}), whose trampoline advice calls one helper
 * per job: {@link dev.apmagent.plugin.jdbc.StatementSpans} and {@link dev.apmagent.plugin.jdbc.ConnectionSpans} (the
 * spans), {@link dev.apmagent.plugin.jdbc.StatementSql} (the SQL of prepared statements and batches) and
 * {@link dev.apmagent.plugin.jdbc.Endpoints} (each connection's {@link dev.apmagent.plugin.jdbc.DbEndpoint}). All of
 * them enter and exit a JDBC call through {@link dev.apmagent.plugin.jdbc.JdbcCalls}, the one place with the nesting
 * rules, which hands the advice a typed {@link dev.apmagent.plugin.jdbc.JdbcCall}; span names come from
 * {@link dev.apmagent.plugin.jdbc.SqlNames} ({@link dev.apmagent.plugin.jdbc.SqlNameCache} over
 * {@link dev.apmagent.plugin.jdbc.SqlSignature}). The pure, table-tested pieces ({@code SqlSignature} and its
 * {@link dev.apmagent.plugin.jdbc.SqlLexer} for span names, {@link dev.apmagent.plugin.jdbc.JdbcUrlParser} and
 * {@link dev.apmagent.plugin.jdbc.ConnectionInfo} for the database vendor, address and instance) never throw, never log,
 * use no regular expressions and allocate only their results; they know nothing of the tracer. Helpers never throw into
 * the application; they count what they catch in {@code PluginHealth.of("jdbc")}. Nothing here logs on an application
 * thread.
 */
package dev.apmagent.plugin.jdbc;
