package dev.freshet.jdbc;

import static dev.freshet.jdbc.ViewResults.rows;
import static dev.freshet.jdbc.ViewResults.awaitRows;
import static dev.freshet.jdbc.ViewResults.query;
import static dev.freshet.jdbc.ViewResults.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A plain SELECT over streams is batch SQL over the rows the streams hold: the same query over
 * the same rows in H2 is the oracle, compared row by row in order.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BatchQueryTest {
  private static final String CLICKS = "CREATE %s clicks (user_id VARCHAR, amount DOUBLE,"
      + " ts TIMESTAMP(3))";
  private static final String USERS = "CREATE %s users (user_id VARCHAR, country VARCHAR)";
  private static final String CLICK_ROWS = "INSERT INTO clicks VALUES"
      + " ('a', 5.0, TIMESTAMP '2026-01-01 10:00:01'),"
      + " ('b', 2.5, TIMESTAMP '2026-01-01 10:00:02'),"
      + " ('a', 1.0, TIMESTAMP '2026-01-01 10:00:03'),"
      + " ('c', NULL, TIMESTAMP '2026-01-01 10:00:04'),"
      + " ('b', 7.25, TIMESTAMP '2026-01-01 10:00:05'),"
      + " ('a', 3.0, TIMESTAMP '2026-01-01 10:00:06')";
  private static final String USER_ROWS = "INSERT INTO users VALUES ('a', 'FR'), ('b', 'NZ'),"
      + " ('d', 'JP')";
  private static final String PER_USER = "SELECT user_id, COUNT(*) AS n, SUM(amount) AS total"
      + " FROM clicks GROUP BY user_id";

  private Connection freshet;
  private Connection h2;
  private Statement fs;
  private Statement hs;

  @BeforeAll
  void createStreams() throws SQLException {
    freshet = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
    h2 = DriverManager.getConnection("jdbc:h2:mem:" + UUID.randomUUID());
    fs = freshet.createStatement();
    hs = h2.createStatement();
    fs.execute(String.format(CLICKS, "STREAM") + " WITH (connector = 'memory')");
    fs.execute(String.format(USERS, "STREAM") + " WITH (connector = 'memory')");
    fs.execute("CREATE MATERIALIZED VIEW per_user AS " + PER_USER);
    hs.execute(String.format(CLICKS, "TABLE"));
    hs.execute(String.format(USERS, "TABLE"));
    hs.execute("CREATE VIEW per_user AS " + PER_USER);
    for (Statement s : List.of(fs, hs)) {
      s.executeUpdate(CLICK_ROWS);
      s.executeUpdate(USER_ROWS);
    }
    awaitRows(fs, "SELECT user_id, n FROM per_user",
        List.of(row("a", 3L), row("b", 2L), row("c", 1L)));
  }

  @AfterAll
  void close() throws SQLException {
    freshet.close();
    h2.close();
  }

  @Test
  void orderByDescendingReadsTheStreamsRowsInOrder() throws SQLException {
    String sql = "SELECT user_id, amount FROM clicks ORDER BY ts DESC";
    assertEquals(List.of(row("a", 3.0), row("b", 7.25), row("c", null), row("a", 1.0),
        row("b", 2.5), row("a", 5.0)), query(fs, sql));
    assertSameAsH2(sql);
  }

  @Test
  void joinsAStreamWithAMaterializedView() throws SQLException {
    String sql = "SELECT c.user_id, c.amount, v.n, v.total FROM clicks c"
        + " JOIN per_user v ON c.user_id = v.user_id WHERE c.amount > 2 ORDER BY c.ts";
    assertEquals(List.of(row("a", 5.0, 3L, 9.0), row("b", 2.5, 2L, 9.75),
        row("b", 7.25, 2L, 9.75), row("a", 3.0, 3L, 9.0)), query(fs, sql));
    assertSameAsH2(sql);
  }

  @Test
  void joinsAStreamWithASystemTable() throws SQLException {
    assertEquals(List.of(row("PER_USER", "UPDATE", 3L)), query(fs,
        "SELECT q.name, q.output_mode, COUNT(*) FROM sys.queries q JOIN clicks c"
            + " ON c.user_id = 'a' GROUP BY q.name, q.output_mode"));
  }

  @Test
  void aggregatesWithOrderByAndLimit() throws SQLException {
    String sql = "SELECT user_id, COUNT(*) AS n, SUM(amount) AS total FROM clicks"
        + " GROUP BY user_id ORDER BY total DESC NULLS LAST LIMIT 2";
    assertEquals(List.of(row("b", 2L, 9.75), row("a", 3L, 9.0)), query(fs, sql));
    assertSameAsH2(sql);
  }

  @Test
  void takesParametersAndDescribesItsColumnsBeforeRunning() throws SQLException {
    String sql = "SELECT c.user_id, c.amount, u.country FROM clicks c"
        + " LEFT JOIN users u ON c.user_id = u.user_id WHERE c.amount > ? ORDER BY c.amount DESC";
    try (PreparedStatement f = freshet.prepareStatement(sql);
         PreparedStatement h = h2.prepareStatement(sql)) {
      ResultSetMetaData described = f.getMetaData();
      assertEquals(List.of("USER_ID", "AMOUNT", "COUNTRY"), List.of(described.getColumnLabel(1),
          described.getColumnLabel(2), described.getColumnLabel(3)));
      for (double min : new double[] {2.0, 4.0}) {
        f.setDouble(1, min);
        h.setDouble(1, min);
        assertEquals(rows(h.executeQuery()), rows(f.executeQuery()), "amount > " + min);
      }
      f.setDouble(1, 4.0);
      try (ResultSet rs = f.executeQuery()) {
        assertEquals(List.of(row("b", 7.25, "NZ"), row("a", 5.0, "FR")), rows(rs));
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT * FROM clicks ORDER BY amount DESC NULLS FIRST, ts",
      "SELECT * FROM clicks ORDER BY amount NULLS LAST, ts LIMIT 3 OFFSET 1",
      "SELECT user_id, ts FROM clicks ORDER BY ts OFFSET 1 ROWS FETCH NEXT 2 ROWS ONLY",
      "SELECT c.user_id, c.amount, u.country FROM clicks c JOIN users u"
          + " ON c.user_id = u.user_id ORDER BY c.ts",
      "SELECT DISTINCT user_id FROM clicks ORDER BY user_id",
      "SELECT user_id FROM clicks UNION SELECT user_id FROM users ORDER BY 1",
      "SELECT user_id, amount FROM clicks WHERE amount > (SELECT AVG(amount) FROM clicks)"
          + " ORDER BY amount",
      "SELECT u.user_id, (SELECT COUNT(*) FROM clicks c WHERE c.user_id = u.user_id) AS n"
          + " FROM users u ORDER BY u.user_id",
      "SELECT a.user_id, COUNT(*) FROM clicks a JOIN clicks b ON a.user_id = b.user_id"
          + " GROUP BY a.user_id ORDER BY a.user_id",
      "SELECT user_id, MAX(ts) FROM clicks GROUP BY user_id HAVING COUNT(*) > 1"
          + " ORDER BY MAX(ts) DESC"})
  void runsBatchSqlOverStreamsAsH2Does(String sql) throws SQLException {
    assertSameAsH2(sql);
  }

  @Test
  void ordersAndLimitsAWindowedAggregateAsTheExecutorComputesIt() throws SQLException {
    String windows = "SELECT TUMBLE_START(ts, INTERVAL '2' SECOND) AS w, COUNT(*) AS n,"
        + " SUM(amount) AS total FROM clicks GROUP BY TUMBLE(ts, INTERVAL '2' SECOND)";
    List<List<Object>> all = query(fs, windows);
    List<List<Object>> sorted = query(fs, windows + " ORDER BY w DESC LIMIT 2");
    assertEquals(List.of("2026-01-01 10:00:06.0 1 3.0", "2026-01-01 10:00:04.0 2 7.25"),
        sorted.stream().map(r -> r.get(0) + " " + r.get(1) + " " + r.get(2)).toList());
    assertTrue(all.containsAll(sorted) && all.size() == 4, all.toString());
    assertEquals(List.of("2026-01-01 10:00:02.0", "2026-01-01 10:00:04.0"),
        query(fs, windows + " ORDER BY n DESC, 1 OFFSET 0 ROWS FETCH NEXT 2 ROWS ONLY").stream()
            .map(r -> r.get(0).toString()).toList());
  }

  @Test
  void explainShowsCalcitesPlanOfAQueryTheStreamingPlannerRefuses() throws SQLException {
    String plan = (String) query(fs, "EXPLAIN PLAN FOR SELECT * FROM clicks ORDER BY ts DESC")
        .get(0).get(0);
    assertTrue(plan.contains("EnumerableSort(sort0=[$2], dir0=[DESC])")
        && plan.contains("table=[[FRESHET, CLICKS]]"), plan);
  }

  @Test
  void informationSchemaTablesListsStreamsAsTablesAndViewsAsViews() throws SQLException {
    assertEquals(List.of(row(null, "FRESHET", "CLICKS", "TABLE"),
        row(null, "FRESHET", "PER_USER", "VIEW"), row(null, "FRESHET", "USERS", "TABLE")),
        query(fs, "select * from information_schema.tables where table_schema = 'FRESHET'"
            + " order by table_name"));
    assertEquals(List.of(row("PRIMARY_KEYS", "SYSTEM TABLE"), row("PRIVILEGES", "SYSTEM TABLE"),
        row("QUERIES", "SYSTEM TABLE"), row("QUERY_PROGRESS", "SYSTEM TABLE"),
        row("STATE_OPERATORS", "SYSTEM TABLE")), query(fs, "SELECT table_name, table_type"
            + " FROM INFORMATION_SCHEMA.TABLES WHERE table_schema = 'SYS' ORDER BY 1"));
  }

  /**
   * A result larger than 'pull.max.rows' fails the statement instead of filling the server's
   * memory: a join that multiplies rows stops as it passes the limit.
   */
  @Test
  void refusesAResultLargerThanTheSessionsLimit() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM big (v INTEGER)");
      s.executeUpdate("INSERT INTO big VALUES (1), (2), (3)");
      s.execute("SET 'pull.max.rows' = '3'");
      assertEquals(3, query(s, "SELECT v FROM big").size());
      assertEquals(3, query(s, "SELECT a.v FROM big a, big b LIMIT 3").size());
      for (String sql : List.of("SELECT a.v, b.v FROM big a, big b",
          "SELECT v FROM big UNION ALL SELECT v FROM big")) {
        SQLException e = assertThrows(SQLException.class, () -> query(s, sql), sql);
        assertEquals("54000", e.getSQLState(), sql);
        assertEquals("The query's result has more than 3 rows, the limit of option"
            + " 'pull.max.rows'. Add a WHERE or a LIMIT, aggregate, or raise the limit with"
            + " SET 'pull.max.rows' = '...'", e.getMessage());
      }
      s.execute("SET 'pull.max.rows' = '2'");
      SQLException e = assertThrows(SQLException.class, () -> query(s, "SELECT v FROM big"));
      assertEquals("54000", e.getSQLState(), "a query the executor runs is held to it too");
    }
  }

  @Test
  void informationSchemaViewsGivesEachViewsQuery() throws SQLException {
    assertEquals(List.of(row(null, "FRESHET", "PER_USER", PER_USER, "NONE", "NO")),
        query(fs, "SELECT * FROM information_schema.views"));
  }

  @Test
  void informationSchemaColumnsDescribesAStreamAndAView() throws SQLException {
    String sql = "SELECT * FROM information_schema.columns WHERE table_name IN ('CLICKS',"
        + " 'PER_USER') ORDER BY table_name, ordinal_position";
    assertEquals(List.of(
        row(null, "FRESHET", "CLICKS", "USER_ID", 1, "VARCHAR", "YES", 65536, null, null),
        row(null, "FRESHET", "CLICKS", "AMOUNT", 2, "DOUBLE", "YES", null, 15, null),
        row(null, "FRESHET", "CLICKS", "TS", 3, "TIMESTAMP", "YES", null, null, null),
        row(null, "FRESHET", "PER_USER", "USER_ID", 1, "VARCHAR", "YES", 65536, null, null),
        row(null, "FRESHET", "PER_USER", "N", 2, "BIGINT", "NO", null, 19, 0),
        row(null, "FRESHET", "PER_USER", "TOTAL", 3, "DOUBLE", "YES", null, 15, null)),
        query(fs, sql));
  }

  @Test
  void informationSchemaAgreesWithDatabaseMetaData() throws SQLException {
    List<List<Object>> fromMetadata = new ArrayList<>();
    try (ResultSet rs = freshet.getMetaData().getColumns(null, null, "%", "%")) {
      while (rs.next()) {
        fromMetadata.add(row(rs.getString("TABLE_SCHEM"), rs.getString("TABLE_NAME"),
            rs.getString("COLUMN_NAME"), rs.getInt("ORDINAL_POSITION"),
            rs.getString("TYPE_NAME"), rs.getString("IS_NULLABLE")));
      }
    }
    assertEquals(fromMetadata, query(fs, "SELECT table_schema, table_name, column_name,"
        + " ordinal_position, data_type, is_nullable FROM information_schema.columns"
        + " ORDER BY table_schema, table_name, ordinal_position"));
  }

  @Test
  void unknownInformationSchemaTableNamesWhatExistsAndDatabaseMetaData() {
    SQLException e = assertThrows(SQLException.class,
        () -> query(fs, "SELECT * FROM information_schema.schemata"));
    assertEquals("42S02", e.getSQLState());
    assertTrue(e.getMessage().contains("Object 'SCHEMATA' not found within 'INFORMATION_SCHEMA'."
        + " INFORMATION_SCHEMA has the tables COLUMNS, TABLES and VIEWS; JDBC's DatabaseMetaData"
        + " (getTables, getColumns, getPrimaryKeys, getTypeInfo, ...) describes the rest"),
        e.getMessage());
  }

  private void assertSameAsH2(String sql) throws SQLException {
    List<List<Object>> expected = normalize(query(hs, sql));
    assertTrue(expected.size() > 0, "H2 returned no row for " + sql);
    assertEquals(expected, normalize(query(fs, sql)), sql);
  }


  /** Numbers by value (H2 and Freshet type COUNT and SUM apart), everything else as text. */
  private static List<List<Object>> normalize(List<List<Object>> rows) {
    List<List<Object>> normalized = new ArrayList<>();
    for (List<Object> row : rows) {
      List<Object> values = new ArrayList<>();
      for (Object v : row) {
        values.add(v instanceof Number ? new BigDecimal(v.toString())
            .round(new MathContext(12)).stripTrailingZeros().toPlainString()
            : v == null ? null : v.toString());
      }
      normalized.add(values);
    }
    return normalized;
  }
}
