package com.fasterxml.jackson.dataformat.csv.archfixture;

/**
 * Stands in for a class of {@code com.fasterxml.jackson.dataformat.csv}, which the executor's test classpath lacks, so that
 * {@code ArchitectureTest} can prove the rule against it fails. Test sources only.
 */
public final class StandIn {
}
