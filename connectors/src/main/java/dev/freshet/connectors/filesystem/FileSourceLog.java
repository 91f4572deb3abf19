package dev.freshet.connectors.filesystem;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.freshet.executor.checkpoint.CheckpointException;
import dev.freshet.executor.checkpoint.FileChecksum;
import dev.freshet.executor.storage.DurableFiles;
import dev.freshet.executor.storage.StorageException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The files a file source has taken, by log offset, as Spark's {@code FileStreamSourceLog}: entry
 * {@code N} lists the files that log offset {@code N} adds, and the offset log's
 * {@code {"logOffset":N}} stands for every file of entries {@code 1..N}. A file listed once is
 * never listed again, so no file is read twice.
 *
 * <p>In a query's checkpoint, entry {@code N} is the file {@code sources/0/N} ({@code N >= 1};
 * {@code sources/0/0} is the initial offset every source with JSON offsets records,
 * {@code {"logOffset":0}}, which this log skips):
 *
 * <pre>
 * v1
 * {"path":"/data/orders/part-0001.csv","timestamp":1796119200000}
 * {"path":"/data/orders/part-0002.csv","timestamp":1796119201000}
 * </pre>
 *
 * <p>Each entry is written atomically and forced ({@link DurableFiles#createAtomically}) before
 * {@link #add} returns, and so before the offset log can name its offset: after a crash an
 * entry is whole or absent, and an offset the offset log holds has its files. Entries are kept
 * for good (there is no compaction yet): they are what tells a restarted query which files it
 * has taken. Without a directory ({@link #inMemory()}, a query without checkpoint) the entries
 * live in memory only.
 *
 * <pre>{@code
 * FileSourceLog log = FileSourceLog.open(checkpoint.sourceDirectory(0));
 * long next = log.latest() + 1;
 * log.add(next, List.of(new LoggedFile("/data/orders/a.csv", mtime)));
 * log.contains("/data/orders/a.csv");   // true, also after a restart
 * }</pre>
 *
 * <p>Thread-safe: one thread adds, others read.
 */
public final class FileSourceLog {
  private static final String VERSION = "v1";
  private static final JsonFactory JSON = new JsonFactory();

  /** Null for a log in memory. */
  private final Path directory;
  private final TreeMap<Long, List<LoggedFile>> entries = new TreeMap<>();
  private final Set<String> paths = new HashSet<>();

  private FileSourceLog(Path directory) {
    this.directory = directory;
  }

  /** A log kept in memory, for a query without checkpoint. */
  public static FileSourceLog inMemory() {
    return new FileSourceLog(null);
  }

  /**
   * The log in {@code directory}, created if missing, with the entries an earlier run wrote;
   * temp files a crash left are deleted.
   *
   * @throws CheckpointException if an entry is not one this log wrote, or one is missing
   *     between two others
   * @throws StorageException if the files cannot be read or the directory created
   */
  public static FileSourceLog open(Path directory) {
    DurableFiles.createDirectories(directory);
    DurableFiles.deleteTempFiles(directory, null);
    FileSourceLog log = new FileSourceLog(directory);
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
      for (Path file : files) {
        String name = file.getFileName().toString();
        if (!name.matches("[1-9][0-9]{0,18}")) {
          continue;   // 0, the initial offset; or not ours
        }
        List<LoggedFile> listed = parse(file, FileChecksum.open(Files.readAllBytes(file), file));
        log.entries.put(Long.parseLong(name), listed);
        for (LoggedFile f : listed) {
          log.paths.add(f.path());
        }
      }
    } catch (IOException e) {
      throw StorageException.io("read", directory, e);
    }
    long expected = 1;
    for (long n : log.entries.keySet()) {
      if (n != expected) {
        throw CheckpointException.corrupt(directory.resolve(Long.toString(expected)),
            "it is missing, but entry " + n + " of the file source's log exists");
      }
      expected++;
    }
    return log;
  }

  /** The directory of the entries, if the log has one. */
  public Optional<Path> directory() {
    return Optional.ofNullable(directory);
  }

  /** The newest entry's log offset; 0 if there is none. */
  public synchronized long latest() {
    return entries.isEmpty() ? 0 : entries.lastKey();
  }

  /** Whether an entry lists the file {@code path}. */
  public synchronized boolean contains(String path) {
    return paths.contains(path);
  }

  /**
   * The files of entry {@code logOffset}, in the order they are read.
   *
   * @throws IllegalArgumentException if there is no such entry
   */
  public synchronized List<LoggedFile> get(long logOffset) {
    List<LoggedFile> files = entries.get(logOffset);
    if (files == null) {
      throw new IllegalArgumentException("the file source's log has no entry " + logOffset
          + " (it has 1 to " + latest() + ")");
    }
    return files;
  }

  /**
   * Adds entry {@code logOffset}, durably if the log has a directory, and returns once it is.
   *
   * @throws IllegalArgumentException if {@code logOffset} is not {@code latest() + 1}, if
   *     {@code files} is empty, or if it lists a file an entry lists already
   * @throws CheckpointException if another writer added the entry meanwhile
   * @throws StorageException if the file system fails
   */
  public void add(long logOffset, List<LoggedFile> files) {
    List<LoggedFile> listed = List.copyOf(files);
    synchronized (this) {
      if (logOffset != latest() + 1) {
        throw new IllegalArgumentException("entry " + logOffset + " does not follow entry "
            + latest());
      }
      if (listed.isEmpty()) {
        throw new IllegalArgumentException("entry " + logOffset + " lists no file");
      }
      for (LoggedFile f : listed) {
        if (paths.contains(f.path())) {
          throw new IllegalArgumentException(f.path() + " is listed already");
        }
      }
    }
    // Written outside the lock (a forced write takes milliseconds): only one thread adds.
    if (directory != null) {
      Path file = directory.resolve(Long.toString(logOffset));
      if (!DurableFiles.createAtomically(file, FileChecksum.seal(serialize(listed)))) {
        throw CheckpointException.concurrentUpdate(file);
      }
    }
    synchronized (this) {
      entries.put(logOffset, listed);
      for (LoggedFile f : listed) {
        paths.add(f.path());
      }
    }
  }

  private static byte[] serialize(List<LoggedFile> files) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      out.write((VERSION + "\n").getBytes(StandardCharsets.UTF_8));
      for (LoggedFile f : files) {
        try (JsonGenerator json = JSON.createGenerator(out)) {
          json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
          json.writeStartObject();
          json.writeStringField("path", f.path());
          json.writeNumberField("timestamp", f.modificationTimeMs());
          json.writeEndObject();
        }
        out.write('\n');
      }
    } catch (IOException e) {
      throw new IllegalStateException("writing to memory failed", e);
    }
    return out.toByteArray();
  }

  private static List<LoggedFile> parse(Path file, byte[] bytes) {
    String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n");
    if (!lines[0].trim().equals(VERSION)) {
      throw CheckpointException.unsupportedVersion(file, lines[0].trim(), 1);
    }
    List<LoggedFile> files = new ArrayList<>();
    for (int i = 1; i < lines.length; i++) {
      if (lines[i].isBlank()) {
        continue;
      }
      files.add(parseLine(file, lines[i]));
    }
    if (files.isEmpty()) {
      throw CheckpointException.corrupt(file, "it lists no file");
    }
    return files;
  }

  private static LoggedFile parseLine(Path file, String line) {
    String path = null;
    Long timestamp = null;
    try (JsonParser json = JSON.createParser(line)) {
      if (json.nextToken() != JsonToken.START_OBJECT) {
        throw CheckpointException.corrupt(file, "a line is not a JSON object: " + line);
      }
      while (json.nextToken() == JsonToken.FIELD_NAME) {
        String field = json.currentName();
        JsonToken value = json.nextToken();
        if (field.equals("path") && value == JsonToken.VALUE_STRING) {
          path = json.getText();
        } else if (field.equals("timestamp") && value == JsonToken.VALUE_NUMBER_INT) {
          timestamp = json.getLongValue();
        } else {
          json.skipChildren();
        }
      }
    } catch (IOException e) {
      throw CheckpointException.corrupt(file, "a line is not valid JSON: " + line, e);
    }
    if (path == null || timestamp == null) {
      throw CheckpointException.corrupt(file, "a line has no \"path\" or no \"timestamp\": "
          + line);
    }
    return new LoggedFile(path, timestamp);
  }
}
