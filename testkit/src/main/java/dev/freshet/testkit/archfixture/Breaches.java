package dev.freshet.testkit.archfixture;

/**
 * Classes that break the modules' architecture rules, one dependency each, for each module's
 * {@code ArchitectureTest} to prove that its rules can fail; a package cycle is
 * {@link dev.freshet.testkit.archfixture.upper.Upper} and
 * {@link dev.freshet.testkit.archfixture.lower.Lower}.
 *
 * <pre>{@code
 * new Breach(PLANNER_KNOWS_NO_ENGINE, Breaches.KnowsEngine.class)
 * }</pre>
 *
 * <p>A package that a module's test classpath lacks is a {@code StandIn} under the forbidden
 * name, here in testkit: ArchUnit judges a dependency by its target's package. None of these is a
 * module's production class, so the real checks never see them.
 */
public final class Breaches {
  private Breaches() {
  }

  /** Uses the SQL parser. */
  public static final class ParsesSql {
    dev.freshet.sql.archfixture.StandIn parser;
  }

  /** Uses the executor. */
  public static final class KnowsExecutor {
    dev.freshet.executor.archfixture.StandIn executor;
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

  /** Uses the PostgreSQL endpoint. */
  public static final class KnowsPgwire {
    dev.freshet.pgwire.archfixture.StandIn endpoint;
  }

  /** Uses Netty, the PostgreSQL endpoint's network layer. */
  public static final class KnowsNetty {
    io.netty.archfixture.StandIn netty;
  }

  /** Uses Calcite. */
  public static final class KnowsCalcite {
    org.apache.calcite.archfixture.StandIn calcite;
  }

  /** Uses Avatica's wire protocol. */
  public static final class KnowsAvaticaRemote {
    org.apache.calcite.avatica.remote.archfixture.StandIn service;
  }

  /** Uses Jetty, the server's HTTP layer. */
  public static final class KnowsJetty {
    org.eclipse.jetty.archfixture.StandIn jetty;
  }

  /** Uses Janino. */
  public static final class KnowsJanino {
    org.codehaus.archfixture.StandIn janino;
  }

  /** Uses H2. */
  public static final class KnowsH2 {
    org.h2.mvstore.MVStore store;
  }

  /** Uses JDBC. */
  public static final class KnowsJdbc {
    java.sql.Connection connection;
  }

  /** Uses JDBC's data sources. */
  public static final class KnowsDataSource {
    javax.sql.DataSource dataSource;
  }

  /** Uses Kafka's client. */
  public static final class KnowsKafka {
    org.apache.kafka.archfixture.StandIn kafka;
  }

  /** Uses Jackson's CSV format. */
  public static final class KnowsCsv {
    com.fasterxml.jackson.dataformat.csv.archfixture.StandIn csv;
  }

  /** Uses the connectors. */
  public static final class KnowsConnectors {
    dev.freshet.connectors.archfixture.StandIn connector;
  }

  /** Uses the Spark engine. */
  public static final class KnowsSpark {
    dev.freshet.spark.archfixture.StandIn spark;
  }

  /** Names a class of the executor's state store internals, not the provider factory. */
  public static final class KnowsStateInternals {
    dev.freshet.executor.state.internals.archfixture.StandIn store;
  }

  /** Walks the planner's relational expressions, not the logical plan another engine runs. */
  public static final class KnowsPlannerRels {
    dev.freshet.planner.rel.archfixture.StandIn rel;
  }

  /** Reads a query's progress from the executor's runtime, not through the engine. */
  public static final class KnowsExecutorRuntime {
    dev.freshet.executor.runtime.archfixture.StandIn progress;
  }
}
