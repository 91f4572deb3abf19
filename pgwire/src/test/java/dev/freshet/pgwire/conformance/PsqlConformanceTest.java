package dev.freshet.pgwire.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.freshet.testkit.ExternalTest;
import dev.freshet.testkit.clients.ClientResult;
import dev.freshet.testkit.clients.ExternalClient;
import dev.freshet.testkit.clients.PostgresClients;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * psql 15's describe commands against Freshet's endpoint: each exits 0 without an ERROR, and
 * the stream ({@code clicks}, a table), the table ({@code users}) and the materialized view
 * ({@code clicks_by_user}) each appear once with their columns and types, as psql prints them
 * from a real PostgreSQL 15. Freshet's views are materialized views: {@code \dm} lists them and
 * {@code \dv} (PostgreSQL's plain views) finds none. Every statement psql sent succeeded; they
 * are written to {@code target/corpus-freshet/psql.jsonl}.
 */
@ExternalTest
class PsqlConformanceTest {
  private static FreshetEndpoint freshet;

  @BeforeAll static void start() throws Exception {
    PostgresClients.psql();
    freshet = FreshetEndpoint.start("psql");
  }

  @AfterAll static void stop() throws Exception {
    if (freshet != null) {
      try {
        freshet.assertEachStatementSucceeded();
      } finally {
        freshet.close();
      }
    }
  }

  /** What psql printed for {@code command}; fails unless it exited 0 without an ERROR. */
  private static String psql(String command) {
    freshet.action(command);
    ClientResult r = freshet.endpoint().applyTo(ExternalClient.of(
            PostgresClients.psql().toString(), "-X", "-P", "pager=off", "-c", command))
        .env("PGAPPNAME", "psql").timeout(Duration.ofSeconds(120)).run();
    assertEquals(0, r.exitCode(), command + ": " + r);
    assertFalse(r.stderr().contains("ERROR"), command + ": " + r.stderr());
    return r.stdout();
  }

  @Test void shouldListRelations() {
    assertEquals("""
                           List of relations
         Schema |      Name      |       Type        |  Owner \s
        --------+----------------+-------------------+---------
         public | clicks         | table             | freshet
         public | clicks_by_user | materialized view | freshet
         public | users          | table             | freshet
        (3 rows)

        """, psql("\\d"));
  }

  @Test void shouldListTablesViewsAndMaterializedViews() {
    assertEquals("""
                 List of relations
         Schema |  Name  | Type  |  Owner \s
        --------+--------+-------+---------
         public | clicks | table | freshet
         public | users  | table | freshet
        (2 rows)

        """, psql("\\dt"));
    assertEquals("""
                           List of relations
         Schema |      Name      |       Type        |  Owner \s
        --------+----------------+-------------------+---------
         public | clicks_by_user | materialized view | freshet
        (1 row)

        """, psql("\\dm"));
    // Freshet has no plain views: \\dv finds none, as PostgreSQL's psql says.
    assertEquals("", psql("\\dv"));
  }

  @Test void shouldDescribeTheStream() {
    assertEquals("""
                                   Table "public.clicks"
         Column  |              Type              | Collation | Nullable | Default\s
        ---------+--------------------------------+-----------+----------+---------
         user_id | character varying(64)          |           |          |\s
         amount  | double precision               |           |          |\s
         ts      | timestamp(3) without time zone |           |          |\s

        """, psql("\\d clicks"));
  }

  @Test void shouldDescribeTheTable() {
    assertEquals("""
                              Table "public.users"
          Column   |       Type        | Collation | Nullable | Default\s
        -----------+-------------------+-----------+----------+---------
         id        | integer           |           | not null |\s
         name      | character varying |           | not null |\s
         signed_up | date              |           |          |\s
         score     | numeric(10,2)     |           |          |\s
         active    | boolean           |           |          |\s
        Indexes:
            "users_pkey" PRIMARY KEY, btree (id)

        """, psql("\\d users"));
  }

  @Test void shouldDescribeTheViewWithItsGroupByKey() {
    assertEquals("""
                    Materialized view "public.clicks_by_user"
         Column  |         Type          | Collation | Nullable | Default\s
        ---------+-----------------------+-----------+----------+---------
         user_id | character varying(64) |           |          |\s
         n       | bigint                |           | not null |\s
         total   | double precision      |           |          |\s
        Indexes:
            "clicks_by_user_pkey" PRIMARY KEY, btree (user_id)

        """, psql("\\d clicks_by_user"));
    // psql folds an unquoted name to lower case; a quoted one is taken as written.
    assertEquals(psql("\\d clicks_by_user"), psql("\\d CLICKS_BY_USER"));
  }

  @Test void shouldListSchemasAndTheOneDatabase() {
    assertEquals("""
         List of schemas
          Name  |  Owner \s
        --------+---------
         public | freshet
        (1 row)

        """, psql("\\dn"));
    String databases = psql("\\l");
    assertEquals(1, databases.lines().filter(l -> l.startsWith(" freshet ")).count(),
        databases);
    assertEquals("(1 row)", databases.strip().lines().reduce((a, b) -> b).orElse(""),
        databases);
  }

  @Test void shouldQueryTheViewByPostgresqlNames() {
    assertEquals("alice|2|3.5\nbob|1|12.25\n", freshetRows(
        "SELECT \"user_id\", n, total FROM \"public\".\"clicks_by_user\" ORDER BY 1"));
    assertEquals("alice|2\nbob|1\n", freshetRows(
        "SELECT user_id, n::int4 FROM freshet.public.clicks_by_user ORDER BY user_id"));
  }

  @Test void shouldLabelColumnsAsPostgresqlDoes() {
    freshet.action("query");
    ClientResult r = freshet.endpoint().applyTo(ExternalClient.of(
            PostgresClients.psql().toString(), "-X", "-A", "-c",
            "SELECT user_id, n::int4, 'x'::text, COUNT(*) AS \"Count\" FROM clicks_by_user"
                + " WHERE user_id = 'bob' GROUP BY user_id, n"))
        .timeout(Duration.ofSeconds(120)).run();
    assertEquals(0, r.exitCode(), r.toString());
    assertEquals("user_id|n|text|Count\nbob|1|x|1\n(1 row)\n", r.stdout());
    // A call is labelled after its function, and GROUP BY 1 is the first column.
    ClientResult grouped = freshet.endpoint().applyTo(ExternalClient.of(
            PostgresClients.psql().toString(), "-X", "-A", "-c",
            "SELECT user_id, count(*), sum(amount) FROM clicks GROUP BY 1 ORDER BY 1"))
        .timeout(Duration.ofSeconds(120)).run();
    assertEquals(0, grouped.exitCode(), grouped.toString());
    assertEquals("user_id|count|sum\nalice|2|3.5\nbob|1|12.25\n(2 rows)\n", grouped.stdout());
  }

  private static String freshetRows(String sql) {
    freshet.action("query");
    ClientResult r = freshet.endpoint().applyTo(ExternalClient.of(
            PostgresClients.psql().toString(), "-X", "-A", "-t", "-c", sql))
        .timeout(Duration.ofSeconds(120)).run();
    assertEquals(0, r.exitCode(), sql + ": " + r);
    return r.stdout();
  }
}
