package dev.freshet.engine.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.table.TableColumn;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystem;
import org.apache.calcite.sql.type.SqlTypeFactoryImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The H2 account that runs the DML of the engine's own tables can change those tables and do
 * nothing else, even with a statement that Freshet's validation never let through: H2 refuses
 * it files ({@code FILE_READ}, {@code FILE_WRITE}, {@code CSVREAD}, {@code CSVWRITE},
 * {@code RUNSCRIPT}, {@code SCRIPT}, {@code BACKUP}), code ({@code CREATE ALIAS},
 * {@code CREATE TRIGGER}), other databases ({@code LINK_SCHEMA}, {@code CREATE LINKED TABLE}),
 * rights of its own, and the rows of every other table of the database.
 */
class DmlAccountTest {
  /** H2's error codes: admin rights required, and not enough rights for an object. */
  private static final int ADMIN_RIGHTS_REQUIRED = 90040;
  private static final int NOT_ENOUGH_RIGHTS = 90096;

  @TempDir Path dataDir;
  @TempDir Path files;

  private static List<TableColumn> columns() {
    RelDataTypeFactory types = new SqlTypeFactoryImpl(RelDataTypeSystem.DEFAULT);
    return List.of(new TableColumn("ID", types.createSqlType(SqlTypeName.INTEGER)),
        new TableColumn("V", types.createTypeWithNullability(
            types.createSqlType(SqlTypeName.VARCHAR), true)));
  }

  private static List<List<Object>> rows(LocalTables.Table table) {
    List<List<Object>> rows = new ArrayList<>();
    table.scan(row -> rows.add(Arrays.asList(row)));
    return rows;
  }

  private static void refused(int code, ThrowingRunnable statement, String what) {
    SQLException e = assertThrows(SQLException.class, statement::run, what);
    assertEquals(code, e.getErrorCode(), what + ": " + e.getMessage());
  }

  private interface ThrowingRunnable {
    void run() throws Exception;
  }

  @Test void shouldRefuseTheAccountFilesCodeAndEveryOtherTable() throws Exception {
    Path secret = Files.writeString(files.resolve("secret.txt"), "the server's secret");
    Path script = Files.writeString(files.resolve("script.sql"),
        "CREATE TABLE FRESHET_TABLES.SCRIPTED (A INT);");
    Path written = files.resolve("written");
    try (ResultDatabase db = ResultDatabase.open(Optional.of(dataDir))) {
      CatalogStore catalog = new CatalogStore(db);
      catalog.record(CatalogStore.Kind.STREAM, "S", "CREATE STREAM s (k VARCHAR)", Map.of());
      LocalTables.Table t = new LocalTables(db).create("T", columns(), List.of("ID"));
      assertEquals(1, t.execute("INSERT INTO FRESHET_TABLES.\"T\" VALUES (1, 'a')"));
      assertEquals(1, t.execute("UPDATE \"T\" SET \"V\" = UPPER(\"V\") || 'b'"));

      // Statements whose expressions are evaluated on the table's one row.
      List<String> adminOnly = List.of(
          "UPDATE \"T\" SET \"V\" = FILE_READ('" + secret + "', NULL)",
          "INSERT INTO \"T\" SELECT 2, CAST(FILE_READ('" + secret + "', NULL) AS VARCHAR)",
          "UPDATE \"T\" SET \"V\" = CAST(FILE_WRITE('x', '" + written + "') AS VARCHAR)",
          "UPDATE \"T\" SET \"V\" = (SELECT MAX(\"the server's secret\") FROM CSVREAD('"
              + secret + "'))",
          "UPDATE \"T\" SET \"V\" = CAST(CSVWRITE('" + written + "', 'SELECT 1') AS VARCHAR)",
          "UPDATE \"T\" SET \"V\" = (SELECT CAST(COUNT(*) AS VARCHAR) FROM LINK_SCHEMA('L', '',"
              + " 'jdbc:h2:mem:linked', 'sa', '', 'PUBLIC'))",
          "CREATE ALIAS GET_PROPERTY FOR 'java.lang.System.getProperty'",
          "CREATE ALIAS HELLO AS 'String hello() { return \"hello\"; }'",
          "CREATE TRIGGER TR BEFORE INSERT ON \"T\" FOR EACH ROW CALL 'java.lang.Object'",
          "CREATE LINKED TABLE LINKED ('org.h2.Driver', 'jdbc:h2:mem:linked', 'sa', '', 'T')",
          "RUNSCRIPT FROM '" + script + "'",
          "BACKUP TO '" + written + "'",
          "CREATE SCHEMA MINE",
          "CREATE USER INTRUDER PASSWORD 'x' ADMIN",
          "ALTER USER " + DmlAccount.USER + " ADMIN TRUE",
          "SET TRACE_LEVEL_FILE 3",
          "SHUTDOWN");
      for (String statement : adminOnly) {
        refused(ADMIN_RIGHTS_REQUIRED, () -> t.execute(statement), statement);
      }
      for (String statement : List.of(
          "INSERT INTO \"T\" SELECT SEQ + 1, \"SQL\" FROM PUBLIC.FRESHET_CATALOG",
          "CREATE TABLE FRESHET_TABLES.MINE (A INT)",
          "DROP TABLE FRESHET_TABLES.\"T\"",
          "GRANT SELECT ON PUBLIC.FRESHET_CATALOG TO " + DmlAccount.USER)) {
        refused(NOT_ENOUGH_RIGHTS, () -> t.execute(statement), statement);
      }
      try (Connection c = db.connectForDml(); Statement s = c.createStatement()) {
        // The queries of these, should anything ever run one as the account.
        refused(ADMIN_RIGHTS_REQUIRED, () -> s.executeQuery("SELECT FILE_READ('" + secret
            + "', NULL)"), "SELECT FILE_READ");
        refused(ADMIN_RIGHTS_REQUIRED, () -> s.executeQuery("SCRIPT TO '" + written + "'"),
            "SCRIPT TO");
        refused(ADMIN_RIGHTS_REQUIRED, () -> s.executeQuery("SCRIPT"), "SCRIPT");
        // H2 shows every account the names of the database's tables, never their rows.
        List<String> others = new ArrayList<>();
        try (ResultSet r = s.executeQuery("SELECT TABLE_SCHEMA, TABLE_NAME FROM"
            + " INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA NOT IN ('INFORMATION_SCHEMA',"
            + " 'FRESHET_TABLES')")) {
          while (r.next()) {
            others.add(r.getString(1) + ".\"" + r.getString(2) + "\"");
          }
        }
        assertTrue(others.contains("PUBLIC.\"FRESHET_CATALOG\""), others.toString());
        for (String other : others) {
          refused(NOT_ENOUGH_RIGHTS, () -> s.executeQuery("SELECT COUNT(*) FROM " + other),
              other);
        }
      }
      assertEquals(List.of(List.of(1, "Ab")), rows(t));
    }
    assertFalse(Files.exists(written), written + " was written");
    try (Connection admin = DriverManager.getConnection("jdbc:h2:file:" + dataDir.resolve(
        "catalog"), ResultDatabase.USER, ""); Statement s = admin.createStatement();
         ResultSet r = s.executeQuery("SELECT COUNT(*) FROM INFORMATION_SCHEMA.ROUTINES"
             + " WHERE ROUTINE_SCHEMA <> 'INFORMATION_SCHEMA'")) {
      r.next();
      assertEquals(0, r.getInt(1), "functions were defined");
    }
  }

