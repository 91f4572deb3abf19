package dev.freshet.executor.source;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.storage.DurableFiles;
import dev.freshet.executor.storage.StorageException;
import dev.freshet.executor.vector.VectorBatch;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * QueryReader reader = durable.newQueryReader();   // one per query; its commits free memory
 * }</pre>
 *
 * <p>A stream {@linkplain #open opened} on a directory is durable: {@link #addData} appends the
 * statement's rows to a log of segments in that directory ({@link StreamLog} documents the
 * files) and forces them to disk before it returns; opening the directory again finds offsets
 * {@code 1..N} with the same rows, reading only the last segment to do so.
 *
 * <p>Retention ({@link StreamRetention}). Each query reads through a {@linkplain #newQueryReader
 * reader} of its own, which hears its query's commits ({@link SupportsCommits}). Rows stay in
 * memory, where reads cost no I/O:
 * <ul>
 *   <li>durable stream: until every running query's reader has committed past them, and at
 *       most {@code memoryMaxBytes} (estimated) of them, oldest first out; a reader that needs
 *       rows no longer in memory reads them from the log.</li>
 *   <li>stream kept in memory only: up to {@code memoryMaxBytes}; beyond that the oldest rows
 *       every running reader has committed past are dropped (a query created later starts after
 *       them), and an {@code INSERT} that would need to drop rows a reader still needs fails
 *       ({@link StreamMemoryFullException}): nothing is lost silently.</li>
 * </ul>
 * On disk, a whole segment (never the active one) is deleted once every durable reader (a query
 * with a checkpoint, running or not) and every running reader has committed past it and its last
 * row was written longer than {@code retention} ago; this runs when a reader commits or a segment
 * fills, never per row. A reader starting at offset 0 (a new query) starts at the oldest offset
 * the stream still holds ({@link #oldestOffset}); one that asks for a deleted offset fails
 * ({@link StreamLogException.Code#DELETED}).
 *
 * <p>Writers are serialized by the write lock, which covers the disk write and the fsync; readers
 * take only the offsets' lock, briefly, so an fsync in progress never blocks them. An offset
 * becomes visible to readers (and listeners hear of it) only once it is on disk, so no query sees
 * a row that a crash could take back.
 */
public final class MemoryStream implements SupportsColumnarReads, SupportsQueryReaders,
    AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MemoryStream.class);
  /** Compacts the held list once this many evicted slots lead it. */
  private static final int COMPACT_AT = 1024;

  private final String name;
  private final int fieldCount;
  /** The durable log, or null for a stream kept in memory only. */
  private final StreamLog log;
  /** The durable readers' positions, or null for a stream kept in memory only. */
  private final DurableReaders durableReaders;
  private final Path directory;
  private final StreamRetention retention;
  /** The bound of all streams' rows in memory together, which {@link #heldBytes} counts in. */
  private final StreamMemoryPool pool;
  /** Held by writers (and {@link #close}) for the whole append, fsync included. */
  private final Object writeLock = new Object();
  /** Serializes retention's deletions of segments. */
  private final Object retentionLock = new Object();
  /**
   * The readers' lock: guards {@link #held}, {@link #head}, {@link #firstHeld},
   * {@link #heldBytes}, {@link #latest} and {@link #readers}; held only briefly.
   */
  private final Object lock = new Object();
  /**
   * The statements in memory: offset {@code firstHeld + i - head} at index {@code i >= head};
   * the slots before {@code head} were evicted and are cleared now and then.
   */
  private final ArrayList<Held> held = new ArrayList<>();
  private int head;
  private long firstHeld = 1;
  private long heldBytes;
  /** Whether {@link #close} gave {@link #heldBytes} back to the pool, which then counts no more. */
  private boolean poolReleased;
  private long latest;
  /** The running queries' readers. */
  private final List<StreamReader> readers = new ArrayList<>();
  private final CopyOnWriteArrayList<Runnable> listeners = new CopyOnWriteArrayList<>();

  /** One statement's rows and their estimated size in memory. */
  private record Held(List<Object[]> rows, long bytes) {
  }

  /** Creates a stream kept in memory only, empty, with the default memory bound. */
  public MemoryStream(String name, int fieldCount) {
    this(name, fieldCount, StreamRetention.defaults());
  }

  /** Creates a stream kept in memory only, empty, with {@code retention}'s memory bound. */
  public MemoryStream(String name, int fieldCount, StreamRetention retention) {
    this(name, fieldCount, retention, StreamMemoryPool.unbounded());
  }

  /**
   * Creates a stream kept in memory only, empty, with {@code retention}'s memory bound and
   * {@code pool}'s, which it shares with the engine's other streams.
   */
  public MemoryStream(String name, int fieldCount, StreamRetention retention,
      StreamMemoryPool pool) {
    this(name, fieldCount, null, null, null, retention, pool);
  }

  private MemoryStream(String name, int fieldCount, StreamLog log, DurableReaders durable,
      Path directory, StreamRetention retention, StreamMemoryPool pool) {
    this.name = requireNonNull(name, "name");
    this.fieldCount = fieldCount;
    this.log = log;
    this.durableReaders = durable;
    this.directory = directory;
    this.retention = requireNonNull(retention, "retention");
    this.pool = requireNonNull(pool, "pool");
    if (log != null) {
      this.latest = log.latestOffset();
      this.firstHeld = latest + 1;
    }
  }

  /**
   * Opens the durable stream kept in {@code directory} with the default retention; see
   * {@link #open(String, List, Path, StreamRetention)}.
   */
  public static MemoryStream open(String name, List<StreamColumn> columns, Path directory) {
    return open(name, columns, directory, StreamRetention.defaults());
  }

  /**
   * Opens the durable stream kept in {@code directory}, with the offsets its log holds, or
   * creates it empty if the directory holds no stream. Only the log's last segment is read: a
   * torn last record, left by a crash while it was written and never acknowledged, is truncated
   * away. No row is loaded into memory; readers read older rows from the log.
   *
   * @param name the stream's name, for messages
   * @param columns the stream's columns; they must be those the directory's stream was created
   *     with
   * @param directory the stream's own directory
   * @param retention what the stream keeps in memory and on disk
   * @throws StreamLogException if the stored columns differ
   *     ({@link StreamLogException.Code#COLUMNS_DIFFER}), a file is damaged beyond a torn last
   *     record, or the file system fails
   */
  public static MemoryStream open(String name, List<StreamColumn> columns, Path directory,
      StreamRetention retention) {
    return open(name, columns, directory, retention, StreamMemoryPool.unbounded());
  }

  /**
   * Opens the durable stream kept in {@code directory}, as
   * {@link #open(String, List, Path, StreamRetention)}, its rows in memory counted in
   * {@code pool}, which it shares with the engine's other streams.
   */
  public static MemoryStream open(String name, List<StreamColumn> columns, Path directory,
      StreamRetention retention, StreamMemoryPool pool) {
    requireNonNull(directory, "directory");
    StreamLog log = StreamLog.open(directory, name, columns, retention.segmentBytes());
    DurableReaders durable;
    try {
      durable = DurableReaders.open(directory);
    } catch (RuntimeException e) {
      log.close();
      throw e;
    }
    return new MemoryStream(name, columns.size(), log, durable, directory, retention, pool);
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

  /** What the stream keeps in memory and on disk. */
  public StreamRetention retention() {
    return retention;
  }

  /**
   * Appends the rows of one statement as one new offset and returns that offset; for a durable
   * stream, once the rows are on disk. An empty list adds no offset.
   *
   * @throws IllegalArgumentException if a row has the wrong number of values, or (durable
   *     stream) a value has no encoding; no offset is added then
   * @throws StreamLogException if the rows cannot be written (durable stream); no offset is added
   * @throws StreamMemoryFullException if the stream is kept in memory only and holds as many
   *     rows as its bound allows that a running query still needs; no offset is added
   */
  public long addData(List<Object[]> rows) {
    List<Object[]> copy = new ArrayList<>(rows.size());
    long bytes = 64;
    for (Object[] row : rows) {
      if (row.length != fieldCount) {
        throw new IllegalArgumentException(description() + " expects " + fieldCount
            + " columns per row, got " + row.length);
      }
      copy.add(row.clone());
      bytes += estimateBytes(row);
    }
    if (copy.isEmpty()) {
      return latestOffset();
    }
    List<Object[]> statement = List.copyOf(copy);
    long offset;
    boolean rolled = false;
    synchronized (writeLock) {
      // Only writers add offsets, and they hold the write lock: latest cannot change here.
      offset = latestOffset() + 1;
      if (log == null) {
        synchronized (lock) {
          evict(bytes);
          if (heldBytes > 0 && heldBytes + bytes > retention.memoryMaxBytes()) {
            throw new StreamMemoryFullException(name, laggingReader(), heldBytes,
                retention.memoryMaxBytes());
          }
          if (heldBytes > 0 && pool.wouldExceed(bytes)) {
            throw StreamMemoryFullException.ofAllStreams(name, laggingReader(), heldBytes,
                pool.usedBytes(), pool.maxBytes());
          }
        }
      } else {
        int segments = log.segmentFiles().size();
        log.append(offset, statement);
        rolled = log.segmentFiles().size() != segments;
      }
      synchronized (lock) {
        held.add(new Held(statement, bytes));
        heldBytes += bytes;
        if (!poolReleased) {
          pool.add(bytes);
        }
        latest = offset;
        evict(0);
      }
    }
    for (Runnable listener : listeners) {
      listener.run();
    }
    if (rolled) {
      retainSegments();
    }
    return offset;
  }

  @Override public long latestOffset() {
    synchronized (lock) {
      return latest;
    }
  }

  /**
   * The oldest offset the stream still holds, where a query created now starts: 1 until
   * retention let rows go; {@code latestOffset() + 1} if it holds none.
   */
  public long oldestOffset() {
    if (log != null) {
      return log.oldestOffset();
    }
    synchronized (lock) {
      return firstHeld;
    }
  }

  /** How many statements, and bytes (estimated) of rows, the stream holds in memory now. */
  public long[] heldInMemory() {
    synchronized (lock) {
      return new long[] {held.size() - head, heldBytes};
    }
  }

  /**
   * How many records (statements) opening the durable stream read from its log: those of the
   * last segment only, whatever its history; 0 for a stream kept in memory.
   */
  public long recordsReadAtOpen() {
    return log == null ? 0 : log.recordsReadAtOpen();
  }

  /** The segment files of a durable stream's log, oldest first; empty for a memory stream. */
  public List<Path> segmentFiles() {
    return log == null ? List.of() : log.segmentFiles();
  }

  @Override public QueryReader newQueryReader() {
    StreamReader reader = new StreamReader(this);
    synchronized (lock) {
      // Until it commits (a restored query commits where it resumes), a reader may need every
      // offset the stream holds: its position is 0.
      readers.add(reader);
    }
    return reader;
  }

  @Override public void readRange(long start, long end, Consumer<Object[]> rows) {
    read(start, end, rows, new StreamLogReader.Cursor());
  }

  /**
   * Hands the rows of {@code (start, end]} to {@code rows}: those still in memory from there,
   * older ones from the log. A range from 0 starts at the oldest offset the stream holds.
   */
  void read(long start, long end, Consumer<Object[]> rows, StreamLogReader.Cursor cursor) {
    OffsetRanges.check(start, end);
    List<Held> slice;
    long sliceFirst;
    synchronized (lock) {
      if (end > latest) {
        throw new IllegalArgumentException(description() + " has no offset " + end
            + "; latest is " + latest);
      }
      sliceFirst = Math.max(start + 1, firstHeld);
      slice = sliceFirst > end ? List.of() : new ArrayList<>(held.subList(
          head + (int) (sliceFirst - firstHeld), head + (int) (end - firstHeld) + 1));
    }
    if (start + 1 < sliceFirst) {
      if (log != null) {
        // A new reader (start 0) starts at the oldest offset retention still holds.
        long from = start == 0 ? Math.max(0, log.oldestOffset() - 1) : start;
        if (from < sliceFirst - 1) {
          log.read(from, Math.min(end, sliceFirst - 1), rows, cursor);
        }
      } else if (start > 0) {
        throw new IllegalStateException(description() + " no longer holds offsets from "
            + (start + 1) + ": they left its memory; the oldest it holds is " + sliceFirst);
      }
    }
    for (Held statement : slice) {
      for (Object[] row : statement.rows()) {
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
    readVectors(start, end, into, batches, new StreamLogReader.Cursor());
  }

  void readVectors(long start, long end, VectorBatch into, Consumer<VectorBatch> batches,
      StreamLogReader.Cursor cursor) {
    into.reset();
    read(start, end, row -> {
      into.appendRow(row);
      if (into.isFull()) {
        batches.accept(into);
        into.reset();
      }
    }, cursor);
    if (into.size() > 0) {
      batches.accept(into);
      into.reset();
    }
  }

  @Override public AutoCloseable onNewData(Runnable listener) {
    listeners.add(requireNonNull(listener, "listener"));
    return () -> listeners.remove(listener);
  }

  /** A reader's query has a checkpoint: its position is kept in the stream's readers file. */
  void registerDurable(StreamReader reader, Path checkpointDirectory) {
    if (durableReaders == null) {
      // Kept in memory only: nothing on disk to retain for it.
      return;
    }
    try {
      DurableFiles.createDirectories(checkpointDirectory);
    } catch (StorageException e) {
      throw StreamLogException.ioError("create", checkpointDirectory, e);
    }
    String key = checkpointDirectory.toAbsolutePath().normalize().toString();
    durableReaders.register(key);
    synchronized (lock) {
      reader.durableKey = key;
    }
  }

  /** A reader's query committed through {@code end}: rows and segments it passed may go. */
  void readerCommitted(StreamReader reader, long end) {
    String key;
    synchronized (lock) {
      reader.committed = Math.max(reader.committed, end);
      key = reader.durableKey;
      evict(0);
    }
    if (key != null) {
      durableReaders.advance(key, end);
    }
    try {
      retainSegments();
    } catch (RuntimeException e) {
      // Retention is tried again at the next commit; the query goes on.
      LOG.warn("Retention of {} failed; it is tried again at the next commit", description(), e);
    }
  }

  /** A reader's query stopped: the stream no longer keeps rows in memory for it. */
  void readerClosed(StreamReader reader) {
    synchronized (lock) {
      readers.remove(reader);
      evict(0);
    }
  }

  /** The name of the query whose reader has committed the least; call with the lock held. */
  private String laggingReader() {
    StreamReader lagging = null;
    for (StreamReader r : readers) {
      if (lagging == null || r.committed < lagging.committed) {
        lagging = r;
      }
    }
    return lagging == null ? "(none)" : lagging.queryName;
  }

  /**
   * Lets the oldest statements leave memory while they may: for a durable stream, those every
   * running reader has committed past, and beyond the memory bound the oldest of all (they are
   * in the log); for a stream kept in memory only, beyond the bound, those every running reader
   * has committed past. {@code incoming}: bytes about to be added. Call with the lock held.
   */
  private void evict(long incoming) {
    long minCommitted = Long.MAX_VALUE;
    for (StreamReader r : readers) {
      minCommitted = Math.min(minCommitted, r.committed);
    }
    boolean anyReader = !readers.isEmpty();
    long max = retention.memoryMaxBytes();
    while (head < held.size()) {
      boolean consumed = firstHeld <= minCommitted;
      boolean over = heldBytes + incoming > max || pool.wouldExceed(incoming);
      boolean go = log != null ? (anyReader && consumed) || over : over && consumed;
      if (!go) {
        break;
      }
      heldBytes -= held.get(head).bytes();
      if (!poolReleased) {
        pool.release(held.get(head).bytes());
      }
      held.set(head, null);
      head++;
      firstHeld++;
    }
    if (head >= COMPACT_AT && head * 2 >= held.size()) {
      held.subList(0, head).clear();
      head = 0;
    }
  }

  /**
   * Deletes the log segments that every reader has committed past and whose rows are older than
   * the retention; the durable readers' positions are written first, so that after a crash a
   * reader whose query is not running yet still holds its offsets.
   */
  private void retainSegments() {
    if (log == null) {
      return;
    }
    long olderThan = System.currentTimeMillis() - retention.retention().toMillis();
    // Cheap first: if the running readers alone keep the oldest segment, nothing goes.
    if (!log.mayDelete(minRunningReaderPosition(), olderThan)) {
      return;
    }
    synchronized (retentionLock) {
      if (durableReaders.forgetDropped()) {
        LOG.info("Stream {} forgot readers whose queries were dropped", name);
        durableReaders.persist();
      }
      long min = Math.min(durableReaders.min(), minRunningReaderPosition());
      if (!log.mayDelete(min, olderThan)) {
        return;
      }
      durableReaders.persist();
      log.deleteSegmentsThrough(min, olderThan);
    }
  }

  /** The lowest offset a running reader has committed through; MAX_VALUE if none runs. */
  private long minRunningReaderPosition() {
    long min = Long.MAX_VALUE;
    synchronized (lock) {
      for (StreamReader r : readers) {
        min = Math.min(min, r.committed);
      }
    }
    return min;
  }

  /** The durable readers and their positions, by checkpoint directory; empty if none. */
  public java.util.Map<String, Long> durableReaderPositions() {
    return durableReaders == null ? java.util.Map.of() : durableReaders.positions();
  }

  /** An estimate of a row's bytes on the heap: the array and each boxed value. */
  private static long estimateBytes(Object[] row) {
    long bytes = 16 + 4L * row.length;
    for (Object value : row) {
      if (value == null) {
        continue;
      }
      if (value instanceof String s) {
        bytes += 40 + s.length();
      } else if (value instanceof BigDecimal) {
        bytes += 64;
      } else {
        bytes += 16;
      }
    }
    return bytes;
  }

  /**
   * Releases the log file of a durable stream, and the stream's share of the engine's
   * {@link StreamMemoryPool}; idempotent. The rows stay readable; adding rows to a durable
   * stream fails afterwards.
   */
  @Override public void close() {
    // Its rows no longer count against the engine's streams: it is dropped or the engine closes.
    synchronized (lock) {
      if (!poolReleased) {
        poolReleased = true;
        pool.release(heldBytes);
      }
    }
    if (log != null) {
      synchronized (writeLock) {
        log.close();
      }
    }
  }
}
