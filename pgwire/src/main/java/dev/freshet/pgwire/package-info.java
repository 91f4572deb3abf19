/**
 * Freshet's PostgreSQL endpoint: PostgreSQL's frontend/backend protocol 3.0 over the engine's
 * sessions, and the catalog ({@code pg_catalog}, {@code information_schema}) that PostgreSQL's
 * clients and BI tools read, so that psql, pgjdbc, psycopg, SQLAlchemy, node-postgres and the
 * tools built on them connect unchanged and receive live results.
 *
 * <p>The engine knows no wire: this module depends on it, and the server starts it
 * ({@code freshet serve --pg-port N}).
 */
package dev.freshet.pgwire;
