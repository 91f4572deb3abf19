package dev.freshet.engine;

import dev.freshet.planner.PlannedQuery;
import dev.freshet.planner.StateBounds;
import java.util.ArrayList;
import java.util.List;

/**
 * The warnings of a {@code CREATE MATERIALIZED VIEW} or {@code CREATE SINK} whose query keeps
 * state that nothing bounds: one per such operator, naming it and the fix, which the statement
 * returns as {@link java.sql.SQLWarning}s.
 *
 * <pre>{@code
 * StateWarnings.unbounded("Materialized view COUNTS", plan, 0);
 * // ["Materialized view COUNTS keeps the state of its aggregation StateStoreSave(operatorId=0)
 * //   without bound: ... or give it a state TTL: WITH ('state.ttl' = '1 h')"]
 * }</pre>
 */
final class StateWarnings {
  /** The SQLSTATE of the warnings: a warning without a subclass. */
  static final String SQLSTATE = "01000";

  private StateWarnings() {
  }

  /**
   * One warning per stateful operator of {@code plan} that nothing bounds with state TTL
   * {@code ttlMs}; {@code what} names the view or sink, e.g. {@code Materialized view V}.
   */
  static List<String> unbounded(String what, PlannedQuery plan, long ttlMs) {
    List<String> warnings = new ArrayList<>();
    for (StateBounds.StatefulNode node : StateBounds.unbounded(plan.logical(), ttlMs)) {
      warnings.add(what + " keeps the state of its " + node.describe() + " without bound"
          + " (UNBOUNDED in EXPLAIN): every key stays for as long as it runs, and its memory"
          + " grows with the number of keys. " + fix(node.kind()));
    }
    return warnings;
  }

  /** What bounds an operator of {@code kind}. */
  private static String fix(String kind) {
    String ttl = "give it a state TTL, so that keys not updated for that long are dropped:"
        + " WITH ('state.ttl' = '1 h')";
    return switch (kind) {
      case "join" -> "Join within a time range (e.g. AND l.ts BETWEEN r.ts - INTERVAL '1'"
          + " MINUTE AND r.ts + INTERVAL '1' MINUTE, on streams with a WATERMARK), or " + ttl;
      case "deduplication" -> "Deduplicate on a key that includes the event-time column of a"
          + " stream with a WATERMARK, so that the watermark evicts the keys, or " + ttl;
      case "top-n" -> "Give it a state TTL, so that groups without rows for that long are"
          + " dropped: WITH ('state.ttl' = '1 h')";
      case "session window" -> "Use EMIT APPEND on a stream with a WATERMARK, so that the"
          + " watermark closes the sessions";
      case "window aggregation" -> "Use EMIT UPDATE or EMIT APPEND (COMPLETE keeps every"
          + " window), or " + ttl;
      default -> "Add a WATERMARK to the stream and group by a window of its time column (e.g."
          + " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE), ...), or " + ttl;
    };
  }
}
