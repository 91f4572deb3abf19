package dev.freshet.connectors.nexmark.archfixture;

/**
 * A class of the {@code nexmark} connector's package tree, for {@code ArchitectureTest}: another
 * connector's fixture that uses it breaks the rule that connectors know each other not. Test
 * sources only.
 */
public final class StandIn {
}
