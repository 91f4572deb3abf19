package dev.freshet.pgwire.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.freshet.testkit.ExternalTest;
import dev.freshet.testkit.clients.ClientResult;
import dev.freshet.testkit.clients.ExternalClient;
import dev.freshet.testkit.clients.PostgresClients;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Debian's Python clients against Freshet's endpoint: SQLAlchemy 1.4's {@code Inspector} over
 * psycopg2, as Superset reads a database ({@code src/test/clients/sqlalchemy_inspect.py}), and
 * psycopg 3 alone ({@code psycopg_queries.py}). SQLAlchemy lists the stream and the table as
 * tables and the materialized view as a view ({@code get_view_names}, which reads relkinds
 * {@code v} and {@code m}), each once, with their columns, types and primary keys (the view's
 * is its GROUP BY key). Every statement each client sent succeeded; they are written to
 * {@code target/corpus-freshet/sqlalchemy-psycopg2.jsonl} and {@code psycopg.jsonl}.
 */
@ExternalTest
class PythonConformanceTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What {@code script} printed, as JSON; fails unless it exited 0. */
  private static JsonNode run(FreshetEndpoint freshet, String script, String... args)
      throws Exception {
    String[] command = new String[args.length + 1];
    command[0] = "src/test/clients/" + script;
    System.arraycopy(args, 0, command, 1, args.length);
    ClientResult r = freshet.endpoint().applyTo(
            ExternalClient.of(PostgresClients.python().toString(), command))
        .timeout(Duration.ofSeconds(180)).run();
    assertEquals(0, r.exitCode(), r.toString());
    return JSON.readTree(r.stdout());
  }

  @Test void shouldInspectTablesViewsColumnsAndKeysWithSqlAlchemy() throws Exception {
    try (FreshetEndpoint freshet = FreshetEndpoint.start("sqlalchemy-psycopg2")) {
      JsonNode found = run(freshet, "sqlalchemy_inspect.py", "clicks", "users",
          "clicks_by_user");
      assertEquals("1.4.46", found.get("sqlalchemy").asText().substring(0, 6));
      assertEquals("[\"information_schema\",\"public\"]", found.get("schemas").toString());
      assertEquals("[\"clicks\",\"users\"]", found.get("tables").toString());
      assertEquals("[\"clicks_by_user\"]", found.get("views").toString());
      assertEquals("[{\"name\":\"user_id\",\"type\":\"VARCHAR(64)\",\"nullable\":true},"
          + "{\"name\":\"amount\",\"type\":\"DOUBLE_PRECISION\",\"nullable\":true},"
          + "{\"name\":\"ts\",\"type\":\"TIMESTAMP\",\"nullable\":true}]",
          found.get("columns clicks").toString());
      assertEquals("[{\"name\":\"id\",\"type\":\"INTEGER\",\"nullable\":false},"
          + "{\"name\":\"name\",\"type\":\"VARCHAR\",\"nullable\":false},"
          + "{\"name\":\"signed_up\",\"type\":\"DATE\",\"nullable\":true},"
          + "{\"name\":\"score\",\"type\":\"NUMERIC(10, 2)\",\"nullable\":true},"
          + "{\"name\":\"active\",\"type\":\"BOOLEAN\",\"nullable\":true}]",
          found.get("columns users").toString());
      assertEquals("[{\"name\":\"user_id\",\"type\":\"VARCHAR(64)\",\"nullable\":true},"
          + "{\"name\":\"n\",\"type\":\"BIGINT\",\"nullable\":false},"
          + "{\"name\":\"total\",\"type\":\"DOUBLE_PRECISION\",\"nullable\":true}]",
          found.get("columns clicks_by_user").toString());
      assertEquals("{\"constrained_columns\":[],\"name\":null}",
          found.get("pk clicks").toString());
      assertEquals("{\"constrained_columns\":[\"id\"],\"name\":\"users_pkey\"}",
          found.get("pk users").toString());
      assertEquals("{\"constrained_columns\":[\"user_id\"],\"name\":\"clicks_by_user_pkey\"}",
          found.get("pk clicks_by_user").toString());
      assertEquals("[[\"alice\",1.0,\"2026-01-02 10:00:00\"],[\"alice\",2.5,"
          + "\"2026-01-02 10:00:01\"],[\"bob\",12.25,\"2026-01-02 10:00:02\"]]",
          found.get("preview").toString());
      assertEquals("[[1,\"alice\"],[2,\"bob\"],[3,\"carol\"]]", found.get("rows").toString());
      freshet.assertEachStatementSucceeded();
    }
  }

  @Test void shouldQueryWithPsycopg3() throws Exception {
    try (FreshetEndpoint freshet = FreshetEndpoint.start("psycopg")) {
      JsonNode found = run(freshet, "psycopg_queries.py");
      assertEquals("[[1]]", found.get("one").toString());
      assertEquals("[[1,\"alice\"]]", found.get("user 1").toString());
      assertEquals("[[[2,\"bob\"]],[[3,\"carol\"]]]", found.get("users 2, 3").toString());
      assertEquals("[[\"alice\",2.5]]", found.get("clicks").toString());
      assertEquals(3, found.get("count").asInt());
      freshet.assertEachStatementSucceeded();
    }
  }
}
