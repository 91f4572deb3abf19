package dev.freshet.connectors.sink;

import java.util.List;

/**
 * Writes a sink's batches into an external system exactly once: each batch's rows and its id go
 * in one transaction of the target, and a batch whose id the target holds already (a batch run
 * again after a crash) changes nothing.
 *
 * <pre>{@code
 * try (SinkWriter writer = ...) {
 *   writer.write(7, rows);   // applied, with batch id 7, atomically
 *   writer.write(7, rows);   // a replay: skipped
 * }
 * }</pre>
 */
public interface SinkWriter extends AutoCloseable {
  /**
   * Applies batch {@code batchId}'s rows, or nothing if the target has it already.
   *
   * @return whether the batch was applied (false: it had been)
   * @throws RuntimeException if the target fails; nothing of the batch is applied then
   */
  boolean write(long batchId, List<Object[]> rows);

  /** Closes connections; never fails. */
  @Override void close();
}
