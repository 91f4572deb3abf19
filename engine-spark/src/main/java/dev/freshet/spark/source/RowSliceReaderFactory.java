package dev.freshet.spark.source;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.StructType;

/**
 * Makes a {@link RowSliceReader} for each {@link RowSlice}, on the executor; serialized with
 * the stream's schema only, since the rows are found by the slice's registration id.
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
    return new RowSliceReader((RowSlice) partition, schema);
  }
}
