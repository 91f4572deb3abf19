package dev.freshet.jdbc;

import static dev.freshet.jdbc.ViewResults.awaitRows;
import static dev.freshet.jdbc.ViewResults.query;
import static dev.freshet.jdbc.ViewResults.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Materialized views end to end: created, maintained in the background, read by plain SELECTs. */
class MaterializedViewTest {
  private final String url = "jdbc:freshet:engine=" + UUID.randomUUID();
  private Connection writer;
  private Connection reader;
  private Statement insert;
  private Statement select;

  @BeforeEach void connect() throws Exception {
    writer = DriverManager.getConnection(url);
    reader = DriverManager.getConnection(url);
    insert = writer.createStatement();
    select = reader.createStatement();
    insert.execute("CREATE STREAM clicks (user_id VARCHAR, amount DOUBLE, ts TIMESTAMP(3))"
        + " WITH (connector = 'memory')");
  }

  @AfterEach void close() throws Exception {
    reader.close();
    writer.close();
  }

  @Test void shouldUpsertEachGroupWhenTheViewIsInUpdateMode() throws Exception {
    insert.execute("CREATE MATERIALIZED VIEW clicks_per_user AS SELECT user_id, COUNT(*) AS n,"
        + " SUM(amount) AS total FROM clicks GROUP BY user_id EMIT UPDATE");
    awaitRows(select, "SELECT * FROM clicks_per_user", List.of());

    insert.executeUpdate("INSERT INTO clicks (user_id, amount) VALUES ('a', 1), ('b', 2)");
    awaitRows(select, "SELECT * FROM clicks_per_user",
        List.of(row("a", 1L, 1.0), row("b", 1L, 2.0)));

    // Batch 2 emits only a's new row; b's row stays as it was.
    insert.executeUpdate("INSERT INTO clicks (user_id, amount) VALUES ('a', 3)");
    awaitRows(select, "SELECT * FROM clicks_per_user",
        List.of(row("a", 2L, 4.0), row("b", 1L, 2.0)));

    insert.executeUpdate("INSERT INTO clicks (user_id, amount) VALUES ('c', 5), ('b', 1)");
    awaitRows(select, "SELECT * FROM clicks_per_user",
        List.of(row("a", 2L, 4.0), row("b", 2L, 3.0), row("c", 1L, 5.0)));
  }

  @Test void shouldReplaceTheWholeResultWhenTheViewIsInCompleteMode() throws Exception {
    insert.execute("CREATE MATERIALIZED VIEW positive_totals AS SELECT user_id,"
        + " SUM(amount) AS total FROM clicks GROUP BY user_id HAVING SUM(amount) > 0"
        + " EMIT COMPLETE");
    insert.executeUpdate("INSERT INTO clicks (user_id, amount) VALUES ('a', 5), ('b', 1)");
    awaitRows(select, "SELECT * FROM positive_totals", List.of(row("a", 5.0), row("b", 1.0)));

    // Every batch is the whole result: b no longer passes HAVING, so it is gone.
    insert.executeUpdate("INSERT INTO clicks (user_id, amount) VALUES ('b', -3)");
    awaitRows(select, "SELECT * FROM positive_totals", List.of(row("a", 5.0)));
  }

  @Test void shouldAppendEveryRowWhenTheViewDoesNotAggregate() throws Exception {
    insert.execute("CREATE MATERIALIZED VIEW big_clicks AS SELECT UPPER(user_id) AS u,"
        + " amount * 2 AS doubled FROM clicks WHERE amount > 1");
    insert.executeUpdate("INSERT INTO clicks (user_id, amount) VALUES ('a', 1), ('b', 2)");
    insert.executeUpdate("INSERT INTO clicks (user_id, amount) VALUES ('b', 2), ('c', 3)");
    awaitRows(select, "SELECT * FROM big_clicks",
        List.of(row("B", 4.0), row("B", 4.0), row("C", 6.0)));
  }

