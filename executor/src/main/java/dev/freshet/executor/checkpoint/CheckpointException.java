package dev.freshet.executor.checkpoint;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;

/**
 * A query's checkpoint that cannot be used as it is; the message names the file. (A failing file
 * system is a {@link dev.freshet.executor.storage.StorageException}.)
 *
 * <p>The {@link Reason} tells callers apart without parsing the message, for example to map a
 * checkpoint written by a newer Freshet to its own error code. Every instance is made by one of
 * the static factories below, which are the only place the messages are worded.
 *
 * <pre>{@code
 * try {
 *   checkpoint.offsetLog().get(7);
 * } catch (CheckpointException e) {
 *   if (e.reason() == CheckpointException.Reason.UNSUPPORTED_VERSION) {
 *     // offsets/7 was written by a newer Freshet
 *   }
 * }
 * }</pre>
 */
public class CheckpointException extends RuntimeException {
  /** Why a checkpoint could not be used. */
  public enum Reason {
    /** A file the checkpoint must hold is not there. */
    MISSING,
    /** A file is there but cannot be parsed: empty, truncated or not in the expected format. */
    CORRUPT,
    /** A file starts with a version this Freshet does not read. */
    UNSUPPORTED_VERSION,
    /** Files that are each well formed contradict each other or the query. */
    INCONSISTENT,
    /** Another run of the query wrote the same batch first. */
    CONCURRENT_UPDATE
  }

  private final Reason reason;
  private final Path file;

  private CheckpointException(Reason reason, Path file, String message, Throwable cause) {
    super(message, cause);
    this.reason = requireNonNull(reason, "reason");
    this.file = requireNonNull(file, "file");
  }

  /** Why the checkpoint could not be used. */
  public Reason reason() {
    return reason;
  }

  /** The file (or directory) the message is about. */
  public Path file() {
    return file;
  }

  /** {@code file} must exist because {@code why}. */
  public static CheckpointException missing(Path file, String why) {
    return new CheckpointException(Reason.MISSING, file,
        "Checkpoint file " + file + " does not exist, but " + why, null);
  }

  /** {@code file} is not in the format its log writes; {@code what} says which part is wrong. */
  public static CheckpointException corrupt(Path file, String what) {
    return corrupt(file, what, null);
  }

  /** {@code file} is not in the format its log writes, as the parser's {@code cause} shows. */
  public static CheckpointException corrupt(Path file, String what, Throwable cause) {
    return new CheckpointException(Reason.CORRUPT, file,
        "Checkpoint file " + file + " is corrupt or truncated: " + what, cause);
  }

  /** {@code file} starts with {@code version} (e.g. {@code v2}), newer than {@code v<supported>}. */
  public static CheckpointException unsupportedVersion(Path file, String version, int supported) {
    return new CheckpointException(Reason.UNSUPPORTED_VERSION, file,
        "Checkpoint file " + file + " was written by a newer Freshet: its log version is "
            + version + ", but this Freshet reads up to v" + supported
            + "; upgrade Freshet to run this query", null);
  }

  /** {@code file} contradicts the rest of the checkpoint or the query, as {@code what} says. */
  public static CheckpointException inconsistent(Path file, String what) {
    return new CheckpointException(Reason.INCONSISTENT, file,
        "Checkpoint file " + file + " is inconsistent: " + what, null);
  }

  /**
   * {@code file} records that the query read {@code source} up to offset {@code recorded}, but
   * the source's latest offset is {@code latest}: the source lost data or went backwards
   * (Spark's "offset ... is ahead of the source's latest offset"). Running on would skip the
   * rows that the source hands out at those offsets again.
   */
  public static CheckpointException aheadOfSource(Path file, String source, long recorded,
      long latest) {
    return new CheckpointException(Reason.INCONSISTENT, file,
        "Checkpoint file " + file + " records offset " + recorded + " of " + source
            + ", which is ahead of the source's latest offset " + latest + ": the source lost"
            + " offsets " + (latest + 1) + " to " + recorded + " (its files were replaced or"
            + " moved away) or went backwards. Freshet does not skip the rows that will come at"
            + " those offsets: restore the source's files, or drop the view (or query) and"
            + " create it again to start from the source's beginning", null);
  }

  /**
   * {@code file} already existed when this run tried to write it: another run of the same query
   * uses the checkpoint (Spark's "Multiple streaming queries are concurrently using ...").
   */
  public static CheckpointException concurrentUpdate(Path file) {
    return new CheckpointException(Reason.CONCURRENT_UPDATE, file,
        "Checkpoint file " + file + " was written by another run: multiple streaming queries are"
            + " concurrently using this checkpoint", null);
  }
}
