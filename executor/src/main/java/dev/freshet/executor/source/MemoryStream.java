package dev.freshet.executor.source;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.vector.VectorBatch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Stream whose rows arrive by {@code INSERT}: each call of {@link #addData} is one offset, so the
 * rows of one statement become visible together, in one micro-batch, or not at all.
 *
 * <pre>{@code
 * MemoryStream clicks = new MemoryStream("clicks", 2);      // rows are lost with the JVM
 * long offset = clicks.addData(List.of(new Object[] {"a", 1.0}, new Object[] {"b", 2.0}));  // 1
 *
 * MemoryStream durable = MemoryStream.open("CLICKS", columns, dataDir.resolve("streams/CLICKS"));
 * durable.addData(rows);      // returns once the rows are on disk
 * }</pre>
 *
 * <p>A stream {@linkplain #open opened} on a directory is durable: {@link #addData} appends the
 * statement's rows to a log in that directory ({@link StreamLog} documents the files) and forces
 * them to disk before it returns, and opening the directory again replays offsets {@code 1..N}
 * with the same rows. Either way every row is also kept in memory, where queries read it.
 *
 * <p>Writers are serialized by the write lock, which covers the disk write and the fsync; readers
 * take only the offsets' lock, briefly, so an fsync in progress never blocks them. An offset
 * becomes visible to readers (and listeners hear of it) only once it is on disk, so no query sees
 * a row that a crash could take back.
 */
public final class MemoryStream implements SupportsColumnarReads, AutoCloseable {
  private final String name;
  private final int fieldCount;
  /** The durable log, or null for a stream kept in memory only. */
  private final StreamLog log;
  private final Path directory;
  /** Held by writers (and {@link #close}) for the whole append, fsync included. */
  private final Object writeLock = new Object();
  /**
   * Rows of offset {@code i + 1} at index {@code i}; each element is immutable once added. Its
   * monitor is the readers' lock, held only to add or copy elements.
   */
  private final ArrayList<List<Object[]>> offsets = new ArrayList<>();
  private final CopyOnWriteArrayList<Runnable> listeners = new CopyOnWriteArrayList<>();

  /** Creates a stream kept in memory only, empty. */
  public MemoryStream(String name, int fieldCount) {
    this(name, fieldCount, null, null, List.of());
  }

  private MemoryStream(String name, int fieldCount, StreamLog log, Path directory,
      List<List<Object[]>> replayed) {
    this.name = requireNonNull(name, "name");
    this.fieldCount = fieldCount;
    this.log = log;
    this.directory = directory;
    this.offsets.addAll(replayed);
  }

  /**
   * Opens the durable stream kept in {@code directory}, with the offsets its log holds, or
   * creates it empty if the directory holds no stream. A torn last record, left by a crash while
   * it was written and never acknowledged, is truncated away.
   *
   * @param name the stream's name, for messages
   * @param columns the stream's columns; they must be those the directory's stream was created
   *     with
   * @param directory the stream's own directory
   * @throws StreamLogException if the stored columns differ
   *     ({@link StreamLogException.Code#COLUMNS_DIFFER}), a file is damaged beyond a torn last
   *     record, or the file system fails
   */
  public static MemoryStream open(String name, List<StreamColumn> columns, Path directory) {
    requireNonNull(directory, "directory");
    StreamLog.Opened opened = StreamLog.open(directory, name, columns);
    return new MemoryStream(name, columns.size(), opened.log(), directory, opened.records());
  }

  /**
   * Deletes the files of the durable stream kept in {@code directory}, if any; the stream must be
   * closed (or never opened in this process).
   */
  public static void delete(Path directory) {
    StreamLog.delete(requireNonNull(directory, "directory"));
  }

  @Override public String description() {
    return "MemoryStream[" + name + "]";
  }

  /** The directory of a durable stream, or empty for a stream kept in memory only. */
  public Optional<Path> directory() {
    return Optional.ofNullable(directory);
  }

  /**
   * Appends the rows of one statement as one new offset and returns that offset; for a durable
   * stream, once the rows are on disk. An empty list adds no offset.
   *
   * @throws IllegalArgumentException if a row has the wrong number of values, or (durable
   *     stream) a value has no encoding; no offset is added then
   * @throws StreamLogException if the rows cannot be written (durable stream); no offset is added
   */
  public long addData(List<Object[]> rows) {
    List<Object[]> copy = new ArrayList<>(rows.size());
    for (Object[] row : rows) {
      if (row.length != fieldCount) {
        throw new IllegalArgumentException(description() + " expects " + fieldCount
            + " columns per row, got " + row.length);
      }
      copy.add(row.clone());
    }
    if (copy.isEmpty()) {
      return latestOffset();
    }
    List<Object[]> statement = List.copyOf(copy);
    long offset;
    synchronized (writeLock) {
      // Only writers add offsets, and they hold the write lock: the size cannot change here.
      offset = latestOffset() + 1;
      if (log != null) {
        log.append(offset, statement);
      }
      synchronized (offsets) {
        offsets.add(statement);
      }
    }
    for (Runnable listener : listeners) {
      listener.run();
    }
    return offset;
  }

  @Override public long latestOffset() {
    synchronized (offsets) {
      return offsets.size();
    }
  }

  @Override public void readRange(long start, long end, Consumer<Object[]> rows) {
    if (start < 0 || end < start) {
      throw new IllegalArgumentException("bad offset range (" + start + ", " + end + "]");
    }
    List<List<Object[]>> slice;
    synchronized (offsets) {
      if (end > offsets.size()) {
        throw new IllegalArgumentException(description() + " has no offset " + end
            + "; latest is " + offsets.size());
      }
      slice = new ArrayList<>(offsets.subList((int) start, (int) end));
    }
    for (List<Object[]> statement : slice) {
      for (Object[] row : statement) {
        rows.accept(row);
      }
    }
  }

  /**
   * Copies the rows of {@code (start, end]} into {@code into}'s vectors, a batch at a time: the
   * rows are arrays already, so this saves the query's operators, not the stream, their per-row
   * objects.
   */
  @Override public void readVectors(long start, long end, VectorBatch into,
      Consumer<VectorBatch> batches) {
    into.reset();
    readRange(start, end, row -> {
      into.appendRow(row);
      if (into.isFull()) {
        batches.accept(into);
        into.reset();
      }
    });
    if (into.size() > 0) {
      batches.accept(into);
      into.reset();
    }
  }

  @Override public AutoCloseable onNewData(Runnable listener) {
    listeners.add(requireNonNull(listener, "listener"));
    return () -> listeners.remove(listener);
  }

  /**
   * Releases the log file of a durable stream; idempotent. The rows stay readable; adding rows
   * fails afterwards. Nothing happens for a stream kept in memory.
   */
  @Override public void close() {
    if (log != null) {
      synchronized (writeLock) {
        log.close();
      }
    }
  }
}
