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

  /** Rule that turns the TUMBLE and HOP table functions into a time window. */
  public static final WindowTableFunctionRule WINDOW_TABLE_FUNCTION =
      WindowTableFunctionRule.Config.DEFAULT.toRule();

  /** Rule that computes {@code GROUP BY TUMBLE(ts, size)} and HOP with a time window. */
  public static final GroupWindowRule GROUP_WINDOW = GroupWindowRule.Config.DEFAULT.toRule();

  /** Rule that turns {@code ROW_NUMBER() OVER (...) = 1} over a stream into a deduplication. */
  public static final StreamDeduplicateRule STREAM_DEDUPLICATE =
      StreamDeduplicateRule.Config.DEFAULT.toRule();

  /** Rule that turns {@code ROW_NUMBER() OVER (...) <= N} over a stream into a top-N. */
  public static final StreamTopNRule STREAM_TOP_N = StreamTopNRule.Config.DEFAULT.toRule();
}
