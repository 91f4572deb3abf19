/**
 * PostgreSQL's catalog ({@code pg_catalog}, {@code information_schema}) for the PostgreSQL
 * endpoint: {@link dev.freshet.pgwire.catalog.PgCatalog}, answered by an in-memory H2 database
 * filled from Freshet's catalog as each connection's user sees it.
 */
package dev.freshet.pgwire.catalog;
