package dev.freshet.spark.source;

import java.nio.file.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.StructType;

/**
 * Makes a {@link RowSliceReader} for each {@link RowSlice} that reads the durable stream's log
 * ({@link StreamLogFile}) in its directory: for executors outside the driver's JVM, which need
 * the directory on storage they share with the driver.
 *
 * <pre>{@code
 * new StreamLogReaderFactory("CLICKS", "/shared/freshet/streams/CLICKS", schema)
 *     .createReader(slice);
 * }</pre>
 */
final class StreamLogReaderFactory implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;
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
    StreamLogFile log = new StreamLogFile(stream, Path.of(directory), schema.fields().length);
    return new RowSliceReader((RowSlice) partition, schema, log::readRange);
  }
}
