package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.common.errors.SqlState;
import dev.freshet.planner.errors.PlanningException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLSyntaxErrorException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Bad statements get a SQLException with a SQLSTATE, the problem and the fix. */
class ErrorReportingTest {
  private Connection connection;
  private Statement statement;

  @BeforeEach void connect() throws Exception {
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
    statement = connection.createStatement();
    statement.execute("CREATE STREAM clicks (user_id VARCHAR, amount DOUBLE)"
        + " WITH (connector = 'memory')");
  }

  @AfterEach void close() throws Exception {
    connection.close();
  }

  private SQLException fails(String sql) {
    return assertThrows(SQLException.class, () -> statement.execute(sql));
  }

  private static void assertContains(String expected, String actual) {
    assertTrue(actual.contains(expected), () -> "expected <" + expected + "> in <" + actual + ">");
  }

  @Test void shouldNameLineAndColumnWhenSqlDoesNotParse() {
    SQLException e = fails("SELECT STREAM user_id,\n  COUNT(*) FROM clicks GROUP BY GROUP");
    assertEquals("42000", e.getSQLState());
    assertEquals("Syntax error at line 2, column 33: Incorrect syntax near the keyword 'GROUP'.",
        e.getMessage());
  }

  @Test void shouldSayHowToWriteATimestampThatATextCannotBeReadAs() throws Exception {
    statement.execute("CREATE STREAM visits (ts TIMESTAMP(3), n INT)");
    statement.execute("INSERT INTO visits VALUES (TIMESTAMP '2026-12-07 22:30:00', 1)");
    // Calcite's cast refuses it with an IllegalArgumentException: was an internal error.
    SQLException e = fails("SELECT n FROM visits WHERE ts BETWEEN '2026-12-07 22:00:00'"
        + " AND '2026-12-07 24:61:00'");
    assertEquals("22018", e.getSQLState());
    assertContains("A text value cannot be read as a date or time (Invalid", e.getMessage());
    assertContains("'2026-12-07 24:61:00')", e.getMessage());
    assertContains("'yyyy-MM-dd HH:mm:ss[.fff]'", e.getMessage());
  }

  @Test void shouldNameTheStreamAndTheFixWhenTheStreamIsUnknown() {
    SQLException e = fails("SELECT STREAM user_id, COUNT(*) FROM clickz GROUP BY user_id");
    assertEquals("42S02", e.getSQLState());
    assertContains("Object 'CLICKZ' not found", e.getMessage());
    assertContains("CREATE STREAM", e.getMessage());
  }

  @Test void shouldNameTheColumnWhenTheColumnIsUnknown() {
    SQLException e = fails("SELECT STREAM usr, COUNT(*) FROM clicks GROUP BY usr");
    assertEquals("42S22", e.getSQLState());
    assertContains("Column 'USR' not found", e.getMessage());
    assertContains("line 1, column 50", e.getMessage());
  }

  @Test void shouldNameTheFixWhenAppendModeAggregatesWithoutWatermark() {
    SQLException e = fails("SELECT STREAM user_id, COUNT(*) FROM clicks GROUP BY user_id"
        + " EMIT APPEND");
    assertEquals("42KDE", e.getSQLState());
    assertContains("EMIT APPEND is not supported for a streaming aggregation without a"
        + " watermark", e.getMessage());
    assertContains("WATERMARK FOR ts AS ts - INTERVAL", e.getMessage());
    assertContains("EMIT UPDATE", e.getMessage());
  }

  @Test void shouldRejectCompleteModeWithoutAggregation() {
    SQLException e = fails("SELECT STREAM user_id FROM clicks EMIT COMPLETE");
    assertEquals("42KDE", e.getSQLState());
    assertContains("EMIT COMPLETE is not supported for a query without a streaming aggregation",
        e.getMessage());
  }

  @Test void shouldRejectInsertIntoAnUnknownStream() {
    SQLException e = fails("INSERT INTO nope VALUES ('a', 1)");
    assertEquals("42S02", e.getSQLState());
  }

  @Test void shouldRejectCreatingAStreamTwiceUnlessIfNotExists() throws Exception {
    SQLException e = fails("CREATE STREAM clicks (x INTEGER) WITH (connector = 'memory')");
    assertEquals("42S01", e.getSQLState());
    assertContains("IF NOT EXISTS", e.getMessage());
    statement.execute("CREATE STREAM IF NOT EXISTS clicks (x INTEGER)"
        + " WITH (connector = 'memory')");
  }

