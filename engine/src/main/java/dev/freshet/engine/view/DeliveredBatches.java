package dev.freshet.engine.view;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import java.sql.SQLException;

/**
 * Which batch another engine delivers to a view's result, against the last one the result
 * applied: the next one (apply it), one applied already (the engine ran it again after a
 * failure: skip it), or one beyond the next (the result lost batches the engine's checkpoint
 * has: fail, never skip them silently).
 */
enum DeliveredBatches {
  NEXT, APPLIED;

  /**
   * @param lastApplied the last batch the result applied, -1 before the first
   * @throws SQLException (55000) if {@code batchId} is beyond {@code lastApplied + 1}
   */
  static DeliveredBatches of(String view, long batchId, long lastApplied) throws SQLException {
    if (batchId <= lastApplied) {
      return APPLIED;
    }
    if (batchId == lastApplied + 1) {
      return NEXT;
    }
    throw Errors.of(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, "Materialized view " + view
        + " has applied its batches up to " + lastApplied + ", but its engine delivered batch "
        + batchId + ": the engine's checkpoint is ahead of the view's result in Freshet's data"
        + " directory (another data directory, or its files were removed). DROP MATERIALIZED"
        + " VIEW " + view + " and create it again to compute it from the start");
  }
}
