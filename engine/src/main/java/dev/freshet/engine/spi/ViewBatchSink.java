package dev.freshet.engine.spi;

import java.sql.SQLException;
import java.util.List;

/**
 * Where a {@link RunningView} delivers each batch's rows: the view's result in Freshet, which
 * applies a batch once, however often the engine delivers it (a batch re-run after a failure has
 * the same id and rows), and shows it to readers and subscribers as one version.
 *
 * <p>Rows hold Freshet's values (as its own executor's rows: TIMESTAMP as epoch milliseconds in
 * a {@code Long}, DATE as days in an {@code Integer}, DECIMAL as {@code BigDecimal}, ...). A
 * {@linkplain ViewJob#keyed() keyed} job's rows are the view's columns, then its group key's
 * columns, then a {@code Boolean} that says whether the group is in the view (false: HAVING
 * rejects it now, so a row it had leaves).
 *
 * <pre>{@code
 * sink.addBatch(7, List.of(new Object[] {"u1", 3L, "u1", true}));   // key "u1", admitted
 * }</pre>
 */
@FunctionalInterface
public interface ViewBatchSink {
  /**
   * Applies batch {@code batchId}'s rows, durably, and publishes the batch; a batch applied
   * already changes nothing. Called on one thread at a time.
   *
   * @throws SQLException if the rows cannot be kept (the engine's batch must then fail, to be
   *     run again), or if {@code batchId} is beyond the next one (the result lost batches: the
   *     engine's checkpoint is not the result's)
   */
  void addBatch(long batchId, List<Object[]> rows) throws SQLException;

  /**
   * The last batch the view applied, -1 before the first: after a restart, before the engine
   * has run a batch, where the view's query stands.
   */
  default long lastAppliedBatch() {
    return -1;
  }
}