  @Test void shouldRejectAnUnknownConnectionProperty() {
    SQLException e = assertThrows(SQLException.class,
        () -> DriverManager.getConnection("jdbc:freshet:dataDri=/tmp/x"));
    assertEquals("08001", e.getSQLState());
    assertContains("dataDri", e.getMessage());
  }

  @Test void shouldDropAStreamAndReportAMissingOne() throws Exception {
    statement.execute("DROP STREAM clicks");
    SQLException e = fails("DROP STREAM clicks");
    assertEquals("42S02", e.getSQLState());
    statement.execute("DROP STREAM IF EXISTS clicks");
  }

  @Test void shouldRejectAWatermarkOnANonTimestampColumn() {
    SQLException e = fails("CREATE STREAM w (k VARCHAR, v INTEGER,"
        + " WATERMARK FOR v AS v - INTERVAL '5' SECOND) WITH (connector = 'memory')");
    assertEquals("42000", e.getSQLState());
    assertContains("needs a TIMESTAMP column", e.getMessage());
  }

  @Test void shouldRejectANegativeWatermarkDelay() {
    SQLException e = fails("CREATE STREAM w (ts TIMESTAMP(3),"
        + " WATERMARK FOR ts AS ts - INTERVAL '-5' SECOND) WITH (connector = 'memory')");
    assertEquals("42000", e.getSQLState());
    assertEquals("The watermark delay of stream W must not be negative, but is INTERVAL '-5'"
        + " SECOND. Use a delay such as INTERVAL '5' SECOND", e.getMessage());
  }

  @Test void shouldRejectAWatermarkOnAnUnknownColumn() {
    SQLException e = fails("CREATE STREAM w (ts TIMESTAMP(3),"
        + " WATERMARK FOR event_time AS event_time - INTERVAL '5' SECOND)"
        + " WITH (connector = 'memory')");
    assertEquals("42000", e.getSQLState());
    assertEquals("WATERMARK FOR EVENT_TIME of stream W names an unknown column. Declare it first:"
        + " EVENT_TIME TIMESTAMP(3)", e.getMessage());
  }

  @Test void shouldRejectAWatermarkThatIsNotColumnMinusInterval() {
    SQLException e = fails("CREATE STREAM w (ts TIMESTAMP(3),"
        + " WATERMARK FOR ts AS ts + INTERVAL '5' SECOND) WITH (connector = 'memory')");
    assertEquals("42000", e.getSQLState());
    assertContains("must read WATERMARK FOR TS AS TS - INTERVAL '5' SECOND", e.getMessage());
  }

  @Test void shouldKeepThePlannersStateAndErrorWhenTheyReachJdbc() {
    SQLException e = fails("SELECT STREAM * FROM clicks EMIT COMPLETE");
    assertEquals(SqlState.NOT_VALID_ON_STREAM.code(), e.getSQLState());
    PlanningException planning = assertInstanceOf(PlanningException.class, e.getCause());
    assertEquals(SqlState.NOT_VALID_ON_STREAM, planning.state());
    assertEquals(planning.getMessage(), e.getMessage());
  }

  @Test void shouldReportAColumnOfTwoInputsAsAmbiguous() {
    SQLException e = fails("SELECT STREAM user_id FROM clicks a JOIN clicks b"
        + " ON a.amount = b.amount");
    assertEquals("42702", e.getSQLState());
    assertContains("Column 'USER_ID' is ambiguous", e.getMessage());
  }

  @Test void shouldReportAnInsertWithoutANotNullColumnAsNotNullViolation() throws Exception {
    statement.execute("CREATE STREAM strict (k VARCHAR NOT NULL, v INTEGER)"
        + " WITH (connector = 'memory')");
    SQLException e = fails("INSERT INTO strict (v) VALUES (1)");
    assertEquals("23502", e.getSQLState());
    assertContains("Column 'K' has no default value and does not allow NULLs", e.getMessage());
  }

  @Test void shouldGiveSyntaxErrorsAndMissingFeaturesTheirJdbcSubclass() {
    assertInstanceOf(SQLSyntaxErrorException.class, fails("SELEC 1"));
    assertInstanceOf(SQLSyntaxErrorException.class, fails("SELECT * FROM no_such_table"));
    assertInstanceOf(SQLFeatureNotSupportedException.class,
        fails("SELECT STREAM user_id FROM clicks UNION SELECT STREAM user_id FROM clicks"));
  }
}
