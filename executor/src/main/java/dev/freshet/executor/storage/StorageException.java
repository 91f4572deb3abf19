package dev.freshet.executor.storage;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * The file system failed while Freshet read or wrote one of its files; the message names the
 * action and the file, and the cause is the file system's own error.
 *
 * <p>Every I/O failure of {@link DurableFiles}, and of the checkpoint, state and stream files
 * written through it, is reported by {@link #io}, the one place such a message is worded.
 *
 * <pre>{@code
 * try {
 *   DurableFiles.createDirectories(dir);
 * } catch (StorageException e) {
 *   e.file();     // the file or directory concerned
 *   e.action();   // "create directory"
 * }
 * }</pre>
 */
public final class StorageException extends UncheckedIOException {
  private final String action;
  private final Path file;

  private StorageException(String action, Path file, String message, IOException cause) {
    super(message, cause);
    this.action = action;
    this.file = file;
  }

  /**
   * The file system failed while doing {@code action} ("write", "force", "create directory",
   * ...) on {@code file}.
   */
  public static StorageException io(String action, Path file, IOException cause) {
    requireNonNull(action, "action");
    requireNonNull(file, "file");
    requireNonNull(cause, "cause");
    return new StorageException(action, file, "Cannot " + action + " " + file + " (" + cause
        + "); check that the disk is not full, that the directory is writable, and the"
        + " system log for disk errors", cause);
  }

  /** What Freshet was doing: "write", "force", "list", ... */
  public String action() {
    return action;
  }

  /** The file or directory concerned. */
  public Path file() {
    return file;
  }
}
