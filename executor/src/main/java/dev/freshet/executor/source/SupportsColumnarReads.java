package dev.freshet.executor.source;

import dev.freshet.executor.vector.VectorBatch;
import java.util.function.Consumer;

/**
 * Source that can hand over a range of offsets as {@link VectorBatch}es of primitive columns
 * (and dictionary-encoded strings), so
 * that a query's hot loop reads no {@code Object[]} and no boxed value per row.
 *
 * <pre>{@code
 * VectorBatch batch = VectorBatch.of(new VectorType[] {VectorType.LONG}, 4096);  // once per task
 * source.readVectors(start, end, batch, b -> calc.push(b));   // the batch refilled each call
 * }</pre>
 *
 * <p>The caller allocates the batch, with a vector for each column it reads (of the type the
 * stream declares: BIGINT and TIMESTAMP as {@code LONG}, INTEGER as {@code INT}, DOUBLE as
 * {@code DOUBLE}, VARCHAR as {@code STRING}, whose dictionary the source fills) and none for the
 * others, and may reuse it for every range. The consumer sees
 * the rows of {@code (start, end]} in offset order, {@link VectorBatch#capacity()} at a time; the
 * batch is only valid during the call.
 */
public interface SupportsColumnarReads extends Source {
  /**
   * Hands the rows of offsets {@code (start, end]} to {@code batches} in {@code into}, refilled
   * for each call.
   */
  void readVectors(long start, long end, VectorBatch into, Consumer<VectorBatch> batches);
}
