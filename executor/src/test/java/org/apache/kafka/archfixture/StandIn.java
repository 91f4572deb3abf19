package org.apache.kafka.archfixture;

/**
 * Stands in for a class of {@code org.apache.kafka}, which the executor's test classpath lacks, so that
 * {@code ArchitectureTest} can prove the rule against it fails. Test sources only.
 */
public final class StandIn {
}
