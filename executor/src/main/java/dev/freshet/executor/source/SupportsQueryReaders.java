package dev.freshet.executor.source;

import java.util.function.Consumer;

/**
 * Source of which each streaming query reads through an instance of its own, with its own read
 * positions and connections, as each Spark query gets its own {@code MicroBatchStream}: the
 * stream's source describes the data; its readers read it. A reader is closed when its query
 * stops.
 *
 * <pre>{@code
 * Source reader = stream instanceof SupportsQueryReaders shared ? shared.newQueryReader() : stream;
 * // ... run the query on reader; MicroBatchExecution closes a QueryReader when the query stops
 * }</pre>
 */
public interface SupportsQueryReaders extends Source {
  /** A new reader for one query; whoever runs the query closes it. */
  QueryReader newQueryReader();

  /**
   * Whether its readers are {@link SupportsPartitionedReads}: a plan then gives the query input
   * tasks, which read a batch's partitions at once.
   */
  default boolean readersPartition() {
    return false;
  }

  /** Always 0: only a query's reader has offsets. */
  @Override default long latestOffset() {
    return 0;
  }

  /**
   * Refused: the stream is read through {@link #newQueryReader()}.
   *
   * @throws UnsupportedOperationException always
   */
  @Override default void readRange(long start, long end, Consumer<Object[]> rows) {
    throw new UnsupportedOperationException(description() + " is read by a query's own reader");
  }

  /** Nothing to hear: a query's reader signals its own new data. */
  @Override default AutoCloseable onNewData(Runnable listener) {
    return () -> { };
  }
}
