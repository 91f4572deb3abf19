package dev.freshet.spark.archfixture;

/**
 * Classes that break the module's architecture rules, for {@code ArchitectureTest} to prove
 * that each rule can fail. Test sources only: the real check never sees them.
 */
public final class Breaches {
  private Breaches() {
  }

  /** Uses the embedded JDBC driver. */
  public static final class KnowsJdbcDriver {
    dev.freshet.jdbc.FreshetDriver driver;
  }

  /** Uses the server (a stand-in: the server is not on the module's classpath). */
  public static final class KnowsServer {
    dev.freshet.server.archfixture.StandIn server;
  }
}
