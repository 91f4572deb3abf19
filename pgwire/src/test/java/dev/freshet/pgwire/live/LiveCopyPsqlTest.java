package dev.freshet.pgwire.live;

import static dev.freshet.pgwire.live.LiveTesting.DEADLINE;
import static dev.freshet.pgwire.live.LiveTesting.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.testkit.clients.PostgresClients;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * psql 15 prints a live result: {@code psql -c "COPY (SELECT STREAM ...) TO STDOUT"} prints
 * each changed row as its batch commits, in PostgreSQL's text or CSV format; Ctrl-C (SIGINT,
 * which makes psql send a CancelRequest) ends it with PostgreSQL's cancel error; a cursor's
 * FETCH in a Query of several statements. psql runs under
 * {@code stdbuf -oL}: psql writes COPY's rows with stdio, which a pipe would hold back.
 */
class LiveCopyPsqlTest {
  private LiveServer live;
  private Statement s;

  @BeforeEach void start() throws Exception {
    live = LiveServer.start("pgwire-live-copy-psql-test",
        "CREATE STREAM clicks (k VARCHAR, n INTEGER)");
    s = live.statement;
  }

  @AfterEach void stop() throws Exception {
    live.close();
  }

  /** A psql that runs {@code sql} and whose output lines are read as they come. */
  private final class Psql implements AutoCloseable {
    final Process process;
    final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    Psql(String sql) throws Exception {
      this(sql, "-X");
    }

    Psql(String sql, String flags) throws Exception {
      process = new ProcessBuilder("stdbuf", "-oL", PostgresClients.psql().toString(), flags,
          "-h", "127.0.0.1", "-p", Integer.toString(live.port()), "-U", "freshet",
          "-d", "freshet", "-v", "ON_ERROR_STOP=1", "-c", sql)
          .redirectErrorStream(true).start();
      Thread reader = new Thread(() -> {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(
            process.getInputStream(), StandardCharsets.UTF_8))) {
          String line;
          while ((line = r.readLine()) != null) {
            lines.add(line);
          }
        } catch (java.io.IOException e) {
          lines.add("<read failed: " + e + ">");
        }
      }, "psql-output");
      reader.setDaemon(true);
      reader.start();
    }

    String line() throws InterruptedException {
      String line = lines.poll(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
      assertNotNull(line, "psql printed no line within " + DEADLINE);
      return line;
    }

    /** Ctrl-C: psql sends a CancelRequest. */
    void interrupt() throws Exception {
      Process kill = new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start();
      assertEquals(0, kill.waitFor());
    }

    int exit() throws InterruptedException {
      assertTrue(process.waitFor(DEADLINE.toMillis(), TimeUnit.MILLISECONDS), "psql ran on");
      return process.exitValue();
    }

    @Override public void close() {
      process.destroyForcibly();
    }
  }

  @Test void shouldPrintEachChangeLiveInTextFormatUntilCancelled() throws Exception {
    try (Psql psql = new Psql("COPY (SELECT STREAM k, n FROM clicks) TO STDOUT")) {
      await("the push query runs", () -> live.pushQueries() == 1);
      s.executeUpdate("INSERT INTO clicks VALUES ('a', 1)");
      String first = psql.line();
      assertTrue(first.startsWith("a\t1\tINSERT\t"), first);
      s.executeUpdate("INSERT INTO clicks VALUES ('tab\there', NULL)");
      String second = psql.line();
      assertTrue(second.startsWith("tab\\there\t\\N\tINSERT\t"), second);
      long v1 = Long.parseLong(first.substring(first.lastIndexOf('\t') + 1));
      long v2 = Long.parseLong(second.substring(second.lastIndexOf('\t') + 1));
      assertTrue(v2 > v1, first + " then " + second);

      psql.interrupt();
      assertEquals("Cancel request sent", psql.line());
      assertEquals("ERROR:  canceling statement due to user request", psql.line());
      assertEquals(1, psql.exit());
      await("the push query stops", () -> live.pushQueries() == 0);
    }
  }

  @Test void shouldEscapeCsvAsPostgresDoes() throws Exception {
    try (Psql psql = new Psql(
        "COPY (SELECT STREAM k, n FROM clicks) TO STDOUT WITH (FORMAT csv, HEADER)")) {
      assertEquals("k,n,freshet_row_kind,freshet_version", psql.line());
      await("the push query runs", () -> live.pushQueries() == 1);
      s.executeUpdate("INSERT INTO clicks VALUES ('a,\"b\"', 1), ('', 2), (NULL, 3)");
      List<String> rows = List.of(psql.line(), psql.line(), psql.line());
      String version = rows.get(0).substring(rows.get(0).lastIndexOf(',') + 1);
      assertEquals(List.of("\"a,\"\"b\"\"\",1,INSERT," + version, "\"\",2,INSERT," + version,
          ",3,INSERT," + version), rows);
      psql.interrupt();
      assertEquals(1, psql.exit());
    }
  }

  /** A FETCH in the middle of a Query: the statements after it run once it returned. */
  @Test void shouldFetchFromACursorAndRunTheRestOfTheQuery() throws Exception {
    s.execute("CREATE MATERIALIZED VIEW per_k AS SELECT k, COUNT(*) AS c FROM clicks GROUP BY k");
    s.executeUpdate("INSERT INTO clicks VALUES ('a', 1)");
    await("the view has the row", () -> {
      try (java.sql.ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM per_k")) {
        return rs.next() && rs.getLong(1) == 1;
      } catch (java.sql.SQLException e) {
        throw new IllegalStateException(e);
      }
    });
    try (Psql psql = new Psql("BEGIN; DECLARE c CURSOR FOR SELECT STREAM * FROM per_k;"
        + " FETCH ALL c WITH (timeout = '1 s'); FETCH ALL c WITH (timeout = '100 ms'); COMMIT;"
        + " SELECT 2 AS two", "-XAt")) {
      assertEquals("BEGIN", psql.line());
      assertEquals("DECLARE CURSOR", psql.line());
      assertTrue(psql.line().startsWith("a|1|INSERT|"));
      assertEquals("COMMIT", psql.line());
      assertEquals("2", psql.line());
      assertEquals(0, psql.exit());
    }
  }

  @Test void shouldCopyABoundedQueryAndComplete() throws Exception {
    s.executeUpdate("INSERT INTO clicks VALUES ('a', 1), ('b', 2)");
    try (Psql psql = new Psql("COPY (SELECT k, n FROM clicks ORDER BY n) TO STDOUT")) {
      assertEquals("a\t1", psql.line());
      assertEquals("b\t2", psql.line());
      assertEquals(0, psql.exit());
    }
  }
}
