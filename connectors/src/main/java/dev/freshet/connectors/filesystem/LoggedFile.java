package dev.freshet.connectors.filesystem;

import static java.util.Objects.requireNonNull;

/**
 * A file of a file source's directory as its {@link FileSourceLog} lists it: where it is, and when
 * it was last modified when it was listed (which orders the files a listing found).
 *
 * <pre>{@code
 * new LoggedFile("/data/orders/part-0001.csv", 1796119200000L);
 * }</pre>
 *
 * @param path the file's absolute path, as the source reads it
 * @param modificationTimeMs its modification time in epoch milliseconds
 */
public record LoggedFile(String path, long modificationTimeMs) {
  public LoggedFile {
    requireNonNull(path, "path");
  }
}