  @Test void shouldUpsertByTheGroupKeyWhenTheSelectListComputesOrOmitsIt() throws Exception {
    // 'a' and 'A' are two groups that look alike once upper-cased; neither may replace the other.
    insert.execute("CREATE MATERIALIZED VIEW upper_counts AS SELECT UPPER(user_id) AS u,"
        + " COUNT(*) AS n FROM clicks GROUP BY user_id");
    insert.execute("CREATE MATERIALIZED VIEW bare_counts AS SELECT COUNT(*) AS n"
        + " FROM clicks GROUP BY user_id");
    insert.executeUpdate("INSERT INTO clicks (user_id) VALUES ('a'), ('A'), ('A')");
    insert.executeUpdate("INSERT INTO clicks (user_id) VALUES ('a'), ('a'), ('b')");
    awaitRows(select, "SELECT * FROM upper_counts",
        List.of(row("A", 3L), row("A", 2L), row("B", 1L)));
    awaitRows(select, "SELECT n FROM bare_counts", List.of(row(3L), row(2L), row(1L)));
  }

  @Test void shouldAddAGroupOnceHavingAdmitsItWhenTheViewIsInUpdateMode() throws Exception {
    insert.execute("CREATE MATERIALIZED VIEW repeat_users AS SELECT COUNT(*) AS n, user_id"
        + " FROM clicks GROUP BY user_id HAVING COUNT(*) > 1");
    insert.executeUpdate("INSERT INTO clicks (user_id) VALUES ('a'), ('a'), ('b')");
    awaitRows(select, "SELECT * FROM repeat_users", List.of(row(2L, "a")));
    insert.executeUpdate("INSERT INTO clicks (user_id) VALUES ('b'), ('a')");
    awaitRows(select, "SELECT * FROM repeat_users", List.of(row(3L, "a"), row(2L, "b")));
  }

  @Test void shouldKeepOneRowWhenTheViewAggregatesWithoutGroupBy() throws Exception {
    insert.execute("CREATE MATERIALIZED VIEW totals AS SELECT COUNT(*) AS n, SUM(amount) AS s"
        + " FROM clicks");
    insert.executeUpdate("INSERT INTO clicks (user_id, amount) VALUES ('a', 1), ('b', 2)");
    awaitRows(select, "SELECT * FROM totals", List.of(row(2L, 3.0)));
    insert.executeUpdate("INSERT INTO clicks (user_id, amount) VALUES ('c', 4)");
    awaitRows(select, "SELECT * FROM totals", List.of(row(3L, 7.0)));
  }

  @Test void shouldJoinTwoViews() throws Exception {
    insert.execute("CREATE STREAM orders (user_id VARCHAR, qty INTEGER)"
        + " WITH (connector = 'memory')");
    insert.execute("CREATE MATERIALIZED VIEW clicks_per_user AS SELECT user_id, COUNT(*) AS n"
        + " FROM clicks GROUP BY user_id");
    insert.execute("CREATE MATERIALIZED VIEW qty_per_user AS SELECT user_id, SUM(qty) AS q"
        + " FROM orders GROUP BY user_id");
    insert.executeUpdate("INSERT INTO clicks (user_id) VALUES ('a'), ('a'), ('b'), ('c')");
    insert.executeUpdate("INSERT INTO orders VALUES ('a', 3), ('b', 1), ('b', 1), ('d', 9)");
    awaitRows(select, "SELECT c.user_id, c.n, o.q, CAST(o.q AS DOUBLE) / c.n AS per_click"
        + " FROM clicks_per_user AS c JOIN qty_per_user AS o ON c.user_id = o.user_id",
        List.of(row("a", 2L, 3L, 1.5), row("b", 1L, 2L, 2.0)));
    // An outer join and a subquery go through Calcite like any other query.
    awaitRows(select, "SELECT o.user_id, c.n FROM qty_per_user AS o LEFT JOIN clicks_per_user"
        + " AS c ON c.user_id = o.user_id WHERE o.q > (SELECT MIN(q) FROM qty_per_user)",
        List.of(row("a", 2L), row("d", null)));
  }

