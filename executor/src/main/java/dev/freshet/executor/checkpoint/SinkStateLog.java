package dev.freshet.executor.checkpoint;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.state.StateCodec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The state of a sink after each batch, so that a sink whose output lives in memory (a
 * materialized view's result) survives a restart and never applies a batch twice.
 *
 * <p>Layout: {@code <checkpoint>/sink/<batchId>}, each file written whole (temp file, fsync, link)
 * and holding {@code int version, int rowCount}, then each row in {@link StateCodec}'s encoding.
 * After batch {@code N} is written, files of batches before {@code N - 1} are deleted: the last one
 * is enough to restart, the one before covers a crash while writing it.
 *
 * <pre>{@code
 * SinkStateLog log = new SinkStateLog(checkpoint.root().resolve("sink"));
 * log.write(7, rows);
 * log.latest();   // Optional[Entry[batchId=7, rows=...]]
 * }</pre>
 */
public final class SinkStateLog {
  private static final int VERSION = 1;

  private final Path directory;

  /** The sink's state as of the end of a batch. */
  public record Entry(long batchId, List<Object[]> rows) {
  }

  public SinkStateLog(Path directory) {
    this.directory = requireNonNull(directory, "directory");
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw CheckpointException.io(directory, "create", e);
    }
    AtomicFiles.deleteTempFiles(directory, null);
  }

  /** Records the sink's state after batch {@code batchId}. */
  public void write(long batchId, List<Object[]> rows) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(VERSION);
      out.writeInt(rows.size());
      for (Object[] row : rows) {
        StateCodec.write(out, row);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Path file = directory.resolve(Long.toString(batchId));
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw CheckpointException.io(file, "replace", e);
    }
    if (!AtomicFiles.create(file, bytes.toByteArray())) {
      throw CheckpointException.concurrentUpdate(file);
    }
    for (long id : batchIds()) {
      if (id < batchId - 1) {
        try {
          Files.deleteIfExists(directory.resolve(Long.toString(id)));
        } catch (IOException e) {
          throw CheckpointException.io(directory.resolve(Long.toString(id)), "delete", e);
        }
      }
    }
  }

  /** The state after the latest batch recorded, if any. */
  public Optional<Entry> latest() {
    List<Long> ids = batchIds();
    if (ids.isEmpty()) {
      return Optional.empty();
    }
    long id = ids.get(ids.size() - 1);
    Path file = directory.resolve(Long.toString(id));
    byte[] bytes = AtomicFiles.read(file)
        .orElseThrow(() -> CheckpointException.missing(file, "it was listed a moment ago"));
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      int version = in.readInt();
      if (version != VERSION) {
        throw CheckpointException.unsupportedVersion(file, "v" + version, VERSION);
      }
      int count = in.readInt();
      if (count < 0) {
        throw CheckpointException.corrupt(file, "negative row count " + count);
      }
      List<Object[]> rows = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        rows.add((Object[]) StateCodec.read(in));
      }
      return Optional.of(new Entry(id, rows));
    } catch (IOException | ClassCastException e) {
      throw CheckpointException.corrupt(file, "unreadable sink state", e);
    }
  }

  private List<Long> batchIds() {
    try (Stream<Path> files = Files.list(directory)) {
      return files.map(p -> p.getFileName().toString())
          .filter(n -> n.matches("0|[1-9][0-9]*"))
          .map(Long::parseLong)
          .sorted()
          .toList();
    } catch (IOException e) {
      throw CheckpointException.io(directory, "list", e);
    }
  }
}
