package dev.freshet.server;

import static dev.freshet.server.RemoteTesting.readAll;
import static dev.freshet.server.RemoteTesting.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What BI tools read first, through {@code jdbc:freshet:remote:}: the names a query gives its
 * columns, streams among the TABLEs, string sizes, the product, and a refused schema that leaves
 * the connection usable.
 */
class RemoteNamesAndMetadataTest {
  private static FreshetServer server;
  private static String url;

  @BeforeAll static void startServer() {
    server = FreshetServer.builder().port(0).start();
    url = "jdbc:freshet:remote:url=" + server.url();
  }

  @AfterAll static void stopServer() {
    server.close();
  }

  @Test void shouldRefuseAnotherSchemaWith3F000AndKeepTheConnectionUsable() throws Exception {
    try (Connection c = DriverManager.getConnection(url)) {
      SQLException e = assertThrows(SQLException.class, () -> c.setSchema("SYS"));
      assertEquals("3F000", e.getSQLState());
      assertEquals("Schema 'SYS' cannot be the connection's schema: Freshet resolves names in"
          + " FRESHET, which holds the streams and views. Qualify the names of system tables"
          + " instead, e.g. SELECT * FROM SYS.QUERIES", e.getMessage());
      // The refused schema is not kept: the connection still works, in FRESHET.
      assertEquals("FRESHET", c.getSchema());
      try (Statement s = c.createStatement()) {
        assertEquals(List.of(List.of(1)), readAll(s.executeQuery("SELECT 1")));
      }
      c.setSchema("FRESHET");
      assertEquals("FRESHET", c.getSchema());
    }
  }

  @Test void shouldNameWindowColumnsAsTheQueryAliasesThem() throws Exception {
    String stream = uniqueName("ticks");
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM " + stream + " (ts TIMESTAMP(3), x INT)");
      try (ResultSet rs = s.executeQuery("SELECT STREAM TUMBLE_START(ts, INTERVAL '1' MINUTE)"
          + " AS w, COUNT(*) AS n FROM " + stream + " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)")) {
        ResultSetMetaData md = rs.getMetaData();
        List<String> labels = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
          labels.add(md.getColumnLabel(i));
        }
        assertEquals(List.of("W", "N", "_BATCH_ID", "_ROW_KIND"), labels);
      }
    }
  }

  @Test void shouldListStreamsAsTablesWithSizesAndNameTheProduct() throws Exception {
    String stream = uniqueName("notes").toUpperCase(Locale.ROOT);
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM " + stream + " (note VARCHAR, code VARCHAR(5))");
      DatabaseMetaData md = c.getMetaData();
      assertEquals("Freshet", md.getDatabaseProductName());
      assertEquals("0.1.0", md.getDatabaseProductVersion());
      // What a default SchemaCrawler crawl asks for.
      List<List<Object>> tables = new ArrayList<>();
      for (List<Object> row : readAll(md.getTables(null, "FRESHET", stream,
          new String[] {"TABLE", "VIEW"}))) {
        tables.add(row.subList(1, 4));
      }
      assertEquals(List.of(List.of("FRESHET", stream, "TABLE")), tables);
      List<List<Object>> sizes = new ArrayList<>();
      try (ResultSet rs = md.getColumns(null, "FRESHET", stream, "%")) {
        while (rs.next()) {
          sizes.add(List.of(rs.getString("COLUMN_NAME"), rs.getInt("COLUMN_SIZE")));
        }
      }
      assertEquals(List.of(List.of("NOTE", 65536), List.of("CODE", 5)), sizes);
    }
  }
}
