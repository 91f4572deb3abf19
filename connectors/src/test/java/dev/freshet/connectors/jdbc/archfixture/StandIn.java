package dev.freshet.connectors.jdbc.archfixture;

/**
 * A class of the {@code jdbc} connector's package tree, for {@code ArchitectureTest}: the sink
 * SPI's fixture that uses it breaks the rule that connectors know each other not. Test sources
 * only.
 */
public final class StandIn {
}
