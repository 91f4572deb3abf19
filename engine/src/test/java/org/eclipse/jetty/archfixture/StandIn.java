package org.eclipse.jetty.archfixture;

/**
 * Stands in for a class of {@code org.eclipse.jetty}, which the engine's test classpath
 * lacks, so that {@code ArchitectureTest} can prove the rule against it fails. Test sources only.
 */
public final class StandIn {
}