  @Test void shouldMakeTheAccountAnewOnADataDirectoryOfAnOlderVersion() throws Exception {
    try (ResultDatabase db = ResultDatabase.open(Optional.of(dataDir))) {
      new CatalogStore(db);
      LocalTables.Table t = new LocalTables(db).create("T", columns(), List.of("ID"));
      t.execute("INSERT INTO \"T\" VALUES (1, 'a')");
    }
    // As an older Freshet left it (no account), then someone with the administrator's access
    // made one of that name with a password they know, an administrator, with more rights.
    String url = "jdbc:h2:file:" + dataDir.resolve("catalog");
    try (Connection admin = DriverManager.getConnection(url, ResultDatabase.USER, "");
         Statement s = admin.createStatement()) {
      s.execute("DROP USER " + DmlAccount.USER);
      s.execute("CREATE USER " + DmlAccount.USER + " PASSWORD 'known' ADMIN");
    }
    try (ResultDatabase db = ResultDatabase.open(Optional.of(dataDir))) {
      SQLException wrongPassword = assertThrows(SQLException.class,
          () -> DriverManager.getConnection(url + ";IFEXISTS=TRUE", DmlAccount.USER, "known"));
      assertEquals("28000", wrongPassword.getSQLState(), wrongPassword.getMessage());
      // Granted at open on the tables already there, before the catalog declares them again.
      try (Connection c = db.connectForDml(); Statement s = c.createStatement()) {
        try (ResultSet r = s.executeQuery("SELECT \"V\" FROM FRESHET_TABLES.\"T\"")) {
          assertTrue(r.next());
          assertEquals("a", r.getString(1));
        }
        try (ResultSet r = s.executeQuery("SELECT IS_ADMIN FROM INFORMATION_SCHEMA.USERS")) {
          assertTrue(r.next());
          assertFalse(r.getBoolean(1), "the account is an administrator");
        }
        refused(ADMIN_RIGHTS_REQUIRED, () -> s.executeQuery("SELECT FILE_READ('" + url
            .substring("jdbc:h2:file:".length()) + ".mv.db', NULL)"), "FILE_READ");
      }
      LocalTables.Table t = new LocalTables(db).create("T", columns(), List.of("ID"));
      assertEquals(1, t.execute("UPDATE \"T\" SET \"V\" = 'b'"));
      assertEquals(List.of(List.of(1, "b")), rows(t));
    }
  }
}
