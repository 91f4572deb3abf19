package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Push queries with distinct aggregates, aggregates with {@code FILTER (WHERE ...)}, global
 * aggregates and {@code SELECT DISTINCT}, batch by batch: one INSERT is one micro-batch.
 *
 * <p>Each batch's rows are read exactly; a batch that emitted a row too many would shift the
 * rows the next read sees, and one that emitted too few would make the read time out.
 */
class AggregateSemanticsTest {
  private final String url = "jdbc:freshet:engine=" + UUID.randomUUID();
  private Connection a;
  private Connection b;
  private Statement insert;

  @BeforeEach void connect() throws Exception {
    a = DriverManager.getConnection(url);
    b = DriverManager.getConnection(url);
    insert = a.createStatement();
    insert.execute("CREATE STREAM clicks (user_id VARCHAR, url VARCHAR, amount INTEGER)"
        + " WITH (connector = 'memory')");
  }

  @AfterEach void close() throws Exception {
    b.close();
    a.close();
  }

  private ResultSet push(String sql) throws SQLException {
    return b.createStatement().executeQuery(sql);
  }

  private void insert(String values) throws SQLException {
    insert.executeUpdate("INSERT INTO clicks VALUES " + values);
  }

  private static Set<List<Object>> readSet(ResultSet rs, int n) {
    List<List<Object>> rows = PushResults.readData(rs, n);
    Set<List<Object>> set = Set.copyOf(rows);
    assertEquals(n, set.size(), () -> "duplicate rows in " + rows);
    return set;
  }

  private static List<Object> row(Object... values) {
    return Arrays.asList(values);
  }

  @Test void shouldCountSumAndAverageDistinctValuesWhenUpdateMode() throws Exception {
    try (ResultSet rs = push("SELECT STREAM user_id, COUNT(DISTINCT url) AS pages,"
        + " SUM(DISTINCT amount) AS s, AVG(DISTINCT amount) AS av, MIN(DISTINCT amount) AS lo,"
        + " COUNT(*) AS n FROM clicks GROUP BY user_id EMIT UPDATE")) {
      insert("('a', '/x', 1), ('a', '/x', 1), ('a', '/y', 2), ('b', NULL, NULL)");
      assertEquals(Set.of(row("a", 2L, 3L, 1.5, 1, 3L), row("b", 0L, null, null, null, 1L)),
          readSet(rs, 2));

      // Only values already seen: the key was touched, so it is emitted, unchanged but for n.
      insert("('a', '/y', 2)");
      assertEquals(List.of(row("a", 2L, 3L, 1.5, 1, 4L)), PushResults.readData(rs, 1));

      insert("('a', '/z', 4), ('b', '/x', 5), ('b', '/x', 5)");
      assertEquals(Set.of(row("a", 3L, 7L, 7.0 / 3, 1, 5L), row("b", 1L, 5L, 5.0, 5, 3L)),
          readSet(rs, 2));
    }
  }

  @Test void shouldEmitDistinctAggregatesOfEveryKeyWhenCompleteMode() throws Exception {
    try (ResultSet rs = push("SELECT STREAM user_id, COUNT(DISTINCT amount) AS c,"
        + " SUM(DISTINCT amount) AS s, AVG(DISTINCT amount) AS av FROM clicks GROUP BY user_id"
        + " EMIT COMPLETE")) {
      insert("('a', '/', 10), ('a', '/', 10), ('b', '/', 3)");
      assertEquals(Set.of(row("a", 1L, 10L, 10.0), row("b", 1L, 3L, 3.0)), readSet(rs, 2));

      insert("('a', '/', 20), ('a', '/', 10)");
      assertEquals(Set.of(row("a", 2L, 30L, 15.0), row("b", 1L, 3L, 3.0)), readSet(rs, 2));

      insert("('c', '/', NULL)");
      assertEquals(Set.of(row("a", 2L, 30L, 15.0), row("b", 1L, 3L, 3.0), row("c", 0L, null, null)),
          readSet(rs, 3));
    }
  }

  @Test void shouldCountOnlyRowsWhoseFilterIsTrueWhenAggregateHasFilter() throws Exception {
    try (ResultSet rs = push("SELECT STREAM user_id, COUNT(*) AS n,"
        + " COUNT(*) FILTER (WHERE amount > 10) AS big,"
        + " SUM(amount) FILTER (WHERE url = '/buy') AS bought,"
        + " AVG(amount) FILTER (WHERE url = '/buy') AS avg_bought,"
        + " COUNT(DISTINCT url) FILTER (WHERE amount > 10) AS big_pages"
        + " FROM clicks GROUP BY user_id")) {
      // A NULL condition (amount or url NULL) does not count the row: FILTER needs TRUE.
      insert("('a', '/buy', 20), ('a', '/x', 5), ('a', '/buy', 3), ('a', NULL, 50),"
          + " ('b', '/x', NULL)");
      assertEquals(Set.of(row("a", 4L, 2L, 23L, 11.5, 1L), row("b", 1L, 0L, null, null, 0L)),
          readSet(rs, 2));

      insert("('a', '/y', NULL), ('a', '/z', 11), ('a', '/buy', 11)");
      assertEquals(List.of(row("a", 7L, 4L, 34L, 34.0 / 3, 2L)), PushResults.readData(rs, 1));
    }
  }

