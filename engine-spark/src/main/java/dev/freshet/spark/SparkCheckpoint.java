package dev.freshet.spark;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
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

  /**
   * Removes what a crash before the query's first batch left: Spark writes each offset file as a
   * temporary file that it then renames, so a process killed before its first rename leaves
   * {@code offsets/} (and perhaps {@code commits/}, {@code state/}) holding temporary files and
   * no batch; Spark 4.2 then takes the query for a new one and refuses to start in a directory
   * that is not empty ({@code STATE_STORE_CHECKPOINT_LOCATION_NOT_EMPTY}). No batch ran, so no
   * batch reached the view either, and nothing of value is removed. A checkpoint with an offset
   * file is left as it is: Spark resumes from it.
   */
  void clearBeforeFirstBatch(Configuration hadoop) {
    Path root = new Path(location);
    try {
      FileSystem fs = root.getFileSystem(hadoop);
      Path offsets = new Path(root, "offsets");
      if (fs.exists(offsets)) {
        for (FileStatus file : fs.listStatus(offsets)) {
          if (file.getPath().getName().chars().allMatch(Character::isDigit)) {
            return;
          }
        }
      }
      for (String dir : new String[] {"offsets", "commits", "state"}) {
        fs.delete(new Path(root, dir), true);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read Spark's checkpoint " + location, e);
    }
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
