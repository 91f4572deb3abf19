package dev.freshet.spark.source;

import dev.freshet.executor.source.MemoryStream;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.streaming.MicroBatchStream;
import org.apache.spark.sql.connector.read.streaming.Offset;

/**
 * A registered Freshet stream as Spark's micro-batch stream: Spark's offsets are the stream's
 * offsets, and a batch reads the rows of {@code (start, end]}.
 *
 * <pre>{@code
 * FreshetMicroBatchStream clicks = new FreshetMicroBatchStream("CLICKS#1", slicer, readers);
 * Offset end = clicks.latestOffset();                               // {"offset":3}, or null
 * clicks.planInputPartitions(clicks.initialOffset(), end);          // rows of INSERTs 1..3
 * }</pre>
 *
 * <p>Spark writes a batch's end offset to its offset log before it plans the batch, and the
 * stream never changes the rows of an offset it has acknowledged, so a batch replayed from the
 * log reads the same rows. The stream is looked up by registration id at each call, so a
 * closed registration fails the next batch with SQLSTATE 42S02.
 */
final class FreshetMicroBatchStream implements MicroBatchStream {
  private final String id;
  private final RowSlicer slicer;
  private final PartitionReaderFactory readers;

  /**
   * A stream of the registration {@code id}; {@code readers} reads the slices that
   * {@code slicer} makes, from the driver's memory or from the stream's log.
   */
  FreshetMicroBatchStream(String id, RowSlicer slicer, PartitionReaderFactory readers) {
    this.id = id;
    this.slicer = slicer;
    this.readers = readers;
  }

  @Override public Offset initialOffset() {
    return new FreshetOffset(0);
  }

  /**
   * The stream's latest offset, or null while it has none: Spark takes null for "no data yet",
   * where an offset of 0 would make it run an empty first batch (it compares the offset with no
   * committed offset at all).
   */
  @Override public Offset latestOffset() {
    long latest = stream().latestOffset();
    return latest == 0 ? null : new FreshetOffset(latest);
  }

  @Override public InputPartition[] planInputPartitions(Offset start, Offset end) {
    long from = ((FreshetOffset) start).offset();
    long to = ((FreshetOffset) end).offset();
    MemoryStream stream = stream();
    long latest = stream.latestOffset();
    if (Math.max(from, to) > latest) {
      // A checkpoint of rows the stream does not have (any more): never read a different row.
      throw SourceErrors.offsetBeyondStream(RegisteredStreams.get(id).name(),
          Math.max(from, to), latest);
    }
    return slicer.slices(id, stream, from, to).toArray(new InputPartition[0]);
  }

  @Override public PartitionReaderFactory createReaderFactory() {
    return readers;
  }

  @Override public Offset deserializeOffset(String json) {
    return FreshetOffset.parse(RegisteredStreams.get(id).name(), json);
  }

  /**
   * Does nothing: the stream keeps every row, for Freshet's own queries and for INSERT's
   * durability, so Spark having finished with some cannot free them.
   */
  @Override public void commit(Offset end) {
  }

  /** Does nothing: the registration, not the query, owns the stream. */
  @Override public void stop() {
  }

  private MemoryStream stream() {
    return RegisteredStreams.get(id).stream();
  }

  @Override public String toString() {
    return "FreshetSource[" + id + "]";
  }
}
