package dev.freshet.planner.archfixture;

/**
 * Stands in for a class of {@code dev.freshet.planner}, which the connectors' test classpath
 * lacks, so that {@code ArchitectureTest} can prove the rule against it fails. Test sources only.
 */
public final class StandIn {
}