  @Test void shouldOrderLimitAndAggregateOverAView() throws Exception {
    insert.execute("CREATE MATERIALIZED VIEW clicks_per_user AS SELECT user_id, COUNT(*) AS n"
        + " FROM clicks GROUP BY user_id");
    insert.executeUpdate("INSERT INTO clicks (user_id) VALUES ('a'), ('b'), ('b'), ('c'),"
        + " ('c'), ('c'), ('d'), ('d'), ('d'), ('d')");
    awaitRows(select, "SELECT SUM(n) FROM clicks_per_user", List.of(row(10L)));

    assertEquals(List.of(row("d", 4L), row("c", 3L)), query(select,
        "SELECT user_id, n FROM clicks_per_user ORDER BY n DESC LIMIT 2"));
    // Sorted by a column it does not return.
    assertEquals(List.of(row("a"), row("b"), row("c")), query(select,
        "SELECT user_id FROM clicks_per_user WHERE n < 4 ORDER BY n"));
    assertEquals(List.of(row(4L, 2.5)), query(select,
        "SELECT COUNT(*) AS users, AVG(CAST(n AS DOUBLE)) AS mean FROM clicks_per_user"));
  }

  @Test void shouldNameColumnsAndKeepTypesThroughAView() throws Exception {
    insert.execute("CREATE MATERIALIZED VIEW last_click (who, clicks, last_seen) AS"
        + " SELECT user_id, COUNT(*), MAX(ts) FROM clicks GROUP BY user_id");
    insert.executeUpdate("INSERT INTO clicks VALUES ('a', 1, TIMESTAMP '2026-11-29 10:00:00'),"
        + " ('a', 1, TIMESTAMP '2026-11-29 10:05:00.250'), ('b', 1, TIMESTAMP"
        + " '2026-11-29 09:00:00')");
    awaitRows(select, "SELECT who FROM last_click", List.of(row("a"), row("b")));

    try (ResultSet rs = select.executeQuery("SELECT who, clicks, last_seen FROM last_click"
        + " WHERE last_seen > TIMESTAMP '2026-11-29 10:00:00'")) {
      ResultSetMetaData md = rs.getMetaData();
      assertEquals("WHO", md.getColumnLabel(1));
      assertEquals(Types.BIGINT, md.getColumnType(2));
      assertEquals(Types.TIMESTAMP, md.getColumnType(3));
      assertTrue(rs.next());
      assertEquals("a", rs.getString(1));
      assertEquals(2L, rs.getLong(2));
      assertEquals(Timestamp.valueOf("2026-11-29 10:05:00.25"), rs.getTimestamp(3));
      assertFalse(rs.next());
    }
  }

  @Test void shouldAnswerAQueryThatReadsNoTable() throws Exception {
    // What connection pools and BI tools send to check a connection.
    assertEquals(List.of(row(2)), query(select, "SELECT 1 + 1"));
    assertEquals(List.of(row("x", 1)), query(select, "VALUES ('x', 1)"));
    assertEquals(List.of(row(true)), query(select,
        "SELECT CURRENT_TIMESTAMP > TIMESTAMP '2020-01-01 00:00:00'"));
  }

  @Test void shouldStillAnswerAPlainSelectOverAStreamFromEveryRowItHolds() throws Exception {
    insert.execute("CREATE MATERIALIZED VIEW clicks_per_user AS SELECT user_id, COUNT(*) AS n"
        + " FROM clicks GROUP BY user_id");
    insert.executeUpdate("INSERT INTO clicks (user_id, amount) VALUES ('a', 1), ('b', 2)");
    // A column spelled like a view does not make this a query over the view.
    assertEquals(List.of(row("a", 1.0)), query(select, "SELECT user_id AS clicks_per_user,"
        + " amount FROM clicks WHERE amount < 2"));
  }
}
