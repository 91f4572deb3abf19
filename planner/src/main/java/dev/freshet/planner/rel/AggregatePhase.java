package dev.freshet.planner.rel;

/**
 * Role of an aggregate in a streaming aggregation chain, as in Spark's {@code AggUtils}.
 */
public enum AggregatePhase {
  /** Groups the batch's input rows: one row per key with partial values. */
  PARTIAL,
  /** Folds partial values into the state restored for the key. */
  MERGE
}
