package dev.freshet.executor.source;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.freshet.executor.storage.DurableFiles;
import dev.freshet.executor.storage.StorageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32;

/**
 * The positions of a durable stream's durable readers (queries with a checkpoint: views and
 * sinks), kept in the stream's {@code readers} file so that retention knows them also while
 * their queries are not running, e.g. after a restart before they are restored.
 *
 * <pre>{@code
 * DurableReaders readers = DurableReaders.open(directory);
 * readers.register("/data/checkpoints/TOTALS/sources/0");   // a new reader: position 0, written
 * readers.advance(key, 4711);                               // in memory, on each commit
 * readers.persist();                                        // before segments are deleted
 * }</pre>
 *
 * <p>A reader is named by the directory its query's checkpoint gives the source
 * ({@link SupportsMetadataDirectory}); a reader whose directory no longer exists was dropped
 * with its query, and is forgotten. The file is written atomically; a position in it is never
 * beyond the one the reader's checkpoint holds (commits are written to the checkpoint before
 * the stream hears of them), so deleting what every position has passed never deletes an offset
 * a restored reader needs. Format: {@code v1}, then one {@code <position>\t<directory>} line per
 * reader, then {@code crc\t<CRC32 of the lines before, hex>}.
 */
final class DurableReaders {
  static final String FILE = "readers";
  private static final String VERSION = "v1";

  private final Path file;
  private final Map<String, Long> positions = new HashMap<>();

  private DurableReaders(Path file) {
    this.file = file;
  }

  /** The readers recorded in {@code directory}, none if it has no file yet. */
  static DurableReaders open(Path directory) {
    DurableReaders readers = new DurableReaders(directory.resolve(FILE));
    try {
      if (!Files.exists(readers.file)) {
        return readers;
      }
      List<String> lines = Files.readAllLines(readers.file, UTF_8);
      if (lines.size() < 2 || !lines.get(0).equals(VERSION)
          || !lines.get(lines.size() - 1).startsWith("crc\t")) {
        throw StreamLogException.corruptFile(readers.file, "it is not '" + VERSION + "', lines"
            + " of readers, and a checksum line");
      }
      StringBuilder body = new StringBuilder();
      for (String line : lines.subList(0, lines.size() - 1)) {
        body.append(line).append('\n');
      }
      String stored = lines.get(lines.size() - 1).substring(4);
      if (!stored.equals(crc(body.toString()))) {
        throw StreamLogException.corruptFile(readers.file, "its checksum " + stored + " does"
            + " not match its lines");
      }
      for (String line : lines.subList(1, lines.size() - 1)) {
        int tab = line.indexOf('\t');
        if (tab < 1) {
          throw StreamLogException.corruptFile(readers.file, "line '" + line + "' is not"
              + " <position><TAB><directory>");
        }
        readers.positions.put(StreamLog.unescape(line.substring(tab + 1)),
            Long.parseLong(line.substring(0, tab)));
      }
      return readers;
    } catch (IOException | NumberFormatException e) {
      throw StreamLogException.ioError("read", readers.file, e);
    }
  }

  /**
   * Registers a reader: a new one at position 0 (it needs every offset the stream holds), and
   * writes the file, so that a crash before its first commit keeps its offsets too. A known
   * reader keeps its recorded position. Returns the position.
   */
  synchronized long register(String key) {
    Long known = positions.get(key);
    if (known != null) {
      return known;
    }
    positions.put(key, 0L);
    persist();
    return 0;
  }

  /** The reader has committed through {@code committed}; in memory until the next persist. */
  synchronized void advance(String key, long committed) {
    positions.computeIfPresent(key, (k, old) -> Math.max(old, committed));
  }

  /** The lowest position, {@link Long#MAX_VALUE} if there are no readers. */
  synchronized long min() {
    long min = Long.MAX_VALUE;
    for (long p : positions.values()) {
      min = Math.min(min, p);
    }
    return min;
  }

  /** Forgets the readers whose directory no longer exists: their queries were dropped. */
  synchronized boolean forgetDropped() {
    return positions.keySet().removeIf(key -> !Files.isDirectory(Path.of(key)));
  }

  /** A copy of the positions, by reader. */
  synchronized Map<String, Long> positions() {
    return new TreeMap<>(positions);
  }

  /** Writes the positions, atomically and forced. */
  synchronized void persist() {
    StringBuilder body = new StringBuilder(VERSION).append('\n');
    for (Map.Entry<String, Long> e : new TreeMap<>(positions).entrySet()) {
      body.append(e.getValue()).append('\t').append(StreamLog.escape(e.getKey())).append('\n');
    }
    String text = body + "crc\t" + crc(body.toString()) + "\n";
    try {
      DurableFiles.replaceAtomically(file, text.getBytes(UTF_8));
    } catch (StorageException e) {
      throw StreamLogException.ioError("write", file, e);
    }
  }

  private static String crc(String text) {
    CRC32 crc = new CRC32();
    crc.update(text.getBytes(UTF_8));
    return Long.toHexString(crc.getValue());
  }
}
