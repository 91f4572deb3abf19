package dev.freshet.spark.source;

import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.streaming.MicroBatchStream;
import org.apache.spark.sql.types.StructType;

/**
 * Scan of a registered Freshet stream: all its columns, read as a micro-batch stream (it is its
 * own builder, having nothing to push down).
 *
 * <pre>{@code
 * MicroBatchStream stream = new FreshetScan("CLICKS#1", schema, slicer, readers)
 *     .toMicroBatchStream(checkpointLocation);
 * }</pre>
 */
final class FreshetScan implements ScanBuilder, Scan {
  private final String id;
  private final StructType schema;
  private final RowSlicer slicer;
  private final PartitionReaderFactory readers;

  FreshetScan(String id, StructType schema, RowSlicer slicer, PartitionReaderFactory readers) {
    this.id = id;
    this.schema = schema;
    this.slicer = slicer;
    this.readers = readers;
  }

  @Override public Scan build() {
    return this;
  }

  @Override public StructType readSchema() {
    return schema;
  }

  @Override public String description() {
    return "FreshetSource[" + id + "]";
  }

  /** The stream; its offsets live in Spark's offset log, so it needs no directory of its own. */
  @Override public MicroBatchStream toMicroBatchStream(String checkpointLocation) {
    return new FreshetMicroBatchStream(id, slicer, readers);
  }
}
