package dev.freshet.spark.view;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.jdbc.EmbeddedEngines;
import dev.freshet.spark.LocalSparkSession;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the tests of views on Spark share: a fresh in-memory engine per test behind an embedded
 * connection (in UTC) and a statement on it, closed after the test (which stops its views' Spark
 * queries), a wait until every query of the engine has run what is available, and the JVM's
 * SparkSession, shared with the classes before and after ({@link LocalSparkSession}).
 *
 * <pre>{@code
 * class MyTest extends EmbeddedEngineTest {
 *   @BeforeEach void streams() throws SQLException { s.execute("CREATE STREAM ..."); }
 * }
 * }</pre>
 */
@ExtendWith(LocalSparkSession.class)
abstract class EmbeddedEngineTest {
  /** The engine's name in the JDBC URL. */
  protected String engine;
  protected Connection connection;
  protected Statement s;

  @BeforeEach void openEngine() throws SQLException {
    engine = getClass().getSimpleName() + "-" + UUID.randomUUID();
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + engine + ";timeZone=UTC");
    s = connection.createStatement();
  }

  @AfterEach void closeEngine() throws SQLException {
    EmbeddedEngines.named(engine).close();
    connection.close();
  }

  /** Waits until every query of the engine has run the batches the data available calls for. */
  protected void awaitIdle() throws Exception {
    for (ContinuousQuery q : EmbeddedEngines.named(engine).continuousQueries()) {
      assertTrue(q.processAllAvailable(ViewOracle.DEADLINE), q.name() + " " + q.status()
          + " " + q.exception().map(Throwable::toString).orElse(""));
    }
  }
}
