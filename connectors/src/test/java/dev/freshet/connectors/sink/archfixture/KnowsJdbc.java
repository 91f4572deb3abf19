package dev.freshet.connectors.sink.archfixture;

/**
 * A class of the shared sink SPI's package tree that uses the {@code jdbc} connector's, for
 * {@code ArchitectureTest}: connectors may use the SPI, but the SPI knows no connector. Test
 * sources only.
 */
public final class KnowsJdbc {
  dev.freshet.connectors.jdbc.archfixture.StandIn jdbc;
}
