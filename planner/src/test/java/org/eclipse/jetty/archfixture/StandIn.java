package org.eclipse.jetty.archfixture;

/**
 * Stands in for a class of {@code org.eclipse.jetty}, which the planner's test classpath
 * lacks, so that {@code ArchitectureTest} can prove the rule against it fails. Test sources only.
 */
public final class StandIn {
}
