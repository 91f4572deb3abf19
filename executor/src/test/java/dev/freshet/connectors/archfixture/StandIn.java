package dev.freshet.connectors.archfixture;

/**
 * Stands in for a class of {@code dev.freshet.connectors}, which the executor's test classpath lacks, so that
 * {@code ArchitectureTest} can prove the rule against it fails. Test sources only.
 */
public final class StandIn {
}
