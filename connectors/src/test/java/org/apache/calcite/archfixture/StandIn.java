package org.apache.calcite.archfixture;

/**
 * Stands in for a class of {@code org.apache.calcite}, which the connectors' test classpath
 * lacks, so that {@code ArchitectureTest} can prove the rule against it fails. Test sources only.
 */
public final class StandIn {
}
