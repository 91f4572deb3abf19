package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.errors.Errors;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Statements that fail inside Calcite, Janino or the parser in ways other than a SQLException (a
 * stack overflow, a division by zero folded at planning, a text compared with a number) still get
 * a SQLException with the SQLSTATE of the condition and a message of bounded length; NOT NULL
 * columns and parameter markers without values are refused rather than stored as NULL.
 */
class StatementFailureTest {
  private Connection connection;
  private Statement statement;

  @BeforeEach void connect() throws Exception {
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
    statement = connection.createStatement();
    statement.execute("CREATE STREAM s (k VARCHAR, v BIGINT NOT NULL, i INT)");
  }

  @AfterEach void close() throws Exception {
    connection.close();
  }

  private SQLException fails(String sql, String state) {
    SQLException e = assertThrows(SQLException.class, () -> statement.execute(sql));
    assertEquals(state, e.getSQLState(), e::getMessage);
    assertTrue(e.getMessage().length() <= Errors.MAX_MESSAGE_LENGTH, e.getMessage().length()
        + " characters");
    return e;
  }

  @Test void shouldCallAnEmptyStatementEmpty() {
    assertEquals("The statement is empty. Send one SQL statement, such as SELECT 1",
        fails("", "42000").getMessage());
    fails(" \n\t ", "42000");
  }

  /**
   * Terms of the long expression below: its tree nests as deep, and 10,000 levels overflow a
   * 16 MB thread stack too. Calcite's precedence parser takes time quadratic in the terms
   * (30,000 took 3 of this class's CPU seconds; 10,000 a ninth of that).
   */
  private static final int TERMS = 10_000;

  @Test void shouldCallADeeplyNestedStatementTooComplex() {
    String tooComplex = "The statement is too complex: it nests too deeply to be parsed or"
        + " planned (hundreds of nested parentheses or subqueries, or an expression of thousands"
        + " of terms). Split it into smaller statements or views";
    // Deep enough to overflow any thread's stack, whatever its size and the JIT's frames.
    assertEquals(tooComplex, fails("SELECT " + "(".repeat(50_000) + "1" + ")".repeat(50_000),
        "54001").getMessage());
    assertEquals(tooComplex, fails("SELECT 1" + " + 1".repeat(TERMS), "54001").getMessage());
  }

  @Test void shouldCallADivisionByZeroFoldedAtPlanningADivisionByZero() {
    assertEquals("Division by zero. Guard the divisor, e.g. x / NULLIF(y, 0), which gives NULL"
        + " where y is 0", fails("SELECT 1 / 0", "22012").getMessage());
  }

  @Test void shouldFailAnIntegerOverflowRatherThanWrapAround() throws Exception {
    assertEquals("A number is out of the range of its type (long overflow). CAST to a wider"
        + " type, e.g. BIGINT or DECIMAL(38, 0), before computing",
        fails("SELECT CAST(9223372036854775807 AS BIGINT) + 1", "22003").getMessage());
    statement.execute("INSERT INTO s VALUES ('a', 9223372036854775807, 2147483647)");
    fails("SELECT i * 2 FROM s", "22003");
    try (Statement push = connection.createStatement();
         ResultSet rs = push.executeQuery("SELECT STREAM k, v + 1 AS w FROM s")) {
      SQLException e = assertThrows(SQLException.class, rs::next);
      assertEquals("22003", e.getSQLState(), e::getMessage);
    }
  }

  @Test void shouldCallTextComparedWithANumberAnInvalidCast() {
    assertEquals("A text value cannot be read as a number (For input string: \"str\")."
        + " Compare and compute numbers with numbers, or CAST only text that holds a number",
        fails("SELECT * FROM s WHERE v > 'str'", "22018").getMessage());
  }

  @Test void shouldRefuseANullForANotNullColumn() throws SQLException {
    assertEquals("Column V of stream S is NOT NULL, but a row gives it no value",
        fails("INSERT INTO s VALUES ('a', CAST(NULL AS BIGINT), 1)", "23502").getMessage());
    fails("INSERT INTO s (k, i) VALUES ('a', 1)", "23502");
    assertEquals(0, rows("SELECT COUNT(*) FROM s"));
  }

  @Test void shouldRefuseParameterMarkersWithoutValues() throws SQLException {
    assertEquals("The statement has 1 parameter marker (?) but no value for it. Execute it as a"
        + " PreparedStatement with its values set, or write the values into the statement",
        fails("INSERT INTO s VALUES ('a', ?, 1)", "07001")
        .getMessage());
    assertEquals("The statement has 2 parameter markers (?) but no value for them. Execute it as"
        + " a PreparedStatement with its values set, or write the values into the statement",
        fails("SELECT * FROM s WHERE k = ? AND v > ?", "07001")
        .getMessage());
    assertEquals(0, rows("SELECT COUNT(*) FROM s"));
  }

  @Test void shouldCutAHugeNameQuotedInAnError() {
    String name = "X".repeat(2 * 1024 * 1024);
    SQLException e = fails("SELECT * FROM " + name, "42000");
    assertTrue(e.getMessage().endsWith(" more characters)"), e.getMessage().substring(0, 200));
  }

  /** The one BIGINT of the one row {@code sql} returns. */
  private long rows(String sql) throws SQLException {
    try (ResultSet rs = statement.executeQuery(sql)) {
      assertTrue(rs.next());
      return rs.getLong(1);
    }
  }
}
