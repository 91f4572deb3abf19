package dev.freshet.pgwire.archfixture;

/**
 * Stands in for the PostgreSQL endpoint, which most modules' test classpaths lack: ArchUnit
 * judges a dependency by its target's package, so a class here breaks a rule against that
 * package. For {@code ArchitectureTest}s only (see
 * {@link dev.freshet.testkit.archfixture.Breaches}).
 */
public final class StandIn {
  private StandIn() {
  }
}
