package dev.freshet.common.archfixture;

/**
 * Classes that break the common module's architecture rules, for {@code ArchitectureTest} to
 * prove that each rule can fail. Test sources only: the real check never sees them.
 */
public final class Breaches {
  private Breaches() {
  }

  /** Uses another Freshet module. */
  public static final class KnowsPlanner {
    dev.freshet.planner.archfixture.StandIn planner;
  }

  /** Uses a library. */
  public static final class KnowsCalcite {
    org.apache.calcite.archfixture.StandIn calcite;
  }
}
