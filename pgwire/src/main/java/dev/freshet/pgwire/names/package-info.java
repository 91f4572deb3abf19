/**
 * PostgreSQL's names and syntax for Freshet's statements on the PostgreSQL endpoint:
 * {@link dev.freshet.pgwire.names.PgNames} rewrites what a PostgreSQL client writes
 * ({@code "public"."v"}, {@code n::int4}) into what Freshet's parser reads.
 */
package dev.freshet.pgwire.names;
