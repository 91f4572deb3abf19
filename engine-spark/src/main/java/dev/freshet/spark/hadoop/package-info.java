/**
 * Hadoop's local file system without child processes: where Hadoop's native library is absent
 * (as in Spark's distribution and Maven's jars), Hadoop's {@code file:} file system runs
 * {@code chmod} for every file and directory it makes, and {@code ls -ld} or {@code readlink} to
 * read a file's permissions or link; Spark's checkpoint writes several files per batch. These
 * classes make the same calls with {@code java.nio} instead, with the same results.
 *
 * <p>{@link dev.freshet.spark.hadoop.NioLocalFileSystem#configure} names them in a Hadoop
 * configuration, as {@code fs.file.impl} and {@code fs.AbstractFileSystem.file.impl}.
 */
package dev.freshet.spark.hadoop;
