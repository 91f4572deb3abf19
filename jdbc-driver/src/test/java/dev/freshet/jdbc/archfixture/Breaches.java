package dev.freshet.jdbc.archfixture;

/**
 * Classes that break the embedded driver's architecture rules, for {@code ArchitectureTest} to
 * prove that each rule can fail. Test sources only: the real check never sees them.
 *
 * <p>A package that the embedded driver's test classpath lacks is a {@code StandIn} in a test
 * package under the forbidden name: ArchUnit judges a dependency by its target's package.
 */
public final class Breaches {
  private Breaches() {
  }

  /** Uses the server. */
  public static final class KnowsServer {
    dev.freshet.server.archfixture.StandIn server;
  }
}
