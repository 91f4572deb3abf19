package dev.freshet.spark.source;

import dev.freshet.executor.source.StreamLogException;
import dev.freshet.executor.source.StreamLogReader;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.StructType;

/**
 * Makes a {@link RowSliceReader} for each {@link RowSlice} that reads the durable stream's log
 * in its directory with the executor's {@link StreamLogReader}: for executors outside the
 * driver's JVM, which need the directory on storage they share with the driver.
 *
 * <pre>{@code
 * new StreamLogReaderFactory("CLICKS", "/shared/freshet/streams/CLICKS", schema)
 *     .createReader(slice);
 * }</pre>
 *
 * <p>This factory is serialized into every task, so it keeps no reader itself: the readers
 * live in this JVM, one per stream directory, for as long as it runs, so that the offset index
 * each builds as it reads serves the next batches' tasks, which start where the last ones
 * ended instead of reading the log from its start again.
 */
final class StreamLogReaderFactory implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;
  /** This JVM's log readers, by directory and column count (a re-created stream's may differ). */
  private static final ConcurrentHashMap<String, StreamLogReader> READERS =
      new ConcurrentHashMap<>();
  private final String stream;
  /** The stream's directory, absolute; a String, since a Path is not serializable. */
  private final String directory;
  private final StructType schema;

  StreamLogReaderFactory(String stream, String directory, StructType schema) {
    this.stream = stream;
    this.directory = directory;
    this.schema = schema;
  }

  @Override public PartitionReader<InternalRow> createReader(InputPartition partition) {
    return new RowSliceReader((RowSlice) partition, schema, rows(stream, directory,
        schema.fields().length));
  }

  /** The rows of the log in {@code directory}, read by this JVM's reader of it. */
  static RowSliceReader.Rows rows(String stream, String directory, int fieldCount) {
    StreamLogReader log = reader(directory, fieldCount);
    return (start, end, rows) -> {
      try {
        log.read(start, end, rows);
      } catch (StreamLogException e) {
        throw SourceErrors.logFailed(stream, end, e);
      }
    };
  }

  /** This JVM's reader of the log in {@code directory}. */
  static StreamLogReader reader(String directory, int fieldCount) {
    return READERS.computeIfAbsent(directory + '\n' + fieldCount,
        key -> StreamLogReader.open(Path.of(directory), fieldCount));
  }
}
