package dev.freshet.executor.source;

import java.util.function.Consumer;

/**
 * Source whose batch splits into input partitions that input tasks read at once, as Spark runs a
 * task per Kafka partition: {@link #readPartition} of different partitions of one batch may run
 * on several threads together, each pushing into its own task's pipeline.
 *
 * <pre>{@code
 * int parts = source.inputPartitions(start, end);
 * pool.submit(() -> source.readPartition(start, end, 1, task1));   // partition 1 on another thread
 * source.readPartition(start, end, 0, task0);                       // partition 0 on this one
 * }</pre>
 *
 * <p>{@link #readRange} still reads the whole batch on one thread; reading every partition with
 * {@code readPartition} gives the same rows (in another order across partitions).
 */
public interface SupportsPartitionedReads extends Source {
  /** How many input partitions batch {@code (start, end]} has: those with records to read. */
  int inputPartitions(long start, long end);

  /**
   * Hands every row of input partition {@code index} of batch {@code (start, end]} to
   * {@code rows}, in offset order; may run while other partitions of the batch are read.
   */
  void readPartition(long start, long end, int index, Consumer<Object[]> rows);
}
