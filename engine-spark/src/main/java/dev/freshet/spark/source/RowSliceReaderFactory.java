package dev.freshet.spark.source;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.StructType;

/**
 * Makes a {@link RowSliceReader} for each {@link RowSlice}, on an executor in the driver's JVM
 * (local mode): it finds the rows by the slice's registration id, so it is serialized with the
 * stream's schema only.
 *
 * <pre>{@code
 * PartitionReader<InternalRow> reader = new RowSliceReaderFactory(schema).createReader(slice);
 * }</pre>
 */
final class RowSliceReaderFactory implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;
  private final StructType schema;

  RowSliceReaderFactory(StructType schema) {
    this.schema = schema;
  }

  @Override public PartitionReader<InternalRow> createReader(InputPartition partition) {
    RowSlice slice = (RowSlice) partition;
    return new RowSliceReader(slice, schema,
        (start, end, rows) -> RegisteredStreams.get(slice.id()).stream()
            .readRange(start, end, rows));
  }
}
