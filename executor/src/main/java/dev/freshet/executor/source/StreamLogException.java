package dev.freshet.executor.source;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Failure to open, read or append to the log of a durable {@link MemoryStream}; the message names
 * the file and, for a damaged record, the offset and the byte position.
 *
 * <pre>{@code
 * try {
 *   MemoryStream.open("CLICKS", columns, directory);
 * } catch (StreamLogException e) {
 *   if (e.code() == StreamLogException.Code.COLUMNS_DIFFER) { ... }
 * }
 * }</pre>
 */
public final class StreamLogException extends RuntimeException {
  /** What went wrong, for callers that map failures to their own error codes. */
  public enum Code {
    /** A file is damaged where no crash could have damaged it; nothing is discarded. */
    CORRUPT,
    /** A file was written by a newer Freshet, in a format this one does not know. */
    UNSUPPORTED_VERSION,
    /** The log holds rows of other columns than the stream is opened with. */
    COLUMNS_DIFFER,
    /** The file system refused a read or a write. */
    IO_ERROR,
    /** Offsets a reader asked for were deleted by the stream's {@code 'retention'}. */
    DELETED,
    /** A reader asked for offsets past the log's acknowledged end. */
    NOT_ACKNOWLEDGED
  }

  private final Code code;
  private final Path file;

  private StreamLogException(Code code, Path file, String message, Throwable cause) {
    super(message, cause);
    this.code = requireNonNull(code, "code");
    this.file = requireNonNull(file, "file");
  }

  /** What went wrong. */
  public Code code() {
    return code;
  }

  /** The file (or the stream's directory) concerned. */
  public Path file() {
    return file;
  }

  /** A record that fails its checks and is not the torn tail of a crash. */
  static StreamLogException corrupt(Path file, long offset, long position, String why) {
    return new StreamLogException(Code.CORRUPT, file, "Stream log " + file + " is corrupt at"
        + " offset " + offset + " (byte " + position + "): " + why + ". It is not the torn last"
        + " record of a crash, and the records from there on may have been acknowledged, so"
        + " Freshet does not discard them: restore the file from a backup, or move the stream's"
        + " directory " + file.getParent() + " away to start the stream empty", null);
  }

  /**
   * A log that ends after offset {@code last} (at byte {@code position}), below the acknowledged
   * end that {@code ackFile} records: acknowledged records were cut off.
   */
  static StreamLogException acknowledgedMissing(Path file, long last, long position,
      long acknowledged, long acknowledgedEnd, Path ackFile) {
    return new StreamLogException(Code.CORRUPT, file, "Stream log " + file + " ends after"
        + " offset " + last + " (byte " + position + "), but offsets up to " + acknowledged
        + " (byte " + acknowledgedEnd + ") were acknowledged, as " + ackFile + " records: the"
        + " file lost acknowledged records, and Freshet neither drops them nor hands their"
        + " offsets out again. Restore the file from a backup, or move the stream's directory "
        + file.getParent() + " away to start the stream empty", null);
  }

  /** A damaged metadata or log file header. */
  static StreamLogException corruptFile(Path file, String why) {
    return new StreamLogException(Code.CORRUPT, file, "Stream file " + file + " is corrupt: "
        + why + ". Restore it from a backup, or move the stream's directory " + file.getParent()
        + " away to start the stream empty", null);
  }

  /** A file whose first line names a version other than {@code v1}. */
  static StreamLogException unsupportedVersion(Path file, String version) {
    return new StreamLogException(Code.UNSUPPORTED_VERSION, file, "Stream file " + file
        + " has format version '" + version + "', but this Freshet reads v1 only: it was"
        + " written by a newer Freshet. Open the data directory with that version", null);
  }

  /** A log opened with other columns than it was created with. */
  static StreamLogException columnsDiffer(Path directory, String stream,
      List<StreamColumn> stored, List<StreamColumn> declared) {
    return new StreamLogException(Code.COLUMNS_DIFFER, directory, "Stream '" + stream
        + "' has rows in " + directory + " with columns " + list(stored) + ", but is declared"
        + " with columns " + list(declared) + ". Declare the columns of the stored rows to"
        + " reopen them, or move " + directory + " away to start the stream empty", null);
  }

  /** A read or write that the file system refused. */
  static StreamLogException ioError(String action, Path file, Exception cause) {
    return new StreamLogException(Code.IO_ERROR, file, "Cannot " + action + " " + file + " ("
        + cause + ")", cause);
  }

  /** The log of a stream that was closed, e.g. by {@code DROP STREAM} or engine shutdown. */
  static StreamLogException closed(Path file) {
    return new StreamLogException(Code.IO_ERROR, file, "Stream log " + file + " is closed: the"
        + " stream was dropped or its engine closed", null);
  }

  /**
   * A read of offsets from {@code first} on, whose segment the stream's retention deleted: the
   * reader fell behind the stream's {@code 'retention'}; never skipped silently.
   */
  static StreamLogException deleted(Path directory, long first, long oldest) {
    return new StreamLogException(Code.DELETED, directory, "Offsets from " + first + " of the"
        + " stream in " + directory + " were deleted by its 'retention'; the oldest it holds is "
        + oldest + ". The reader fell behind the retention: re-create the query to start at"
        + " the oldest offset, and give the stream a longer 'retention'", null);
  }

  /**
   * A read up to {@code offset} of a log acknowledged up to {@code acknowledged} only: the
   * reader does not see the writer's files (storage not shared), or asked for too much.
   */
  static StreamLogException notAcknowledged(Path file, long offset, long acknowledged) {
    return new StreamLogException(Code.NOT_ACKNOWLEDGED, file, "Stream log " + file + " is"
        + " acknowledged up to offset " + acknowledged + ", not up to offset " + offset + ":"
        + " the reader does not see the files the stream writes. Read the stream's directory"
        + " on storage its writer shares", null);
  }

  private static String list(List<StreamColumn> columns) {
    return columns.stream().map(StreamColumn::toString)
        .collect(Collectors.joining(", ", "(", ")"));
  }
}
