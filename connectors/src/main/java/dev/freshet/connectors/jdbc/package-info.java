/**
 * The JDBC connector: tables of another database that streams are joined with, and sinks that
 * write a result into a table exactly once. Its options are Flink SQL's; what a user sees is in
 * docs/sql.md ("Tables and stream-table joins", "Sinks"), what a server allows in
 * docs/security.md ("Connectors").
 *
 * <ul>
 *   <li><b>Table</b> ({@code CREATE TABLE t (...) WITH (connector = 'jdbc', 'url' = ...,
 *       'table-name' = ..., 'username' = ..., 'password' = ...)}):
 *       {@link dev.freshet.connectors.jdbc.JdbcReferenceData} reads the declared columns
 *       ({@link dev.freshet.connectors.jdbc.JdbcColumn}) through a read-only HikariCP pool of two
 *       connections, again for every batch that joins it; it checks at {@code CREATE TABLE} that
 *       the database answers a query of them (08001, 42S02).
 *   <li><b>Sink</b> ({@code CREATE SINK s ... WITH (connector = 'jdbc', 'url' = ...,
 *       'table-name' = ..., 'username' = ..., 'password' = ...)},
 *       {@link dev.freshet.connectors.jdbc.JdbcSinkSpec}):
 *       {@link dev.freshet.connectors.jdbc.JdbcSinkWriter} writes each batch and its id (in
 *       {@code freshet_sink_batches}) in one transaction of H2 or PostgreSQL, upserting an
 *       UPDATE result by its group key; it creates the table with each column's
 *       {@link dev.freshet.common.types.SqlType#ddlName}.
 *   <li>Both connect through {@link dev.freshet.connectors.jdbc.UrlDataSource}, so that neither
 *       HikariCP's logs nor a message shows a password.
 * </ul>
 *
 * <p>The engine checks a URL against the server's connector policy before anything here
 * connects, and maps a table's Calcite types to {@code JdbcColumn}s; this package knows no
 * Calcite.
 */
package dev.freshet.connectors.jdbc;
