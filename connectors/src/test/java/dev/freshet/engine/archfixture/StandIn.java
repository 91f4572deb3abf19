package dev.freshet.engine.archfixture;

/**
 * Stands in for a class of {@code dev.freshet.engine}, which the connectors' test classpath
 * lacks, so that {@code ArchitectureTest} can prove the rule against it fails. Test sources only.
 */
public final class StandIn {
}
