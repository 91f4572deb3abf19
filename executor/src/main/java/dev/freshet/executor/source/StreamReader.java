package dev.freshet.executor.source;

import dev.freshet.executor.vector.VectorBatch;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * One query's reader of a {@link MemoryStream}: reads the stream's rows (from memory, or from
 * the log once they left memory) and tells the stream how far its query has committed, which is
 * what lets rows leave memory and segments leave the disk.
 *
 * <pre>{@code
 * QueryReader reader = stream.newQueryReader();
 * reader.readRange(0, 3, push);
 * ((SupportsCommits) reader).commit(3);   // offsets 1..3 may leave memory
 * reader.close();                         // the stream no longer waits for it
 * }</pre>
 *
 * <p>A reader named by its query's checkpoint ({@link #useMetadataDirectory}) is durable: the
 * stream keeps its position in its {@code readers} file and keeps the log segments it has not
 * committed past, also while its query is not running.
 */
final class StreamReader implements QueryReader, SupportsColumnarReads,
    SupportsMetadataDirectory, SupportsCommits {
  private final MemoryStream stream;
  /** Where this reader's last read of the log ended; shared by its query's tasks. */
  final StreamLogReader.Cursor cursor = new StreamLogReader.Cursor();
  /** The offset its query has committed through; guarded by the stream's lock. */
  long committed;
  /** The checkpoint directory that names a durable reader, or null. */
  String durableKey;
  /** The query's name, for messages. */
  volatile String queryName = "(not started)";

  StreamReader(MemoryStream stream) {
    this.stream = stream;
  }

  @Override public String description() {
    return stream.description();
  }

  @Override public long latestOffset() {
    return stream.latestOffset();
  }

  @Override public void readRange(long start, long end, Consumer<Object[]> rows) {
    stream.read(start, end, rows, cursor);
  }

  @Override public void readVectors(long start, long end, VectorBatch into,
      Consumer<VectorBatch> batches) {
    stream.readVectors(start, end, into, batches, cursor);
  }

  @Override public AutoCloseable onNewData(Runnable listener) {
    return stream.onNewData(listener);
  }

  @Override public void useMetadataDirectory(Path directory) {
    stream.registerDurable(this, directory);
  }

  @Override public void queryStarted(String name) {
    queryName = name;
  }

  @Override public void commit(long end) {
    stream.readerCommitted(this, end);
  }

  @Override public void close() {
    stream.readerClosed(this);
  }
}
