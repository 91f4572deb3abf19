package org.codehaus.archfixture;

/**
 * Stands in for a class of {@code org.codehaus}, which the remote driver's test classpath
 * lacks, so that {@code ArchitectureTest} can prove the rule against it fails. Test sources only.
 */
public final class StandIn {
}
