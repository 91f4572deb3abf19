package org.h2.archfixture;

/**
 * Stands in for a class of {@code org.h2}, which the remote driver's test classpath
 * lacks, so that {@code ArchitectureTest} can prove the rule against it fails. Test sources only.
 */
public final class StandIn {
}
