package dev.freshet.spark.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.jdbc.EmbeddedEngines;
import dev.freshet.spark.LocalSparkSession;
import dev.freshet.testkit.SparkTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A view joining a table of the engine's own, on a Spark standalone cluster: its executors are
 * other JVMs and cannot reach the server's H2 database, so the view is refused (0A000) with the
 * fix before anything starts. Only the master runs: the refusal comes while translating, before
 * any job needs an executor.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@SparkTest
class SparkTableJoinOnClusterTest {
  private static Path dir;
  private static SparkStandaloneCluster cluster;
  private static Connection connection;
  private static Statement s;

  @BeforeAll static void start() throws Exception {
    dir = Files.createTempDirectory("spark-table-join");
    cluster = SparkStandaloneCluster.start(dir.resolve("cluster"), 0);
    // Spark allows one SparkContext per JVM: the local one that classes before shared goes.
    LocalSparkSession.stop();
    Properties info = new Properties();
    info.setProperty("dataDir", dir.resolve("freshet").toString());
    info.setProperty("viewEngine", "spark");
    info.setProperty("spark.master", cluster.masterUrl());
    info.setProperty("spark.checkpoint.dir", dir.resolve("checkpoints").toString());
    connection = DriverManager.getConnection("jdbc:freshet:", info);
    s = connection.createStatement();
  }

  @AfterAll static void stop() throws Exception {
    if (connection != null) {
      EmbeddedEngines.of(dir.resolve("freshet")).close();
      connection.close();
    }
    SparkSession.getDefaultSession().foreach(spark -> {
      spark.stop();
      return null;
    });
    if (cluster != null) {
      cluster.close();
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }

  @Test void shouldRefuseAJoinWithTheEnginesOwnTableAndLeaveNothing() throws Exception {
    s.execute("CREATE STREAM orders (id BIGINT, product_id BIGINT) WITH (connector = 'memory')");
    s.execute("CREATE TABLE products (id BIGINT PRIMARY KEY, category VARCHAR)");
    SQLException e = assertThrows(SQLException.class, () -> s.execute("CREATE MATERIALIZED"
        + " VIEW per_category AS SELECT p.category, COUNT(*) AS n FROM orders o JOIN products p"
        + " ON o.product_id = p.id GROUP BY p.category"));
    assertEquals("0A000", e.getSQLState(), e.getMessage());
    assertEquals("A join with table PRODUCTS, kept in the engine's own database, on a Spark"
        + " cluster (master " + cluster.masterUrl() + ", whose executors cannot reach the"
        + " server's H2 database) is not yet on Spark: declare the table WITH (connector ="
        + " 'jdbc', 'url' = ...) on a database the executors reach, or run the view on"
        + " Freshet's own executor", e.getMessage());
    assertEquals(List.of(), names("SELECT name FROM sys.queries"));
    assertEquals("42S02", assertThrows(SQLException.class,
        () -> s.executeQuery("SELECT * FROM per_category")).getSQLState());
    // No view holds the table (else 2BP01).
    s.execute("DROP TABLE products");
  }

  private static List<String> names(String sql) throws SQLException {
    List<String> names = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        names.add(rs.getString(1));
      }
    }
    return names;
  }
}
