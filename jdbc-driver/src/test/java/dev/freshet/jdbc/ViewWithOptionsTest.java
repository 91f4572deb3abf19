package dev.freshet.jdbc;

import static dev.freshet.jdbc.ViewResults.awaitRows;
import static dev.freshet.jdbc.ViewResults.query;
import static dev.freshet.jdbc.ViewResults.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.Engine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code CREATE MATERIALIZED VIEW ... WITH (...)} through the embedded driver: a view on
 * Freshet's own engine as without options, the refusals of wrong options and of an engine that is
 * not on the class path (which leave nothing behind), and a restart that keeps the clause.
 */
class ViewWithOptionsTest {
  private static final String COUNTS = " AS SELECT k, COUNT(*) AS n FROM clicks GROUP BY k";

  @TempDir Path dataDir;

  private static Connection inMemory() throws SQLException {
    return DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
  }

  private Connection durable() throws SQLException {
    return DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
  }

  private Engine durableEngine() throws SQLException {
    return EngineRegistry.INSTANCE.resolve(Map.of(EngineRegistry.DATA_DIR, dataDir.toString()));
  }

  @Test void shouldRunTheViewAsWithoutOptionsWhenEngineIsFreshet() throws Exception {
    try (Connection c = inMemory(); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM clicks (k VARCHAR) WITH (connector = 'memory')");
      s.execute("CREATE MATERIALIZED VIEW plain" + COUNTS);
      s.execute("CREATE MATERIALIZED VIEW quoted WITH ('engine' = 'freshet')" + COUNTS);
      s.execute("CREATE MATERIALIZED VIEW unquoted WITH (Engine = 'FRESHET')" + COUNTS);
      s.executeUpdate("INSERT INTO clicks VALUES ('a'), ('b'), ('a')");

      List<List<Object>> expected = List.of(row("a", 2L), row("b", 1L));
      awaitRows(s, "SELECT k, n FROM plain", expected);
      awaitRows(s, "SELECT k, n FROM quoted", expected);
      awaitRows(s, "SELECT k, n FROM unquoted", expected);
    }
  }

  @Test void shouldNameTheKnownOptionsWhenAnOptionIsUnknown() throws Exception {
    try (Connection c = inMemory(); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM clicks (k VARCHAR) WITH (connector = 'memory')");
      SQLException e = assertThrows(SQLException.class,
          () -> s.execute("CREATE MATERIALIZED VIEW v WITH ('engin' = 'spark')" + COUNTS));

      assertEquals("42000", e.getSQLState());
      assertEquals("Unknown option 'engin' of materialized view V. Valid options: engine,"
          + " restart.max-attempts, restart.backoff, state.ttl", e.getMessage());
      assertEquals(List.of(), query(s, "SHOW VIEWS"));
    }
  }

  @Test void shouldRefuseARestartOptionThatIsNotValid() throws Exception {
    try (Connection c = inMemory(); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM clicks (k VARCHAR) WITH (connector = 'memory')");
      SQLException attempts = assertThrows(SQLException.class, () -> s.execute(
          "CREATE MATERIALIZED VIEW v WITH ('restart.max-attempts' = '-1')" + COUNTS));
      assertEquals("42000", attempts.getSQLState());
      assertEquals("Option 'restart.max-attempts' must be an integer from 0 to 1000000, not"
          + " '-1'", attempts.getMessage());
      SQLException backoff = assertThrows(SQLException.class, () -> s.execute(
          "CREATE MATERIALIZED VIEW v WITH ('Restart.Backoff' = 'soon')" + COUNTS));
      assertEquals("42000", backoff.getSQLState());
      assertEquals("Option 'restart.backoff' must be a duration such as '1 second', '500 ms' or"
          + " '2 minutes', or '0' to restart at once; not 'soon'", backoff.getMessage());
      assertEquals(List.of(), query(s, "SHOW VIEWS"));
      // Valid ones are taken, in any case.
      s.execute("CREATE MATERIALIZED VIEW v WITH ('RESTART.MAX-ATTEMPTS' = '3',"
          + " 'restart.backoff' = '250 ms')" + COUNTS);
      assertEquals(List.of(List.of("V")), query(s, "SELECT name FROM sys.queries"));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "spark 4", "local[2]"})
  void shouldRefuseTheEngineWhenItIsNotAName(String engine) throws Exception {
    try (Connection c = inMemory(); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM clicks (k VARCHAR) WITH (connector = 'memory')");
      SQLException e = assertThrows(SQLException.class,
          () -> s.execute("CREATE MATERIALIZED VIEW v WITH (engine = '" + engine + "')"
              + COUNTS));

      assertEquals("42000", e.getSQLState());
      assertEquals("Option 'engine' of materialized view V is '" + engine + "', but must be an"
          + " engine's name, made of letters, digits and '-', such as 'freshet' or 'spark'."
          + " Leave it out to run the view on 'freshet'", e.getMessage());
      assertEquals(List.of(), query(s, "SHOW VIEWS"));
    }
  }

