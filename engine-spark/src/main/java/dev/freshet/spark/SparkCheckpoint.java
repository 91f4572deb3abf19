package dev.freshet.spark;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;

/**
 * Where Spark checkpoints a view's query (offsets, commits, state): a location Spark's Hadoop
 * file systems know, shared by the cluster; {@code temporary} if it belongs to one run only (an
 * engine in memory).
 *
 * <pre>{@code
 * new SparkCheckpoint("hdfs://nn:8020/freshet/PER_USER-6f1c...", false).delete(spark);
 * }</pre>
 */
record SparkCheckpoint(String location, boolean temporary) {
  SparkCheckpoint {
    requireNonNull(location, "location");
  }

  /** Deletes the checkpoint with everything in it, wherever it is. */
  void delete(SparkSession spark) {
    Path path = new Path(location);
    try {
      FileSystem fs = path.getFileSystem(spark.sparkContext().hadoopConfiguration());
      fs.delete(path, true);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete Spark's checkpoint " + location, e);
    }
  }
}
