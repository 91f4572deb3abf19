package dev.freshet.connectors.kafka.archfixture;

/**
 * A class of the {@code kafka} connector's package tree that uses the {@code nexmark}
 * connector's, for {@code ArchitectureTest}. Test sources only.
 */
public final class KnowsNexmark {
  dev.freshet.connectors.nexmark.archfixture.StandIn nexmark;
}
