package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.engine.Engine;
import dev.freshet.engine.ViewEngines;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded URL's {@code viewEngine} and {@code spark.*} properties: the view engines of the
 * engine a connection starts, and a later connection that asks for others. No Spark here: the
 * engine opens a view runner only for a view.
 */
class ViewEnginePropertiesTest {
  @TempDir Path dataDir;

  @AfterEach void closeEngine() throws SQLException {
    engine().close();
  }

  @Test void shouldStartTheEngineWithTheViewEnginesOfTheUrl() throws Exception {
    try (Connection c = DriverManager.getConnection(url() + ";viewEngine=spark"
        + ";spark.master=local[2];spark.checkpoint.dir=/mnt/shared/freshet"
        + ";spark.executor.memory=1g")) {
      assertEquals(new ViewEngines("spark", Map.of("spark.master", "local[2]",
          "spark.checkpoint.dir", "/mnt/shared/freshet", "spark.executor.memory", "1g")),
          engine().viewEngines());
    }
  }

  @Test void shouldRunViewsOnFreshetWithoutViewEngine() throws Exception {
    try (Connection c = DriverManager.getConnection(url() + ";spark.master=local[3]")) {
      assertEquals(new ViewEngines("freshet", Map.of("spark.master", "local[3]")),
          engine().viewEngines());
    }
  }

  @Test void shouldRefuseASecondConnectionThatAsksForOtherViewEngines() throws Exception {
    try (Connection first = DriverManager.getConnection(url() + ";viewEngine=spark"
        + ";spark.master=local[2];spark.authenticate.secret=s3cr3t")) {
      SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection(url()
          + ";viewEngine=spark;spark.master=spark://10.0.0.5:7077"));
      assertEquals("08001", e.getSQLState());
      assertEquals("The engine of data directory " + dataDir + " already runs with"
          + " viewEngine=spark and {spark.authenticate.secret=(hidden), spark.master=local[2]};"
          + " this connection asks for viewEngine=spark and {spark.master=spark://10.0.0.5:7077}."
          + " Connections share an engine, and the first one's properties started it: give the"
          + " same viewEngine and spark.* properties, or none; restart the application to change"
          + " them", e.getMessage());
      SQLException other = assertThrows(SQLException.class, () -> DriverManager.getConnection(
          url() + ";viewEngine=freshet"));
      assertEquals("08001", other.getSQLState());
    }
  }

  @Test void shouldLetAConnectionWithTheSamePropertiesOrNoneShareTheEngine() throws Exception {
    String spark = ";viewEngine=spark;spark.master=local[2]";
    try (Connection first = DriverManager.getConnection(url() + spark);
         Connection same = DriverManager.getConnection(url() + spark);
         Connection none = DriverManager.getConnection(url());
         Connection sameSettingsOnly = DriverManager.getConnection(url()
             + ";spark.master=local[2]")) {
      assertEquals(new ViewEngines("spark", Map.of("spark.master", "local[2]")),
          engine().viewEngines());
    }
  }

  @Test void shouldRefuseAViewEngineThatViewsCannotRunOn() {
    String name = UUID.randomUUID().toString();
    SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection(
        "jdbc:freshet:engine=" + name + ";viewEngine=flink"));
    assertEquals("08001", e.getSQLState());
    assertEquals("Connection property viewEngine must be freshet (Freshet's own executor, the"
        + " default) or spark (Apache Spark; needs dev.freshet:freshet-engine-spark on the class"
        + " path), not 'flink'", e.getMessage());
  }

  private String url() {
    return "jdbc:freshet:dataDir=" + dataDir;
  }

  /** The engine the registry keeps for the data directory (the connections' engine). */
  private Engine engine() throws SQLException {
    return EngineRegistry.INSTANCE.resolve(Map.of(EngineRegistry.DATA_DIR, dataDir.toString()));
  }
}
