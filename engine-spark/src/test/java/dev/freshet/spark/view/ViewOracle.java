package dev.freshet.spark.view;

import static org.junit.jupiter.api.Assertions.fail;

import dev.freshet.testkit.oracle.H2Oracle;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * What the tests of Spark-run views share: H2 as the oracle (the same GROUP BY as a batch query
 * over the rows inserted so far), a view's rows read through JDBC in a stable order, and waiting
 * for a condition with a deadline.
 *
 * <pre>{@code
 * ViewOracle oracle = new ViewOracle("CREATE TABLE clicks (user_id VARCHAR, amount BIGINT)");
 * oracle.insert("INSERT INTO clicks VALUES ('a', 1)");
 * ViewOracle.await(() -> rows(s, "SELECT * FROM v ORDER BY 1"), oracle.rows("SELECT ..."), "v");
 * }</pre>
 */
final class ViewOracle implements AutoCloseable {
  /** Generous: a Spark batch takes a fraction of a second, but the machine may be loaded. */
  static final Duration DEADLINE = Duration.ofSeconds(90);
  /** The first pause between two reads of {@link #await}, doubled after each up to the most. */
  private static final Duration POLL_FIRST = Duration.ofMillis(10);
  private static final Duration POLL_MAX = Duration.ofMillis(200);

  private final H2Oracle h2;

  ViewOracle(String... ddl) throws SQLException {
    h2 = new H2Oracle();
    for (String statement : ddl) {
      h2.execute(statement);
    }
  }

  void execute(String sql) throws SQLException {
    h2.execute(sql);
  }

  /** H2's rows of {@code sql}, as {@link #row} gives them. */
  List<List<Object>> rows(String sql) throws SQLException {
    try (Statement s = h2.connection().createStatement()) {
      return rows(s, sql);
    }
  }

  /** Every row of {@code sql}, each as its columns' values (numbers as longs). */
  static List<List<Object>> rows(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      return rows(rs, rs.getMetaData().getColumnCount());
    }
  }

  static List<List<Object>> rows(ResultSet rs, int columns) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    while (rs.next()) {
      rows.add(row(rs, columns));
    }
    return rows;
  }

  /** The first {@code columns} values of the current row, integral numbers as longs. */
  static List<Object> row(ResultSet rs, int columns) throws SQLException {
    ResultSetMetaData meta = rs.getMetaData();
    List<Object> row = new ArrayList<>();
    for (int c = 1; c <= columns; c++) {
      Object v = rs.getObject(c);
      if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
        v = ((Number) v).longValue();
      } else if (v instanceof java.math.BigDecimal d && d.stripTrailingZeros().scale() <= 0) {
        v = d.longValueExact();
      } else if (v instanceof java.sql.Timestamp t) {
        // H2 keeps the wall-clock time; Freshet's driver (timeZone=UTC) the instant in UTC.
        v = h2(rs) ? rs.getObject(c, java.time.LocalDateTime.class).toString()
            : java.time.LocalDateTime.ofInstant(t.toInstant(), java.time.ZoneOffset.UTC)
                .toString();
      }
      row.add(v);
    }
    return row;
  }

  private static boolean h2(ResultSet rs) throws SQLException {
    return rs.getStatement().getConnection().getMetaData().getURL().startsWith("jdbc:h2:");
  }

  /** Waits until {@code actual} gives {@code expected}; fails with both after the deadline. */
  static void await(SqlSupplier<List<List<Object>>> actual, List<List<Object>> expected,
      Supplier<String> context) throws Exception {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    long pause = POLL_FIRST.toNanos();
    List<List<Object>> last;
    do {
      last = actual.get();
      if (last.equals(expected)) {
        return;
      }
      // Polled, not spun, and less often the longer the wait: each read is a query planned and
      // run by the engine, and Spark needs both cores of a small machine.
      java.util.concurrent.locks.LockSupport.parkNanos(pause);
      pause = Math.min(pause * 2, POLL_MAX.toNanos());
    } while (System.nanoTime() < deadline);
    fail(context.get() + ": expected " + expected + " within " + DEADLINE + ", last read "
        + last);
  }

  /** A read that may fail with an SQLException. */
  @FunctionalInterface
  interface SqlSupplier<T> {
    T get() throws Exception;
  }

  @Override public void close() throws SQLException {
    h2.close();
  }
}