  @Test void shouldReEmitTheTotalsNotResetThemWhenNoRowOfABatchPassesTheWhere()
      throws Exception {
    try (ResultSet rs = push("SELECT STREAM COUNT(*) AS n, SUM(amount) AS total FROM clicks"
        + " WHERE amount > 0 EMIT UPDATE")) {
      insert("('a', '/', 1), ('b', '/', 2), ('c', '/', 3)");
      assertEquals(List.of(row(3L, 6L)), PushResults.readData(rs, 1));

      insert("('a', '/', -1), ('a', '/', 0), ('d', '/', NULL)");
      assertEquals(List.of(row(3L, 6L)), PushResults.readData(rs, 1));

      insert("('e', '/', 4)");
      assertEquals(List.of(row(4L, 10L)), PushResults.readData(rs, 1));
    }
  }

  @Test void shouldEmitInitialValuesWhenTheFirstBatchHasNoQualifyingRow() throws Exception {
    try (ResultSet rs = push("SELECT STREAM COUNT(*) AS n, SUM(amount) AS total,"
        + " AVG(amount) AS av, COUNT(DISTINCT url) AS pages FROM clicks WHERE amount > 0")) {
      insert("('a', '/', -5)");
      assertEquals(List.of(row(0L, null, null, 0L)), PushResults.readData(rs, 1));

      insert("('a', '/x', 5), ('b', '/x', 1)");
      assertEquals(List.of(row(2L, 6L, 3.0, 1L)), PushResults.readData(rs, 1));
    }
  }

  @Test void shouldEmitTheGlobalRowEveryBatchWhenCompleteMode() throws Exception {
    try (ResultSet rs = push("SELECT STREAM COUNT(DISTINCT user_id) AS users, MAX(amount) AS hi"
        + " FROM clicks WHERE url = '/buy' EMIT COMPLETE")) {
      insert("('a', '/buy', 1), ('b', '/buy', 7), ('a', '/buy', 2)");
      assertEquals(List.of(row(2L, 7)), PushResults.readData(rs, 1));

      insert("('c', '/x', 100)");
      assertEquals(List.of(row(2L, 7)), PushResults.readData(rs, 1));
    }
  }

  @Test void shouldEmitTheKeysTouchedByEachBatchWhenSelectDistinct() throws Exception {
    try (ResultSet rs = push("SELECT STREAM DISTINCT user_id FROM clicks")) {
      insert("('a', '/', 1), ('b', '/', 1), ('a', '/', 2)");
      assertEquals(Set.of(row("a"), row("b")), readSet(rs, 2));

      // As in Spark, UPDATE mode re-emits a key seen before when the batch touches it.
      insert("('a', '/', 3), ('c', '/', 1)");
      assertEquals(Set.of(row("a"), row("c")), readSet(rs, 2));
    }
  }

  @Test void shouldEmitEveryKeyWhenSelectDistinctInCompleteMode() throws Exception {
    try (ResultSet rs = push("SELECT STREAM DISTINCT user_id, url FROM clicks EMIT COMPLETE")) {
      insert("('a', '/x', 1), ('a', '/x', 2)");
      assertEquals(List.of(row("a", "/x")), PushResults.readData(rs, 1));

      insert("('a', '/y', 1)");
      assertEquals(Set.of(row("a", "/x"), row("a", "/y")), readSet(rs, 2));
    }
  }

  @Test void shouldAnswerDistinctAggregatesInABoundedQuery() throws Exception {
    insert("('a', '/x', 1), ('a', '/x', 1), ('a', '/y', 2)");
    insert("('a', '/z', 2), ('b', '/x', 3)");
    try (Statement s = b.createStatement();
         ResultSet rs = s.executeQuery("SELECT user_id, COUNT(DISTINCT url),"
             + " SUM(DISTINCT amount), COUNT(*) FILTER (WHERE amount > 1) FROM clicks"
             + " GROUP BY user_id")) {
      List<List<Object>> rows = new ArrayList<>();
      while (rs.next()) {
        rows.add(PushResults.row(rs));
      }
      assertEquals(Set.of(row("a", 3L, 3L, 2L), row("b", 1L, 3L, 1L)), Set.copyOf(rows));
      assertEquals(2, rows.size());
    }
  }

  @Test void shouldAnswerOneRowWhenABoundedGlobalAggregateReadsAnEmptyStream() throws Exception {
    try (Statement s = b.createStatement();
         ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(amount) FROM clicks")) {
      List<List<Object>> rows = new ArrayList<>();
      while (rs.next()) {
        rows.add(PushResults.row(rs));
      }
      assertEquals(List.of(row(0L, null)), rows);
    }
  }

  @Test void shouldNameTheCallWhenCountingDistinctValuesOfSeveralColumns() {
    SQLException e = assertThrows(SQLException.class, () -> push("SELECT STREAM"
        + " COUNT(DISTINCT user_id, url) FROM clicks"));
    assertEquals("0A000", e.getSQLState());
    assertEquals("Aggregate COUNT(DISTINCT $0, $1) is not supported on streams. Use COUNT(*) or"
        + " COUNT, SUM, MIN, MAX or AVG of one column, with DISTINCT or FILTER (WHERE ...) if"
        + " needed", e.getMessage());
  }
}
