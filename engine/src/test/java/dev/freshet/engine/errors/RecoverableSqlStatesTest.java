package dev.freshet.engine.errors;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.connectors.sink.SinkException;
import dev.freshet.engine.options.RestartOptions;
import dev.freshet.engine.options.SessionOptions;
import dev.freshet.executor.runtime.RestartStrategy;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Tests which database errors restart a query ({@link RecoverableSqlStates}), through the
 * strategy a view or sink gets ({@link RestartOptions}), with the error wrapped as a sink wraps
 * it.
 */
class RecoverableSqlStatesTest {
  private final RestartStrategy strategy;

  RecoverableSqlStatesTest() throws SQLException {
    strategy = RestartOptions.of(Map.of(), new SessionOptions());
  }

  @Test void shouldRestartAfterConnectionSerializationShutdownAndAuthenticationErrors() {
    for (String state : List.of("08001", "08006", "08S01", "40001", "40P01", "57P01", "57P02",
        "57P03", "28000", "28P01")) {
      assertTrue(strategy.isRecoverable(new SinkException("Sink OUT cannot write batch 3",
          new SQLException("x", state))), state);
    }
    // HikariCP's "Connection is not available, request timed out", with no SQLSTATE.
    assertTrue(strategy.isRecoverable(new RuntimeException(
        new SQLTransientConnectionException("pool - Connection is not available"))));
  }

  @Test void shouldFailAtOnceOnOtherDatabaseErrors() {
    for (String state : List.of("23505", "42P01", "22012", "53200", "XX000")) {
      assertFalse(strategy.isRecoverable(new SinkException("Sink OUT cannot write batch 3",
          new SQLException("x", state))), state);
    }
    assertFalse(strategy.isRecoverable(new SQLException("no state")));
  }
}
