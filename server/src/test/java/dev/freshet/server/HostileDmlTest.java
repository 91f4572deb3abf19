package dev.freshet.server;

import static dev.freshet.server.RemoteTesting.readAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.server.FreshetServer.Authentication;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hostile INSERT, UPDATE or DELETE of a table, sent through the remote driver to a server
 * with {@code --auth BASIC}, by its administrator: H2's functions that read and write the
 * server's files are unknown functions ({@code 42883}), H2's own tables unknown tables
 * ({@code 42S02}), and the table's rows show nothing of the server's files or catalog.
 */
class HostileDmlTest {
  private static final String SECRET = "the server's secret, never to be read by SQL";

  @TempDir Path dir;

  private static SQLException fails(String state, Statement s, String sql) {
    SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate(sql), sql);
    assertEquals(state, e.getSQLState(), e.getMessage());
    return e;
  }

  @Test void shouldRefuseTheAdministratorH2sFileFunctionsAndOwnTables() throws Exception {
    Path users = Files.writeString(dir.resolve("users.properties"),
        "admin: pw,admin\nalice: pw\n");
    Path secret = Files.writeString(dir.resolve("secret.txt"), SECRET);
    Path written = dir.resolve("written.txt");
    try (FreshetServer server = FreshetServer.builder().port(0).dataDir(dir.resolve("data"))
        .authentication(Authentication.BASIC, users).start();
         Connection c = DriverManager.getConnection("jdbc:freshet:remote:url=" + server.url(),
             "admin", "pw");
         Statement s = c.createStatement()) {
      s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR)");
      assertEquals(2, s.executeUpdate("INSERT INTO t VALUES (1, 'a'), (2, 'b')"));

      SQLException read = fails("42883", s, "UPDATE t SET v = FILE_READ('" + secret
          + "', NULL)");
      assertTrue(read.getMessage().contains("FILE_READ is not one of Freshet's functions, which"
          + " docs/sql.md lists"), read.getMessage());
      fails("42883", s, "INSERT INTO t SELECT 3, CAST(FILE_READ('" + secret + "') AS VARCHAR)");
      fails("42883", s, "UPDATE t SET v = CAST(FILE_WRITE('x', '" + written + "') AS VARCHAR)");
      fails("42S02", s, "UPDATE t SET v = (SELECT MAX(\"SQL\") FROM PUBLIC.FRESHET_CATALOG)");
      fails("42S02", s, "UPDATE t SET v = (SELECT MAX(TABLE_NAME) FROM"
          + " INFORMATION_SCHEMA.TABLES)");

      List<List<Object>> rows = readAll(s.executeQuery("SELECT id, v FROM t ORDER BY id"));
      assertEquals(List.of(List.of(1, "a"), List.of(2, "b")), rows);
      assertFalse(rows.toString().contains(SECRET), rows.toString());
      assertFalse(Files.exists(written), written + " was written");
      // What is valid still runs.
      assertEquals(1, s.executeUpdate("UPDATE t SET v = UPPER(v) || '!' WHERE id IN"
          + " (SELECT MAX(id) FROM t)"));
      assertEquals(List.of(List.of(1, "a"), List.of(2, "B!")),
          readAll(s.executeQuery("SELECT id, v FROM t ORDER BY id")));
    }
  }
}
