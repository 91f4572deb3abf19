package dev.freshet.testkit.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.UUID;

/**
 * H2 as the oracle of a query's result: a private in-memory database that a test fills with the
 * rows it gave Freshet and asks the same SQL, to compare Freshet's rows with what a batch
 * database computes over all of them.
 *
 * <pre>{@code
 * try (H2Oracle h2 = new H2Oracle()) {
 *   h2.createTable("clicks", "user_id VARCHAR, amount BIGINT");
 *   h2.insert("clicks", List.of(List.of("u1", 3L), List.of("u2", 5L)));
 *   h2.assertSameRows("SELECT user_id, COUNT(*), SUM(amount) FROM clicks GROUP BY user_id",
 *       List.of("u1 1 3", "u2 1 5"), "after the crash");
 * }
 * }</pre>
 *
 * <p>Rows as text are a line of values apart by one space, each as {@link #text(Object)} writes
 * it; order does not count, duplicates do.
 */
public final class H2Oracle implements AutoCloseable {
  /** Rows inserted by one JDBC batch. */
  private static final int BATCH = 1_000;
  private final Connection connection;

  /** A new, empty in-memory database, gone when closed. */
  public H2Oracle() throws SQLException {
    this("");
  }

  /**
   * A new, empty in-memory database with H2's {@code settings}, e.g. {@code "TIME ZONE=UTC"}
   * for a test that runs Freshet with {@code timeZone=UTC}.
   */
  public H2Oracle(String settings) throws SQLException {
    connection = DriverManager.getConnection("jdbc:h2:mem:oracle-" + UUID.randomUUID()
        + (settings.isEmpty() ? "" : ";" + settings));
  }

  /** The database's connection, for what this class does not say. */
  public Connection connection() {
    return connection;
  }

  /** Runs DDL or DML, e.g. {@code INSERT INTO s VALUES ...} as the test gave it Freshet. */
  public H2Oracle execute(String sql) throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.execute(sql);
    }
    return this;
  }

  /** Creates table {@code name} with {@code columns}, e.g. {@code "k VARCHAR, v BIGINT"}. */
  public H2Oracle createTable(String name, String columns) throws SQLException {
    return execute("CREATE TABLE " + name + " (" + columns + ")");
  }

  /** Inserts {@code rows}, each a value per column, in JDBC batches. */
  public H2Oracle insert(String table, Collection<? extends List<?>> rows) throws SQLException {
    if (rows.isEmpty()) {
      return this;
    }
    int columns = rows.iterator().next().size();
    String marks = String.join(", ", Collections.nCopies(columns, "?"));
    try (PreparedStatement insert = connection.prepareStatement(
        "INSERT INTO " + table + " VALUES (" + marks + ")")) {
      int pending = 0;
      for (List<?> row : rows) {
        for (int c = 0; c < columns; c++) {
          insert.setObject(c + 1, row.get(c));
        }
        insert.addBatch();
        if (++pending == BATCH) {
          insert.executeBatch();
          pending = 0;
        }
      }
      if (pending > 0) {
        insert.executeBatch();
      }
    }
    return this;
  }

  /**
   * Inserts rows given as text, a line of values apart by spaces (what a crash test's child
   * prints), each value converted by H2 to its column's type.
   */
  public H2Oracle insertText(String table, Collection<String> lines) throws SQLException {
    List<List<String>> rows = new ArrayList<>();
    for (String line : lines) {
      rows.add(List.of(line.split(" ")));
    }
    return insert(table, rows);
  }

  /** The rows of {@code sql}, each a list of {@code getObject} values, in H2's order. */
  public List<List<Object>> query(String sql) throws SQLException {
    return query(sql, false);
  }

  /**
   * As {@link #query(String)}, with each TIMESTAMP as the {@link LocalDateTime} it stores: no
   * time zone shifts it, as none shifts Freshet's TIMESTAMP read in UTC.
   */
  public List<List<Object>> queryLocal(String sql) throws SQLException {
    return query(sql, true);
  }

  private List<List<Object>> query(String sql, boolean localTimestamps) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      ResultSetMetaData meta = rs.getMetaData();
      int columns = meta.getColumnCount();
      while (rs.next()) {
        List<Object> row = new ArrayList<>(columns);
        for (int c = 1; c <= columns; c++) {
          row.add(localTimestamps && meta.getColumnType(c) == Types.TIMESTAMP
              ? rs.getObject(c, LocalDateTime.class) : rs.getObject(c));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  /** The rows of {@code sql} as text (see the class comment), sorted. */
  public List<String> rows(String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    for (List<Object> row : query(sql)) {
      rows.add(line(row));
    }
    Collections.sort(rows);
    return rows;
  }

  /**
   * Asserts that {@code actual}, rows as text, are the rows of {@code expectedSql} in any order;
   * the failure names the rows missing and the rows not expected before the full lists.
   */
  public void assertSameRows(String expectedSql, Collection<String> actual, String context)
      throws SQLException {
    assertSameRows(rows(expectedSql), actual, context);
  }

  /** As {@link #assertSameRows(String, Collection, String)}, for expected rows at hand. */
  public static void assertSameRows(Collection<String> expected, Collection<String> actual,
      String context) {
    List<String> want = new ArrayList<>(expected);
    List<String> got = new ArrayList<>(actual);
    Collections.sort(want);
    Collections.sort(got);
    if (want.equals(got)) {
      return;
    }
    List<String> missing = new ArrayList<>(want);
    got.forEach(missing::remove);
    List<String> unexpected = new ArrayList<>(got);
    want.forEach(unexpected::remove);
    assertEquals(want, got, context + ": " + want.size() + " rows expected, " + got.size()
        + " found\n  missing:    " + missing + "\n  unexpected: " + unexpected + "\n");
  }

  /** A row as text: its values as {@link #text(Object)} writes them, apart by one space. */
  public static String line(List<?> row) {
    StringBuilder line = new StringBuilder();
    for (int c = 0; c < row.size(); c++) {
      line.append(c == 0 ? "" : " ").append(text(row.get(c)));
    }
    return line.toString();
  }

  /**
   * A value as text: a number in its plain form without trailing zeros (so H2's NUMERIC sum and
   * Freshet's BIGINT one agree), {@code null} as {@code null}, anything else as its string.
   */
  public static String text(Object value) {
    if (value instanceof Double d && !Double.isFinite(d)
        || value instanceof Float f && !Float.isFinite(f)) {
      return value.toString();
    }
    if (value instanceof Number) {
      return new BigDecimal(value.toString()).stripTrailingZeros().toPlainString();
    }
    return String.valueOf(value);
  }

  @Override public void close() throws SQLException {
    connection.close();
  }
}
