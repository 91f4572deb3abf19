package dev.freshet.jdbc;

import static dev.freshet.jdbc.ViewResults.awaitRows;
import static dev.freshet.jdbc.ViewResults.query;
import static dev.freshet.jdbc.ViewResults.row;
import static dev.freshet.jdbc.ViewResults.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.Engine;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A prepared plain query whose values go to the plan as they are, not as literals, returns what
 * the same query with the values written as literals returns, for every type: the literal path
 * is the oracle. A value that does not fit its marker's type fails (or returns) exactly as the
 * literal does.
 */
class PreparedPullQueryTypesTest {
  private final String engineName = UUID.randomUUID().toString();
  private Connection connection;
  private Statement statement;
  private Engine engine;

  @BeforeEach void load() throws Exception {
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + engineName);
    statement = connection.createStatement();
    statement.execute("CREATE STREAM t (ti TINYINT, si SMALLINT, i INTEGER, b BIGINT,"
        + " d DOUBLE, m DECIMAL(10, 2), s VARCHAR, f BOOLEAN, dt DATE, tm TIME(3),"
        + " ts TIMESTAMP(3)) WITH (connector = 'memory')");
    statement.execute("CREATE MATERIALIZED VIEW v AS SELECT ti, si, i, b, d, m, s, f, dt, tm,"
        + " ts, COUNT(*) AS c FROM t GROUP BY ti, si, i, b, d, m, s, f, dt, tm, ts");
    statement.executeUpdate("INSERT INTO t VALUES (3, 300, 70000, 5000000000, 1.5, 12.25,"
        + " 'ann', TRUE, DATE '2026-01-02', TIME '10:11:12.345',"
        + " TIMESTAMP '2026-01-02 10:11:12.345'),"
        + " (3, 300, 70000, 5000000000, 1.5, 12.25, 'ann', TRUE, DATE '2026-01-02',"
        + " TIME '10:11:12.345', TIMESTAMP '2026-01-02 10:11:12.345'),"
        + " (-4, -1, -2, -3, -0.25, -0.5, 'it''s', FALSE, DATE '1969-12-31',"
        + " TIME '00:00:00', TIMESTAMP '1969-12-31 23:59:59.999'),"
        + " (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)");
    awaitRows(statement, "SELECT SUM(c) FROM v", List.of(row(4L)));
    engine = EngineRegistry.INSTANCE.resolve(Map.of("engine", engineName));
  }

  @AfterEach void close() throws Exception {
    connection.close();
  }

  @Test void shouldReturnWhatTheLiteralReturnsForEveryType() throws Exception {
    assertSame("ti", "3", 2L, p -> p.setInt(1, 3));
    assertSame("ti", "-4", 1L, p -> p.setByte(1, (byte) -4));
    assertSame("si", "300", 2L, p -> p.setShort(1, (short) 300));
    assertSame("i", "70000", 2L, p -> p.setInt(1, 70000));
    assertSame("i", "-2", 1L, p -> p.setLong(1, -2L));
    assertSame("b", "5000000000", 2L, p -> p.setLong(1, 5_000_000_000L));
    assertSame("d", "1.5E0", 2L, p -> p.setDouble(1, 1.5));
    assertSame("d", "-0.25E0", 1L, p -> p.setDouble(1, -0.25));
    assertSame("m", "12.25", 2L, p -> p.setBigDecimal(1, new BigDecimal("12.25")));
    assertSame("m", "-0.500", 1L, p -> p.setBigDecimal(1, new BigDecimal("-0.500")));
    assertSame("s", "'ann'", 2L, p -> p.setString(1, "ann"));
    assertSame("s", "'it''s'", 1L, p -> p.setString(1, "it's"));
    assertSame("f", "TRUE", 2L, p -> p.setBoolean(1, true));
    assertSame("f", "FALSE", 1L, p -> p.setBoolean(1, false));
    assertSame("dt", "DATE '2026-01-02'", 2L, p -> p.setDate(1, Date.valueOf("2026-01-02")));
    assertSame("dt", "DATE '1969-12-31'", 1L, p -> p.setDate(1, Date.valueOf("1969-12-31")));
    assertSame("tm", "TIME '10:11:12.345'", 2L,
        p -> p.setTime(1, new Time(Time.valueOf("10:11:12").getTime() + 345)));
    assertSame("ts", "TIMESTAMP '2026-01-02 10:11:12.345'", 2L,
        p -> p.setTimestamp(1, Timestamp.valueOf("2026-01-02 10:11:12.345")));
    assertSame("ts", "TIMESTAMP '1969-12-31 23:59:59.999'", 1L,
        p -> p.setTimestamp(1, Timestamp.valueOf("1969-12-31 23:59:59.999")));
    // Values of another kind, or out of the marker's range: bound as text, as before.
    assertSame("ti", "300", null, p -> p.setInt(1, 300));
    assertSame("i", "5000000000", null, p -> p.setLong(1, 5_000_000_000L));
    assertSame("i", "2.5", null, p -> p.setBigDecimal(1, new BigDecimal("2.5")));
    assertSame("d", "3", null, p -> p.setInt(1, 3));
    assertSame("m", "12.251", null, p -> p.setBigDecimal(1, new BigDecimal("12.251")));
    assertSame("s", "CAST(NULL AS VARCHAR)", null, p -> p.setNull(1, Types.VARCHAR));
    assertSame("b", "CAST(NULL AS BIGINT)", null, p -> p.setNull(1, Types.BIGINT));
  }

  @Test void shouldFailAsTheLiteralFailsForAValueThatIsNotOfTheType() throws Exception {
    SQLException literal = assertThrows(SQLException.class,
        () -> query(statement, "SELECT c FROM v WHERE i = CAST('abc' AS INTEGER)"));
    try (PreparedStatement p = connection.prepareStatement("SELECT c FROM v WHERE i = ?")) {
      p.setString(1, "abc");
      SQLException prepared = assertThrows(SQLException.class, () -> rows(p.executeQuery()));
      assertEquals(literal.getSQLState(), prepared.getSQLState());
      assertEquals(literal.getMessage(), prepared.getMessage());
    }
  }

  private interface Setter {
    void set(PreparedStatement p) throws SQLException;
  }

  /**
   * Asserts that {@code SELECT c FROM v WHERE column = ?} with the value {@code setter} sets
   * returns what the statement with {@code literal} in place of the marker returns: the row
   * holding {@code count}, or none if it is null.
   */
  private void assertSame(String column, String literal, Long count, Setter setter)
      throws Exception {
    List<List<Object>> expected = query(statement,
        "SELECT c FROM v WHERE " + column + " = " + literal);
    assertEquals(count == null ? List.of() : List.of(row(count)), expected, literal);
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT c FROM v WHERE " + column + " = ?")) {
      setter.set(p);
      long plans = engine.pullQueries().plansCompiled();
      assertEquals(expected, rows(p.executeQuery()), column + " = " + literal);
      setter.set(p);
      assertEquals(expected, rows(p.executeQuery()), column + " = " + literal + ", again");
      if (count != null) {
        // Run with the value itself: one plan for both executions, which text would not share
        // with the literal's.
        assertTrue(engine.pullQueries().plansCompiled() - plans <= 1, literal);
      }
    }
  }
}
