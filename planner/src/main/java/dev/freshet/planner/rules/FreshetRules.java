package dev.freshet.planner.rules;

/**
 * Freshet's planner rules.
 */
public final class FreshetRules {
  private FreshetRules() {
  }

  /** Rule that plans an aggregate over a stream as a stateful streaming aggregation, UPDATE mode. */
  public static final StreamingAggregateRule STREAMING_AGGREGATE =
      StreamingAggregateRule.Config.DEFAULT.toRule();
}
