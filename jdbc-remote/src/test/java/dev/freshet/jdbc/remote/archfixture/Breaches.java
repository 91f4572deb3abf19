package dev.freshet.jdbc.remote.archfixture;

/**
 * Classes that break the remote driver's architecture rules, for {@code ArchitectureTest} to
 * prove that each rule can fail. Test sources only: the real check never sees them.
 *
 * <p>A package that the remote driver's test classpath lacks is a {@code StandIn} in a test
 * package under the forbidden name: ArchUnit judges a dependency by its target's package.
 */
public final class Breaches {
  private Breaches() {
  }

  /** Uses the embedded driver, whose package holds the remote one. */
  public static final class KnowsEmbeddedDriver {
    dev.freshet.jdbc.archfixture.StandIn driver;
  }

  /** Uses the engine. */
  public static final class KnowsEngine {
    dev.freshet.engine.archfixture.StandIn engine;
  }

  /** Uses Calcite outside Avatica. */
  public static final class KnowsCalcite {
    org.apache.calcite.archfixture.StandIn calcite;
  }

  /** Uses Janino. */
  public static final class KnowsJanino {
    org.codehaus.archfixture.StandIn janino;
  }

  /** Uses H2. */
  public static final class KnowsH2 {
    org.h2.archfixture.StandIn h2;
  }
}
