package dev.freshet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.query.StatementResult;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * INSERT, UPDATE and DELETE of the engine's own tables run only what Freshet validated: H2's
 * functions ({@code FILE_READ}, {@code FILE_WRITE}) are unknown functions ({@code 42883}), H2's
 * own tables ({@code FRESHET_CATALOG}, {@code INFORMATION_SCHEMA}) are unknown tables
 * ({@code 42S02}), streams, views and external tables are not read ({@code 0A000}), and a hint
 * cannot smuggle SQL past validation; each leaves the table's rows as they were. Everything a
 * table's DML did before still works, with the same rows and SQLSTATEs.
 */
class LocalTableDmlTest {
  @TempDir Path dataDir;
  @TempDir Path files;
  private Engine engine;
  private Session session;

  @BeforeEach void open() throws SQLException {
    // A data directory, so that H2's database has its catalog table FRESHET_CATALOG.
    engine = new Engine("dml", Optional.of(dataDir));
    session = engine.openSession();
    session.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR)");
    session.execute("INSERT INTO t VALUES (1, 'a'), (2, 'b')");
  }

  @AfterEach void close() {
    engine.close();
  }

  private List<List<Object>> rows(String sql) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    for (Object[] row : ((StatementResult.Rows) session.execute(sql)).rows()) {
      rows.add(Arrays.asList(row));
    }
    return rows;
  }

  private void assertUnchanged() throws SQLException {
    assertEquals(List.of(List.of(1, "a"), List.of(2, "b")),
        rows("SELECT id, v FROM t ORDER BY id"));
  }

  private SQLException fails(String state, String sql) {
    SQLException e = assertThrows(SQLException.class, () -> session.execute(sql), sql);
    assertEquals(state, e.getSQLState(), e.getMessage());
    return e;
  }

  private int update(String sql) throws SQLException {
    return (int) ((StatementResult.UpdateCount) session.execute(sql)).count();
  }

  @Test void shouldRefuseFileReadAsAnUndefinedFunction() throws Exception {
    Path secret = Files.writeString(files.resolve("secret.txt"), "the server's secret");
    SQLException e = fails("42883", "UPDATE t SET v = FILE_READ('" + secret + "', NULL)");
    assertEquals("Cannot UPDATE table T: From line 1, column 18 to line 1, column "
        + (36 + secret.toString().length()) + ": No match found for function signature"
        + " FILE_READ(<CHARACTER>, <NULL>). FILE_READ is not one of Freshet's functions, which"
        + " docs/sql.md lists (Functions): use one of them, or compute the value in the client",
        e.getMessage());
    assertUnchanged();
    fails("42883", "INSERT INTO t VALUES (3, CAST(FILE_READ('" + secret + "') AS VARCHAR))");
    assertUnchanged();
  }

  @Test void shouldRefuseFileWriteAndWriteNoFile() throws Exception {
    Path written = files.resolve("written.txt");
    fails("42883", "UPDATE t SET v = CAST(FILE_WRITE('x', '" + written + "') AS VARCHAR)");
    fails("42883", "DELETE FROM t WHERE FILE_WRITE('x', '" + written + "') > 0");
    assertFalse(Files.exists(written), written + " was written");
    assertUnchanged();
  }

  @Test void shouldRefuseH2sOwnTablesAsUnknown() throws Exception {
    SQLException catalog = fails("42S02",
        "UPDATE t SET v = (SELECT MAX(\"SQL\") FROM PUBLIC.FRESHET_CATALOG)");
    assertTrue(catalog.getMessage().startsWith("Cannot UPDATE table T: From line 1, column 42"
        + " to line 1, column 63: Object 'PUBLIC' not found. An INSERT, UPDATE or DELETE of a"
        + " table reads only the engine's own tables (CREATE TABLE without a connector), by"
        + " their names: no stream, view, system table (SYS, INFORMATION_SCHEMA) or other"
        + " schema"), catalog.getMessage());
    fails("42S02", "UPDATE t SET v = (SELECT MAX(\"SQL\") FROM FRESHET_CATALOG)");
    fails("42S02", "UPDATE t SET v = (SELECT MAX(TABLE_NAME) FROM INFORMATION_SCHEMA.TABLES)");
    fails("42S02", "UPDATE t SET v = (SELECT MAX(TABLE_NAME) FROM FRESHET.INFORMATION_SCHEMA"
        + ".TABLES)");
    fails("42S02", "DELETE FROM t WHERE id IN (SELECT COUNT(*) FROM INFORMATION_SCHEMA.USERS)");
    fails("42S02", "INSERT INTO t SELECT 3, MAX(query_id) FROM sys.queries");
    fails("42S02", "UPDATE FRESHET_TABLES.t SET v = 'x'");
    assertUnchanged();
  }

  @Test void shouldRefuseReadingStreamsViewsAndExternalTables() throws Exception {
    session.execute("CREATE STREAM clicks (id INTEGER, page VARCHAR)");
    session.execute("INSERT INTO clicks VALUES (3, 'home')");
    session.execute("CREATE MATERIALIZED VIEW pages AS SELECT page, COUNT(*) AS n FROM clicks"
        + " GROUP BY page");
    String url = "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    try (Connection external = DriverManager.getConnection(url);
         Statement s = external.createStatement()) {
      s.execute("CREATE TABLE regions (code INTEGER PRIMARY KEY, name VARCHAR(40))");
      s.execute("INSERT INTO regions VALUES (3, 'Europe')");
      session.execute("CREATE TABLE regions (code INTEGER, name VARCHAR(40)) WITH (connector ="
          + " 'jdbc', 'url' = '" + url + "', 'table-name' = 'regions')");

      SQLException stream = fails("0A000", "INSERT INTO t SELECT id, page FROM clicks");
      assertEquals("Cannot INSERT INTO table T: it reads stream CLICKS, and an INSERT, UPDATE"
          + " or DELETE of a table reads only the engine's own tables (CREATE TABLE without a"
          + " connector). Query the stream on its own, and write the values it returns into the"
          + " statement", stream.getMessage());
      SQLException view = fails("0A000",
          "UPDATE t SET v = (SELECT MAX(page) FROM pages WHERE n > 0)");
      assertTrue(view.getMessage().startsWith("Cannot UPDATE table T: it reads materialized"
          + " view PAGES, "), view.getMessage());
      SQLException jdbc = fails("0A000",
          "DELETE FROM t WHERE id IN (SELECT code FROM regions)");
      assertTrue(jdbc.getMessage().startsWith("Cannot DELETE FROM table T: it reads table"
          + " REGIONS, which is read from another database (connector 'jdbc'), "),
          jdbc.getMessage());
      fails("0A000", "INSERT INTO t SELECT c.id, r.name FROM t c JOIN regions r"
          + " ON c.id = r.code");
      session.execute("DROP TABLE regions");
    }
    assertUnchanged();
  }

  @Test void shouldRefuseHintsTableFunctionsAndH2sSessionFunctions() throws Exception {
    // Calcite writes a hint back as a comment with its text as given: "*/" in it would end the
    // comment early, and H2 would read what follows as SQL that Freshet never validated.
    SQLException e = fails("0A000", "INSERT INTO t (id, v) SELECT /*+ h('*/ 3, (SELECT"
        + " MAX(\"SQL\") FROM PUBLIC.FRESHET_CATALOG) --') */ 4, 'd'");
    assertTrue(e.getMessage().startsWith("Cannot INSERT INTO table T: a hint (/*+ ... */) is not"
        + " supported in an INSERT, UPDATE or DELETE of a table"), e.getMessage());
    fails("0A000", "INSERT INTO t (id, v) SELECT /*+ h */ 4, 'd'");
    SQLException unnest = fails("0A000",
        "DELETE FROM t WHERE id IN (SELECT x FROM UNNEST(ARRAY[1, 2]) AS u (x))");
    assertTrue(unnest.getMessage().startsWith("Cannot DELETE FROM table T: UNNEST in FROM is not"
        + " supported in an INSERT, UPDATE or DELETE of a table"), unnest.getMessage());
    SQLException user = fails("0A000", "UPDATE t SET v = CURRENT_USER");
    assertTrue(user.getMessage().startsWith("Cannot UPDATE table T: CURRENT_USER (H2 would"
        + " answer with its own account, schema or database) is not supported"),
        user.getMessage());
    fails("0A000", "INSERT INTO t VALUES (3, CURRENT_SCHEMA)");
    assertUnchanged();
  }

  @Test void shouldRunEveryDmlThatWasValidBefore() throws Exception {
    session.execute("CREATE TABLE prices (id INTEGER PRIMARY KEY, name VARCHAR(20),"
        + " price DECIMAL(10, 2), since DATE, seen TIMESTAMP)");
    assertEquals(3, update("INSERT INTO prices VALUES (1, 'apple', 1.50, DATE '2024-01-01',"
        + " TIMESTAMP '2024-01-01 10:00:00'), (2, 'it''s \"pear\"', 2, NULL, NULL),"
        + " (3, 'Übersee-Äpfel', 3.25, DATE '2024-02-28', NULL)"));
    // A string where a date goes is cast, as in a query.
    assertEquals(1, update("UPDATE prices SET since = '2024-02-29' WHERE id = 3"));
    assertEquals(3, update("UPDATE prices SET price = price * 2 + 1, name = CASE WHEN id > 1"
        + " THEN UPPER(name) || '!' ELSE SUBSTRING(name FROM 1 FOR 3) END"));
    assertEquals(2, update("UPDATE prices SET since = COALESCE(since, DATE '2023-12-31'),"
        + " seen = seen + INTERVAL '1' HOUR WHERE CHAR_LENGTH(TRIM(name)) > 3"
        + " AND POSITION('E' IN name) > 0"));
    assertEquals(1, update("UPDATE prices SET seen = seen + INTERVAL '1' HOUR WHERE id = 1"));
    assertEquals(List.of(
            List.of(1, "app", new BigDecimal("4.00"), day("2024-01-01"), "2024-01-01 11:00"),
            List.of(2, "IT'S \"PEAR\"!", new BigDecimal("5.00"), day("2023-12-31"), "-"),
            List.of(3, "ÜBERSEE-ÄPFEL!", new BigDecimal("7.50"), day("2024-02-29"), "-")),
        rows("SELECT id, name, price, since, COALESCE(CAST(seen AS VARCHAR(16)), '-')"
            + " FROM prices ORDER BY id"));

    // Subqueries over another of the engine's tables, EXISTS among them.
    assertEquals(1, update("DELETE FROM t WHERE id IN (SELECT id - 1 FROM prices WHERE"
        + " price > 6)"));
    assertEquals(1, update("DELETE FROM prices WHERE EXISTS (SELECT * FROM t WHERE"
        + " t.id = prices.id)"));
    assertEquals(2, update("INSERT INTO t (id, v) SELECT id + 10, name FROM prices"));
    assertEquals(1, update("UPDATE t SET v = (SELECT MAX(name) FROM prices p WHERE"
        + " p.id + 10 = t.id) || '?' WHERE id = 12"));
    assertEquals(1, update("UPDATE t AS x SET v = 'one' WHERE x.id = 1 AND NOT EXISTS"
        + " (SELECT 1 FROM prices WHERE prices.id = x.id)"));
    assertEquals(0, update("DELETE FROM prices p WHERE NOT EXISTS (SELECT 1 FROM t WHERE"
        + " t.id = p.id + 10)"));
    assertEquals(1, (int) ((StatementResult.UpdateCount) session.execute(StatementParameters.of(
        session, "UPDATE t SET v = ? || v WHERE id = ?"), List.of("x'", 13))).count());
    assertEquals(List.of(List.of(1, "one"), List.of(12, "IT'S \"PEAR\"!?"),
            List.of(13, "x'ÜBERSEE-ÄPFEL!")), rows("SELECT id, v FROM t ORDER BY id"));

    // H2's errors keep their SQLSTATEs; Freshet's validation gives the same ones.
    SQLException duplicate = fails("23505", "INSERT INTO t VALUES (1, 'again')");
    assertTrue(duplicate.getMessage().startsWith("Cannot INSERT INTO table T: "),
        duplicate.getMessage());
    fails("22018", "UPDATE t SET id = CAST(v AS INTEGER) WHERE id = 1");
    fails("23502", "INSERT INTO t (v) VALUES ('no id')");
    fails("42S22", "UPDATE t SET w = 1");
    fails("42S22", "DELETE FROM t WHERE w = 1");
    // A standard function that H2 does not have fails there, as it did.
    SQLException h2 = fails("90022", "UPDATE t SET id = RAND_INTEGER(5) WHERE id = 1");
    assertTrue(h2.getMessage().startsWith("Cannot UPDATE table T: Function \"RAND_INTEGER\" not"
        + " found"), h2.getMessage());
    assertEquals(2, update("DELETE FROM t WHERE id > 10"));
    assertEquals(List.of(List.of(1, "one")), rows("SELECT id, v FROM t"));
  }

  private static int day(String date) {
    return (int) java.time.LocalDate.parse(date).toEpochDay();
  }
}