  @Test void shouldRefuseTheEngineWhenGivenTwiceInAnotherCase() throws Exception {
    try (Connection c = inMemory(); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM clicks (k VARCHAR) WITH (connector = 'memory')");
      SQLException e = assertThrows(SQLException.class, () -> s.execute(
          "CREATE MATERIALIZED VIEW v WITH (engine = 'freshet', 'ENGINE' = 'spark')" + COUNTS));

      assertEquals("42000", e.getSQLState());
      assertEquals("Option 'engine' of materialized view V is given more than once. Give it"
          + " once", e.getMessage());
    }
  }

  @Test void shouldLeaveNothingBehindWhenTheEngineIsNotOnTheClassPath() throws Exception {
    try (Connection c = durable(); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM clicks (k VARCHAR)");
      SQLException e = assertThrows(SQLFeatureNotSupportedException.class,
          () -> s.execute("CREATE MATERIALIZED VIEW v WITH ('engine' = 'spark')" + COUNTS));

      assertEquals("0A000", e.getSQLState());
      assertTrue(e.getMessage().startsWith("Engine 'spark' is not on this server's class path,"
          + " so no view can run on it. Add the module that provides it (for 'spark':"
          + " dev.freshet:freshet-engine-spark and Spark's jars;"), e.getMessage());
      assertEquals(List.of(), query(s, "SHOW VIEWS"));
      assertEquals(List.of(), query(s, "SELECT name FROM sys.queries"));
      assertEquals(List.of(), checkpoints());

      // The name is free: the same view on Freshet's engine is created and runs.
      s.execute("CREATE MATERIALIZED VIEW v" + COUNTS);
      s.executeUpdate("INSERT INTO clicks VALUES ('a')");
      awaitRows(s, "SELECT k, n FROM v", List.of(row("a", 1L)));
    } finally {
      durableEngine().close();
    }
  }

  @Test void shouldKeepTheWithClauseWhenTheViewIsRestored() throws Exception {
    String create = "CREATE MATERIALIZED VIEW v WITH ('engine' = 'freshet')" + COUNTS;
    try (Connection c = durable(); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM clicks (k VARCHAR)");
      s.execute(create);
      s.executeUpdate("INSERT INTO clicks VALUES ('a'), ('b')");
      awaitRows(s, "SELECT k, n FROM v", List.of(row("a", 1L), row("b", 1L)));
    }
    durableEngine().close();
    try (Connection c = durable(); Statement s = c.createStatement()) {
      assertEquals(List.of(row("V", create)), query(s, "SELECT name, query_text FROM sys.queries"));
      s.executeUpdate("INSERT INTO clicks VALUES ('a')");
      awaitRows(s, "SELECT k, n FROM v", List.of(row("a", 2L), row("b", 1L)));
    } finally {
      durableEngine().close();
    }
  }

  /** The query checkpoints in the data directory, by directory name. */
  private List<String> checkpoints() throws Exception {
    Path root = dataDir.resolve("checkpoints");
    if (!Files.exists(root)) {
      return List.of();
    }
    try (Stream<Path> dirs = Files.list(root)) {
      return dirs.map(p -> p.getFileName().toString()).toList();
    }
  }
}
