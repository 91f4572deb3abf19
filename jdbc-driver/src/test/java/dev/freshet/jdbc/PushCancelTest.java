package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.engine.Engine;
import dev.freshet.jdbc.FreshetMeta.ExecuteStep;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code Statement.cancel()} stops a push query whichever step of the execution it lands at: a
 * cancel from another thread may come while the engine starts the query, before the statement
 * holds it. The test cancels from the executing thread at each step ({@link ExecuteStep}), which
 * is where another thread's cancel can land.
 */
class PushCancelTest {
  private final String engineName = UUID.randomUUID().toString();
  private Connection connection;
  private Engine engine;

  @BeforeEach void connect() throws Exception {
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + engineName);
    engine = EngineRegistry.INSTANCE.resolve(Map.of("engine", engineName));
    try (Statement s = connection.createStatement()) {
      s.execute("CREATE STREAM clicks (user_id VARCHAR, amount DOUBLE)");
    }
  }

  @AfterEach void close() throws Exception {
    connection.close();
  }

  @ParameterizedTest @EnumSource(ExecuteStep.class)
  void shouldStopThePushQueryWhenCancelLandsAt(ExecuteStep step) throws Exception {
    FreshetMeta meta = (FreshetMeta) ((FreshetJdbcFactory.FreshetConnection) connection).meta();
    try (Statement query = connection.createStatement()) {
      List<ExecuteStep> seen = new ArrayList<>();
      meta.onExecuteStep(reached -> {
        seen.add(reached);
        if (reached == step) {
          try {
            query.cancel();
          } catch (SQLException e) {
            throw new IllegalStateException(e);
          }
        }
      });
      ResultSet rs = query.executeQuery("SELECT STREAM user_id, COUNT(*) AS n FROM clicks"
          + " GROUP BY user_id");
      meta.onExecuteStep(reached -> { });
      assertEquals(List.of(ExecuteStep.values()), seen, "the steps of one execution");

      SQLException cancelled = assertThrows(SQLException.class, rs::next);
      assertEquals("Statement canceled", cancelled.getMessage(), cancelled.toString());
      // Stopping a push query joins its batch thread and unregisters it before cancel returns.
      assertEquals(List.of(), engine.queries(), "cancel at " + step + " left the query running");
    }
  }
}
