/**
 * Real PostgreSQL clients run as processes beside a test: {@link
 * dev.freshet.testkit.clients.ExternalClient} runs one with a deadline and captures what it
 * printed, {@link dev.freshet.testkit.clients.PostgresClients} finds the ones {@code ./run-tests}
 * installs (psql, Debian's Python with psycopg and SQLAlchemy, Node.js with node-postgres).
 */
package dev.freshet.testkit.clients;
