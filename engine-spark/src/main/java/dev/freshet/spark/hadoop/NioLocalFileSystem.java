package dev.freshet.spark.hadoop;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.LocalFileSystem;

/**
 * Hadoop's {@code file:} file system (checksummed, as {@link LocalFileSystem}) over
 * {@link NioRawLocalFileSystem}: the same files, permissions and checksums, no child process per
 * file.
 *
 * <pre>{@code
 * Configuration conf = spark.sparkContext().hadoopConfiguration();
 * NioLocalFileSystem.configure(conf);   // file: paths, FileSystem and FileContext alike
 * }</pre>
 */
public class NioLocalFileSystem extends LocalFileSystem {
  /** The key naming the {@code FileSystem} class of {@code file:} paths. */
  public static final String FILE_SYSTEM_KEY = "fs.file.impl";
  /** The key naming the {@code AbstractFileSystem} class ({@code FileContext}'s) of them. */
  public static final String ABSTRACT_FILE_SYSTEM_KEY = "fs.AbstractFileSystem.file.impl";

  public NioLocalFileSystem() {
    super(new NioRawLocalFileSystem());
  }

  /**
   * Names these classes for {@code file:} paths in {@code conf}, for both of Hadoop's APIs
   * (Spark writes checkpoints through {@code FileContext}, reads some through
   * {@code FileSystem}).
   */
  public static void configure(Configuration conf) {
    conf.set(FILE_SYSTEM_KEY, NioLocalFileSystem.class.getName());
    conf.set(ABSTRACT_FILE_SYSTEM_KEY, NioLocalFs.class.getName());
  }
}
