package dev.freshet.connectors.archfixture;

/**
 * Classes that break the connectors' architecture rules, for {@code ArchitectureTest} to prove
 * that each rule can fail. Test sources only: the real check never sees them.
 *
 * <p>A package that the connectors' test classpath lacks is a {@code StandIn} in a test package
 * under the forbidden name: ArchUnit judges a dependency by its target's package.
 */
public final class Breaches {
  private Breaches() {
  }

  /** Uses Calcite. */
  public static final class KnowsCalcite {
    org.apache.calcite.archfixture.StandIn calcite;
  }

  /** Uses the planner. */
  public static final class KnowsPlanner {
    dev.freshet.planner.archfixture.StandIn planner;
  }

  /** Uses the engine. */
  public static final class KnowsEngine {
    dev.freshet.engine.archfixture.StandIn engine;
  }

  /** Uses the embedded JDBC driver. */
  public static final class KnowsJdbcDriver {
    dev.freshet.jdbc.archfixture.StandIn driver;
  }

  /** Uses the server. */
  public static final class KnowsServer {
    dev.freshet.server.archfixture.StandIn server;
  }

  /** Uses the Spark engine. */
  public static final class KnowsSpark {
    dev.freshet.spark.archfixture.StandIn spark;
  }
}
