package dev.freshet.server.archfixture;

/**
 * Stands in for the server, which the module's test classpath lacks: ArchUnit judges a
 * dependency by its target's package.
 */
public final class StandIn {
  private StandIn() {
  }
}
