package dev.freshet.engine.errors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.common.errors.SqlState;
import dev.freshet.planner.errors.PlanningException;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import org.junit.jupiter.api.Test;

/** The engine's one factory of SQLExceptions, and how a planner error becomes one. */
class ErrorsTest {
  @Test void shouldTurnAPlanningErrorIntoASqlExceptionWithItsStateAndMessage() {
    PlanningException planning = new PlanningException(SqlState.NOT_VALID_ON_STREAM,
        "OFFSET is not supported on a stream. Remove OFFSET");
    SQLException e = assertThrows(SQLException.class, () -> Errors.fromPlanner(() -> {
      throw planning;
    }));
    assertEquals("42KDE", e.getSQLState());
    assertEquals("OFFSET is not supported on a stream. Remove OFFSET", e.getMessage());
    assertSame(planning, e.getCause());
  }

  @Test void shouldReturnThePlannersValueWhenItPlans() throws SQLException {
    assertEquals("planned", Errors.fromPlanner(() -> "planned"));
  }

  @Test void shouldChooseTheJdbcSubclassByTheClassOfTheState() {
    assertInstanceOf(SQLFeatureNotSupportedException.class,
        Errors.of(SqlState.FEATURE_NOT_SUPPORTED, "m"));
    assertInstanceOf(SQLNonTransientConnectionException.class,
        Errors.of(SqlState.UNABLE_TO_CONNECT, "m"));
    assertInstanceOf(SQLDataException.class, Errors.of(SqlState.INVALID_PARAMETER_VALUE, "m"));
    assertInstanceOf(SQLIntegrityConstraintViolationException.class,
        Errors.of(SqlState.NOT_NULL_VIOLATION, "m"));
    assertInstanceOf(SQLSyntaxErrorException.class, Errors.of(SqlState.OBJECT_NOT_FOUND, "m"));
    assertInstanceOf(SQLTimeoutException.class, Errors.of(SqlState.TIMEOUT_EXPIRED, "m"));
    assertEquals(SQLException.class, Errors.of(SqlState.IO_ERROR, "m").getClass());
  }

  @Test void shouldGiveEveryStateItsCodeAndTheMessageAndCause() {
    Throwable cause = new IllegalStateException("cause");
    for (SqlState state : SqlState.values()) {
      SQLException e = Errors.of(state, "message", cause);
      assertEquals(state.code(), e.getSQLState());
      assertEquals("message", e.getMessage());
      assertSame(cause, e.getCause());
    }
  }
}
