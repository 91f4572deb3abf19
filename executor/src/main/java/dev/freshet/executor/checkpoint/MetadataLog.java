package dev.freshet.executor.checkpoint;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.storage.DurableFiles;
import dev.freshet.executor.storage.StorageException;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * Log of one entry per batch id, kept as one file per batch in a directory and named by the
 * decimal batch id (Spark's {@code HDFSMetadataLog}); {@link OffsetLog} and {@link CommitLog}
 * are its two kinds.
 *
 * <p>An entry, once added, is never replaced: {@link #add} returns false if the batch id exists,
 * which is how a second run of the same query on the same checkpoint is detected. Entries are
 * written atomically and durably (temp file, fsync, atomic publish, directory fsync), so after a
 * crash an entry is either complete or absent. Temp files left by a crash are skipped by every
 * listing and deleted when the log is opened.
 *
 * <p>File format: the first line is the log version, {@code v1}; the lines after it are the
 * entry, as each kind documents; the last line is the CRC32C of the lines before it
 * ({@link FileChecksum}), checked at every read. A file whose checksum does not match, whose version is newer than this Freshet reads, or whose
 * lines cannot be parsed, makes reads throw a {@link CheckpointException} that names the file; a
 * failing file system, a {@link StorageException}.
 *
 * <p>Instances hold no mutable state and may be shared between threads; there must be only one
 * writer (one run of the query), which {@link #add} enforces for the batch ids it writes.
 *
 * <pre>{@code
 * OffsetLog offsets = new OffsetLog(root.resolve("offsets"));
 * if (!offsets.add(7, offsetSeq)) {
 *   throw CheckpointException.concurrentUpdate(offsets.batchFile(7));
 * }
 * offsets.latestBatchId();   // OptionalLong[7]
 * offsets.get(7);            // Optional[offsetSeq]
 * offsets.purgeBefore(5);    // deletes offsets/0 .. offsets/4
 * }</pre>
 *
 * @param <T> the entry type
 */
public abstract sealed class MetadataLog<T> permits OffsetLog, CommitLog {
  /** Batch file names: canonical decimal numbers, so that every id has exactly one file name. */
  private static final Pattern BATCH_FILE = Pattern.compile("0|[1-9][0-9]{0,18}");
  /** A version line, {@code v} and digits; Spark's reader takes the same. */
  private static final Pattern VERSION_LINE = Pattern.compile("v[0-9]+");
  /** Longest excerpt of a bad line quoted in an error message. */
  private static final int QUOTE_LIMIT = 40;

  private final Path directory;
  private final int version;

  /**
   * Opens the log in {@code directory}, creating the directory if needed and deleting temp files
   * a crash left there.
   *
   * @param version the version this log writes and the newest it reads
   */
  MetadataLog(Path directory, int version) {
    this.directory = requireNonNull(directory, "directory");
    this.version = version;
    DurableFiles.createDirectories(directory);
    DurableFiles.deleteTempFiles(directory, null);
  }

  /** The lines after the version line that stand for {@code entry}, joined by {@code \n}. */
  abstract String format(T entry);

  /**
   * The entry in {@code lines}, the lines of {@code file} after its version line.
   *
   * @throws CheckpointException if the lines are not in this log's format
   */
  abstract T parse(List<String> lines, Path file);

  /** The directory that holds the log's files. */
  public Path directory() {
    return directory;
  }

  /** The file of batch {@code batchId}, whether it exists or not; for messages and tools. */
  public Path batchFile(long batchId) {
    checkBatchId(batchId);
    return directory.resolve(Long.toString(batchId));
  }

  /**
   * Writes {@code entry} as batch {@code batchId}, unless that batch already has one.
   *
   * @return true if written; false, leaving the existing entry alone, if the batch had one
   * @throws StorageException if the file system fails
   */
  public boolean add(long batchId, T entry) {
    requireNonNull(entry, "entry");
    Path file = batchFile(batchId);
    // Cheap early answer; the atomic create below is what guarantees no overwrite.
    if (Files.exists(file)) {
      return false;
    }
    String text = "v" + version + "\n" + format(entry);
    return DurableFiles.createAtomically(file,
        FileChecksum.seal(text.getBytes(StandardCharsets.UTF_8)));
  }

  /**
   * The entry of batch {@code batchId}, or empty if the log has none.
   *
   * @throws CheckpointException if the file exists but cannot be parsed
   * @throws StorageException if it cannot be read
   */
  public Optional<T> get(long batchId) {
    Path file = batchFile(batchId);
    return DurableFiles.readIfExists(file)
        .map(bytes -> parseFile(FileChecksum.open(bytes, file), file));
  }

  /** The highest batch id with an entry, or empty if the log is empty. */
  public OptionalLong latestBatchId() {
    List<Long> ids = batchIds();
    return ids.isEmpty() ? OptionalLong.empty() : OptionalLong.of(ids.get(ids.size() - 1));
  }

  /** Every batch id with an entry, in increasing order. */
  public List<Long> batchIds() {
    List<Long> ids = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
      for (Path file : files) {
        String name = file.getFileName().toString();
        // Anything else (temp files, files other tools put here) is not an entry.
        if (BATCH_FILE.matcher(name).matches()) {
          try {
            ids.add(Long.parseLong(name));
          } catch (NumberFormatException e) {
            // Nineteen digits above Long.MAX_VALUE: not a batch id either.
          }
        }
      }
    } catch (IOException e) {
      throw StorageException.io("list", directory, e);
    }
    Collections.sort(ids);
    return Collections.unmodifiableList(ids);
  }

  /**
   * Deletes the entries of every batch id below {@code batchId}.
   *
   * <p>Oldest first, so that if it is interrupted the entries left are still the newest ones
   * without gaps.
   *
   * @throws StorageException if the file system fails
   */
  public void purgeBefore(long batchId) {
    for (long id : batchIds()) {
      if (id >= batchId) {
        break;
      }
      Path file = batchFile(id);
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        throw StorageException.io("delete", file, e);
      }
    }
  }

  private T parseFile(byte[] bytes, Path file) {
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      throw CheckpointException.corrupt(file, "it is not UTF-8 text", e);
    }
    if (text.isEmpty()) {
      throw CheckpointException.corrupt(file, "it is empty");
    }
    // Like Spark's getLines, a final newline does not start another line.
    if (text.endsWith("\n")) {
      text = text.substring(0, text.length() - 1);
    }
    List<String> lines = Arrays.asList(text.split("\n", -1));
    checkVersion(lines.get(0), file);
    return parse(lines.subList(1, lines.size()), file);
  }

  /** Spark's {@code validateVersion}: {@code v<n>} with 0 < n <= the version this log reads. */
  private void checkVersion(String line, Path file) {
    if (VERSION_LINE.matcher(line).matches()) {
      BigInteger found = new BigInteger(line.substring(1));
      if (found.compareTo(BigInteger.valueOf(version)) > 0) {
        throw CheckpointException.unsupportedVersion(file, line, version);
      }
      if (found.signum() > 0) {
        return;
      }
    }
    throw CheckpointException.corrupt(file,
        "line 1 is not a log version such as v" + version + ": " + quote(line));
  }

  /** {@code line} in quotes, shortened so that a garbage line cannot flood a message. */
  static String quote(String line) {
    return line.length() <= QUOTE_LIMIT
        ? "'" + line + "'"
        : "'" + line.substring(0, QUOTE_LIMIT) + "...' (" + line.length() + " characters)";
  }

  private static void checkBatchId(long batchId) {
    if (batchId < 0) {
      throw new IllegalArgumentException("batchId must not be negative: " + batchId);
    }
  }
}
