package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The columns of a windowed aggregation keep the names the query gives them: in a push result,
 * in DESCRIBE of a view, in {@code getColumns}, and for {@code SELECT w FROM v}.
 */
class WindowColumnNamesTest {
  private static final String WINDOWED = "SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w,"
      + " COUNT(*) AS n FROM s GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)";

  @Test void shouldNameAPushResultsColumnsAsTheQueryAliasesThem() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM s (ts TIMESTAMP(3), x INT) WITH (connector = 'memory')");
      try (ResultSet rs = s.executeQuery("SELECT STREAM TUMBLE_START(ts, INTERVAL '1' MINUTE)"
          + " AS w, COUNT(*) AS n FROM s GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)")) {
        assertEquals(List.of("W", "N", "_BATCH_ID", "_ROW_KIND"), labels(rs.getMetaData()));
      }
    }
  }

  @Test void shouldNameAViewsColumnsAsItsQueryAliasesThem() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM s (ts TIMESTAMP(3), x INT) WITH (connector = 'memory')");
      s.execute("CREATE MATERIALIZED VIEW v AS " + WINDOWED + " EMIT COMPLETE");
      List<String> columns = new ArrayList<>();
      try (ResultSet rs = c.getMetaData().getColumns(null, "FRESHET", "V", "%")) {
        while (rs.next()) {
          columns.add(rs.getString("COLUMN_NAME"));
        }
      }
      assertEquals(List.of("W", "N"), columns);
      List<String> described = new ArrayList<>();
      try (ResultSet rs = s.executeQuery("DESCRIBE v")) {
        while (rs.next()) {
          described.add(rs.getString(1));
        }
      }
      assertEquals(List.of("W", "N"), described);

      s.execute("INSERT INTO s VALUES (TIMESTAMP '2026-01-01 10:00:05', 1),"
          + " (TIMESTAMP '2026-01-01 10:00:55', 2)");
      ViewResults.awaitRows(s, "SELECT * FROM v",
          List.of(ViewResults.row(Timestamp.valueOf("2026-01-01 10:00:00"), 2L)));
      try (ResultSet rs = s.executeQuery("SELECT w FROM v WHERE n = 2")) {
        assertEquals(List.of("W"), labels(rs.getMetaData()));
      }
      assertEquals(List.of(ViewResults.row(Timestamp.valueOf("2026-01-01 10:00:00"))),
          ViewResults.query(s, "SELECT w FROM v WHERE n = 2"));
    }
  }

  private static List<String> labels(ResultSetMetaData md) throws Exception {
    List<String> labels = new ArrayList<>();
    for (int i = 1; i <= md.getColumnCount(); i++) {
      labels.add(md.getColumnLabel(i));
    }
    return labels;
  }
}
