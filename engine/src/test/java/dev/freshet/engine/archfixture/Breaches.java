package dev.freshet.engine.archfixture;

/**
 * Classes that break the engine's architecture rules, for {@code ArchitectureTest} to
 * prove that each rule can fail. Test sources only: the real check never sees them.
 *
 * <p>A package that the engine's test classpath lacks is a {@code StandIn} in a test
 * package under the forbidden name: ArchUnit judges a dependency by its target's package.
 */
public final class Breaches {
  private Breaches() {
  }

  /** Uses the embedded JDBC driver. */
  public static final class KnowsJdbcDriver {
    dev.freshet.jdbc.archfixture.StandIn driver;
  }

  /** Uses the server. */
  public static final class KnowsServer {
    dev.freshet.server.archfixture.StandIn server;
  }

  /** Uses Avatica's wire protocol. */
  public static final class KnowsAvaticaRemote {
    org.apache.calcite.avatica.remote.Service service;
  }

  /** Uses Jetty, the server's HTTP layer. */
  public static final class KnowsJetty {
    org.eclipse.jetty.archfixture.StandIn jetty;
  }

  /** Uses the root package from a subpackage (this one). */
  public static final class KnowsTheRoot {
    dev.freshet.engine.Engine engine;
  }

  /** Names a state store provider of the executor's internals, past the public state API. */
  public static final class KnowsStateInternals {
    dev.freshet.executor.state.internals.InMemoryStateStoreProvider<Object, Object[]> store;
  }
}
