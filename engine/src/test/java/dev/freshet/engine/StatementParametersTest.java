package dev.freshet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.engine.query.ResultColumn;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** How markers are found, typed and replaced by literals. */
class StatementParametersTest {
  private final Engine engine = new Engine("statement-parameters-test");
  private final Session session = engine.openSession();

  @BeforeEach void createStream() throws SQLException {
    session.execute("CREATE STREAM s (k VARCHAR(10), n BIGINT, d DATE, t TIME, ts TIMESTAMP(3),"
        + " b BOOLEAN, x DOUBLE, amount DECIMAL(8, 3))");
  }

  @AfterEach void close() {
    engine.close();
  }

  @Test void shouldWriteEachValueAsALiteralOfItsType() throws Exception {
    StatementParameters p = StatementParameters.of(session,
        "INSERT INTO s VALUES (?, ?,\r\n ?, ?, ?,\n?, ?, ?)");
    assertEquals(8, p.count());
    assertEquals(List.of("VARCHAR", "BIGINT", "DATE", "TIME", "TIMESTAMP", "BOOLEAN", "DOUBLE",
        "DECIMAL"), p.types().stream().map(ResultColumn::typeName).toList());
    assertEquals("INSERT INTO s VALUES ('it''s', -5,\r\n DATE '2024-02-29',"
        + " TIME '23:59:58.120', TIMESTAMP '2024-05-01 12:34:56.789',\nTRUE, 1.5E0, 0.125)",
        p.bind(List.of("it's", -5L, LocalDate.of(2024, 2, 29), LocalTime.of(23, 59, 58,
            120_000_000), LocalDateTime.of(2024, 5, 1, 12, 34, 56, 789_000_000), true, 1.5,
            new BigDecimal("0.125"))));
  }

  @Test void shouldTypeNullsAndCastStringsToTheMarkersType() throws Exception {
    StatementParameters p = StatementParameters.of(session,
        "SELECT k FROM s WHERE n = ? AND amount = ? AND k = ? AND ts > ?");
    assertEquals("SELECT k FROM s WHERE n = CAST('7' AS BIGINT) AND amount ="
        + " CAST(NULL AS DECIMAL(8, 3)) AND k = CAST(NULL AS VARCHAR) AND ts > X'00ff'",
        p.bind(Arrays.asList("7", null, null, new byte[] {0, (byte) 0xff})));
  }

  @Test void shouldRefuseTooFewOrTooManyValues() throws Exception {
    StatementParameters p = StatementParameters.of(session, "SELECT k FROM s WHERE k = ?");
    SQLException few = assertThrows(SQLException.class, () -> p.bind(List.of()));
    assertEquals("07001", few.getSQLState());
    SQLException many = assertThrows(SQLException.class, () -> p.bind(List.of("a", "b")));
    assertEquals("07001", many.getSQLState());
    assertEquals("The statement has 1 parameter marker (?) but 2 values were given. Set exactly"
        + " one value per marker (setXxx(1, ...))", many.getMessage());
    SQLException odd = assertThrows(SQLException.class, () -> p.bind(List.of(new Object())));
    assertEquals("22023", odd.getSQLState());
  }

  @Test void shouldLeaveAStatementWithoutMarkersAsItIs() throws Exception {
    String sql = "SELECT k FROM s WHERE k = '?'";
    assertEquals(sql, StatementParameters.of(session, sql).bind(List.of()));
  }
}
