package dev.freshet.executor.archfixture;

/**
 * Classes that break the executor's architecture rules, for {@code ArchitectureTest} to
 * prove that each rule can fail. Test sources only: the real check never sees them.
 *
 * <p>A package that the executor's test classpath lacks is a {@code StandIn} in a test
 * package under the forbidden name: ArchUnit judges a dependency by its target's package.
 */
public final class Breaches {
  private Breaches() {
  }

  /** Uses Calcite. */
  public static final class KnowsCalcite {
    org.apache.calcite.archfixture.StandIn calcite;
  }

  /** Uses JDBC. */
  public static final class KnowsJdbc {
    java.sql.Connection connection;
  }

  /** Uses JDBC's extension package. */
  public static final class KnowsDataSource {
    javax.sql.DataSource dataSource;
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

  /** Parses SQL text. */
  public static final class ParsesSql {
    dev.freshet.sql.archfixture.StandIn parser;
  }

  /** Uses H2 outside {@code state.internals}. */
  public static final class KnowsH2 {
    org.h2.mvstore.MVStore store;
  }

  /** Uses Kafka's client. */
  public static final class KnowsKafka {
    org.apache.kafka.archfixture.StandIn kafka;
  }

  /** Uses Jackson's CSV format. */
  public static final class KnowsCsv {
    com.fasterxml.jackson.dataformat.csv.archfixture.StandIn csv;
  }

  /** Uses a connector. */
  public static final class KnowsConnectors {
    dev.freshet.connectors.archfixture.StandIn connector;
  }
}
