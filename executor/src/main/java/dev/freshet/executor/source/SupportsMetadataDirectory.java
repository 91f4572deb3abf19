package dev.freshet.executor.source;

import java.nio.file.Path;

/**
 * Source that keeps metadata of its own in the checkpoint of the query that reads it, as Spark
 * hands each source {@code <checkpoint>/sources/<n>}: a file source's list of the files each of
 * its offsets stands for. A query with a checkpoint names the directory before it starts; a
 * source never told keeps its metadata in memory (a query without a checkpoint starts afresh).
 *
 * <pre>{@code
 * if (checkpoint != null && source instanceof SupportsMetadataDirectory durable) {
 *   durable.useMetadataDirectory(checkpoint.sourceDirectory(0));   // <root>/sources/0
 * }
 * }</pre>
 */
public interface SupportsMetadataDirectory extends Source {
  /**
   * Keeps the source's metadata in {@code directory} (created if missing), reading what an
   * earlier run of the query left there. Called once, before any offset is asked for or read.
   *
   * @throws IllegalStateException if the source was read already
   */
  void useMetadataDirectory(Path directory);
}
