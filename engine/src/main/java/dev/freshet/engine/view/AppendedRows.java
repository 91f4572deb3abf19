package dev.freshet.engine.view;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.store.StoredColumnType;
import dev.freshet.executor.state.StateCodec;
import dev.freshet.executor.storage.DurableFiles;
import dev.freshet.executor.storage.UnsignedBytesType;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.MVStoreException;
import org.h2.mvstore.type.ByteArrayDataType;
import org.h2.mvstore.type.LongDataType;

/**
 * The final rows of a view that its aggregation's state no longer holds: every output row of an
 * APPEND view, and the groups an UPDATE view's watermark evicted (closed windows). Rows are only
 * ever appended, a batch at a time, each batch durable when {@link #addBatch} returns; readers on
 * any thread read a {@link Snapshot} of the batches up to a given one while later batches are
 * appended.
 *
 * <pre>{@code
 * StoredColumnType[] types = {StoredColumnType.BIGINT, StoredColumnType.VARCHAR};
 * try (AppendedRows rows = AppendedRows.open(checkpoint.resolve("view/rows.mv.db"), types, true)) {
 *   rows.addBatch(0, List.of(new Object[] {1L, "a"}), List.of(1L));   // true: durable now
 *   rows.addBatch(0, List.of(new Object[] {1L, "a"}), List.of(1L));   // false: batch 0 is there
 *   AppendedRows.Snapshot s = rows.snapshot(0);
 *   s.rows();     // [1, a]
 *   s.get(1L);    // [1, a]
 * }
 * }</pre>
 *
 * <p><b>Format</b> (an MVStore file, or an in-memory MVStore). Map {@code rows}: sequence number
 * (0, 1, ... in append order, without gaps) to the row, each column as
 * {@link StoredColumnType#write} encodes it (untagged, driven by the column types: a value is read
 * back as the H2 result table would have returned it, a decimal at its column's scale). Map
 * {@code batches}: the id of every batch that appended rows to the sequence number of its first
 * row (a batch without rows has no entry: its rows end where the next batch's begin). Map
 * {@code meta}: {@code format} (1), {@code columns} and {@code keyed} (checked when the file is
 * opened again), {@code lastBatch} (the last batch added, -1 before any) and {@code end} (the
 * sequence number the next row gets). When keyed, map {@code byKey}: the key's
 * {@link StateCodec} bytes followed by the row's sequence number (8 bytes, big-endian) to that
 * sequence number; a key appended twice has two entries, so that a snapshot finds the row it
 * holds. {@code StateCodec}'s encodings are self-delimiting, so no key's bytes begin with
 * another's.
 *
 * <p><b>Durability.</b> MVStore writes nothing between commits (no background thread, no
 * auto-commit buffer), and {@link #addBatch} puts a batch's rows, its {@code batches} entry and
 * {@code meta} in one MVStore commit, then forces the file: a crash leaves the file at the last
 * commit MVStore completed, the batch whole or not at all. Should rows beyond {@code meta}'s
 * {@code end} ever be found (an MVStore that wrote before a commit), opening removes them.
 *
 * <p><b>Consistency without MVStore versions.</b> A row, once committed, never changes and is
 * never removed, and sequence numbers grow: the rows of batches up to {@code b} are exactly those
 * below the first sequence number of the first batch after {@code b} that has rows (or below the
 * committed {@code end}). A snapshot is that bound, and each of its reads goes through the maps'
 * current roots, which hold every row below it whatever the batch thread appends meanwhile (MVMap
 * reads are safe during writes: pages are copy-on-write and the root is swapped atomically). A
 * read registers a version usage with MVStore while it walks a root, so that no chunk it may
 * need is freed under it; a scan does so a segment of {@value #SEGMENT} rows at a time, so a slow
 * reader holds nothing between segments.
 *
 * <p>{@link #addBatch} is for one thread (the batch thread); {@link #lastBatch}, {@link #snapshot}
 * and the snapshots' reads are for any thread. Close only when no reader is left.
 */
public final class AppendedRows implements AutoCloseable {
  /** Version of the format described above, in {@code meta}'s {@code format}. */
  public static final int FORMAT = 1;
  /** Rows read under one version usage while scanning. */
  static final int SEGMENT = 1024;

  private static final String ROWS = "rows";
  private static final String BATCHES = "batches";
  private static final String META = "meta";
  private static final String BY_KEY = "byKey";

  /** What readers may read: the last batch committed and the end of its rows, set together. */
  private record Published(long lastBatch, long end) {
  }

  private final @Nullable Path file;
  private final StoredColumnType[] types;
  private final int[] scales;
  private final MVStore store;
  private final MVMap<Long, byte[]> rows;
  private final MVMap<Long, Long> batches;
  private final MVMap<String, String> meta;
  private final @Nullable MVMap<byte[], Long> byKey;
  /** The batch thread's encoding buffer. */
  private final Bytes encoded = new Bytes();
  private final DataOutputStream out = new DataOutputStream(encoded);
  private volatile Published published;
  private volatile boolean closed;

  private AppendedRows(@Nullable Path file, StoredColumnType[] types, int[] scales,
      MVStore store, boolean keyed) {
    this.file = file;
    this.types = types;
    this.scales = scales;
    this.store = store;
    this.rows = store.openMap(ROWS, new MVMap.Builder<Long, byte[]>()
        .keyType(LongDataType.INSTANCE).valueType(ByteArrayDataType.INSTANCE));
    this.batches = store.openMap(BATCHES, new MVMap.Builder<Long, Long>()
        .keyType(LongDataType.INSTANCE).valueType(LongDataType.INSTANCE));
    this.meta = store.openMap(META);
    this.byKey = keyed ? store.openMap(BY_KEY, new MVMap.Builder<byte[], Long>()
        .keyType(UnsignedBytesType.INSTANCE).valueType(LongDataType.INSTANCE)) : null;
  }

  /**
   * Opens or creates the rows in {@code file} (an MVStore file, e.g. {@code
   * <checkpoint>/view/rows.mv.db}), or in memory when {@code file} is null, with each
   * {@link StoredColumnType#DECIMAL} column at scale 0. A view with decimal columns opens them
   * with {@link #open(Path, StoredColumnType[], int[], boolean)} and its columns' scales.
   *
   * @param keyed whether rows carry a lookup key
   * @param types the view's column types
   * @throws IllegalStateException if the file holds rows of other columns, of another format, or
   *     keyed differently, or cannot be opened (another process has it open, it is damaged)
   */
  public static AppendedRows open(@Nullable Path file, StoredColumnType[] types, boolean keyed) {
    return open(file, types, new int[types.length], keyed);
  }

  /**
   * As {@link #open(Path, StoredColumnType[], boolean)}, with each column's scale ({@link
   * StoredColumnType#scale}), which a {@link StoredColumnType#DECIMAL} column's values are
   * rounded to (half up) as H2 rounds them in a {@code NUMERIC(p, s)} column.
   *
   * <pre>{@code
   * AppendedRows.open(null, new StoredColumnType[] {StoredColumnType.DECIMAL}, new int[] {2}, false)
   * }</pre>
   */
  public static AppendedRows open(@Nullable Path file, StoredColumnType[] types, int[] scales,
      boolean keyed) {
    requireNonNull(types, "types");
    requireNonNull(scales, "scales");
    if (scales.length != types.length) {
      throw new IllegalArgumentException(types.length + " column types but " + scales.length
          + " scales");
    }
    for (StoredColumnType t : types) {
      requireNonNull(t, "types[i]");
    }
    MVStore.Builder builder = new MVStore.Builder()
        // Nothing is written between commits: no background writer, no auto-commit buffer.
        .autoCommitDisabled()
        .autoCommitBufferSize(0);
    boolean existed = false;
    if (file != null) {
      Path parent = file.toAbsolutePath().getParent();
      DurableFiles.createDirectories(parent);
      existed = Files.exists(file);
      builder.fileName(DurableFiles.h2FileName(file));
    }
    MVStore store;
    try {
      store = builder.open();
    } catch (MVStoreException e) {
      throw new IllegalStateException("Cannot open the appended rows of " + file + ": "
          + e.getMessage(), e);
    }
    try {
      if (file != null && !existed) {
        // MVStore forces the file's bytes, never its name.
        DurableFiles.forceDirectory(file.toAbsolutePath().getParent());
      }
      AppendedRows opened = new AppendedRows(file, types.clone(), scales.clone(), store, keyed);
      opened.start(keyed);
      return opened;
    } catch (RuntimeException e) {
      store.closeImmediately();
      if (e instanceof MVStoreException) {
        throw new IllegalStateException("Cannot open the appended rows of " + file + ": "
            + e.getMessage(), e);
      }
      throw e;
    }
  }

  /** Creates the meta entries of a new store, or checks and recovers those of an existing one. */
  private void start(boolean keyed) {
    String columns = columns();
    if (meta.isEmpty()) {
      if (!rows.isEmpty() || !batches.isEmpty()) {
        throw new IllegalStateException(where() + " hold rows but no meta: the file is damaged");
      }
      meta.put("format", Integer.toString(FORMAT));
      meta.put("columns", columns);
      meta.put("keyed", Boolean.toString(keyed));
      meta.put("lastBatch", "-1");
      meta.put("end", "0");
      commit();
      published = new Published(-1, 0);
      return;
    }
    String format = meta.get("format");
    if (!Integer.toString(FORMAT).equals(format)) {
      throw new IllegalStateException(where() + " have format " + format + "; this Freshet reads"
          + " format " + FORMAT);
    }
    if (!columns.equals(meta.get("columns")) || !Boolean.toString(keyed)
        .equals(meta.get("keyed"))) {
      throw new IllegalStateException(where() + " have columns " + meta.get("columns")
          + (Boolean.parseBoolean(meta.get("keyed")) ? ", keyed" : ", not keyed")
          + ", not " + columns + (keyed ? ", keyed" : ", not keyed"));
    }
    long lastBatch = Long.parseLong(meta.get("lastBatch"));
    long end = Long.parseLong(meta.get("end"));
    recover(lastBatch, end);
    published = new Published(lastBatch, end);
  }

  /**
   * Removes what lies beyond the last committed batch: nothing unless MVStore wrote in the middle
   * of a batch, which it is configured not to do.
   */
  private void recover(long lastBatch, long end) {
    Long last = rows.lastKey();
    boolean torn = last != null && last >= end;
    while ((last = rows.lastKey()) != null && last >= end) {
      rows.remove(last);
    }
    Long batch;
    while ((batch = batches.lastKey()) != null && batch > lastBatch) {
      batches.remove(batch);
      torn = true;
    }
    // A batch puts its batches entry first and each row before its key: no torn key without
    // a torn row or batch, so the keys (all of them) are scanned only after a torn batch.
    if (torn && byKey != null) {
      List<byte[]> beyond = new ArrayList<>();
      for (Cursor<byte[], Long> c = byKey.cursor(null); c.hasNext(); ) {
        byte[] key = c.next();
        if (c.getValue() >= end) {
          beyond.add(key);
        }
      }
      for (byte[] key : beyond) {
        byKey.remove(key);
      }
    }
    if (torn) {
      commit();
    }
  }

  /** The columns as {@code meta} records them, e.g. {@code BIGINT,DECIMAL(2),VARCHAR}. */
  private String columns() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < types.length; i++) {
      sb.append(i == 0 ? "" : ",").append(types[i].name());
      if (types[i] == StoredColumnType.DECIMAL) {
        sb.append('(').append(scales[i]).append(')');
      }
    }
    return sb.toString();
  }

  private String where() {
    return file == null ? "The appended rows in memory" : "The appended rows in " + file;
  }

  /** The file this store keeps its rows in, or null in memory. */
  public @Nullable Path file() {
    return file;
  }

  /** The last batch added (also a batch without rows counts), -1 before any. Thread-safe. */
  public long lastBatch() {
    return published.lastBatch;
  }

  /**
   * Appends the rows of batch {@code batchId} in order, durably (MVStore commit and fsync) before
   * it returns, even when {@code rows} is empty; skips a batch it has (a batch re-run after a
   * restart). Called by one thread (the batch thread).
   *
   * @param rows each row's values in Calcite's internal representation, one per column
   * @param keys null unless keyed, else each row's lookup key (a {@code Long}, {@code String},
   *     {@code Integer}, {@code GroupKey}, ... as {@link StateCodec} encodes it)
   * @return false, having done nothing, if {@code batchId <= lastBatch()}
   * @throws IllegalArgumentException if a row has not one value per column, a value is not of its
   *     column's type, or keys are missing, extra or of the wrong count; nothing was added then
   */
  public boolean addBatch(long batchId, List<Object[]> rows, @Nullable List<Object> keys) {
    requireNonNull(rows, "rows");
    checkOpen();
    Published p = published;
    if (batchId <= p.lastBatch) {
      return false;
    }
    if ((keys == null) != (byKey == null)) {
      throw new IllegalArgumentException(byKey == null
          ? "These appended rows are not keyed: pass null keys"
          : "These appended rows are keyed: pass one key per row");
    }
    if (keys != null && keys.size() != rows.size()) {
      throw new IllegalArgumentException(rows.size() + " rows but " + keys.size() + " keys");
    }
    // Everything is encoded before the first put, so that a bad value changes nothing.
    int n = rows.size();
    byte[][] values = new byte[n][];
    byte[][] keyBytes = keys == null ? null : new byte[n][];
    for (int i = 0; i < n; i++) {
      values[i] = encodeRow(batchId, i, rows.get(i));
      if (keyBytes != null) {
        keyBytes[i] = encodeKey(keys.get(i), p.end + i);
      }
    }
    long end = p.end + n;
    try {
      if (n > 0) {
        batches.put(batchId, p.end);
      }
      for (int i = 0; i < n; i++) {
        long seq = p.end + i;
        this.rows.put(seq, values[i]);
        if (keyBytes != null) {
          byKey.put(keyBytes[i], seq);
        }
      }
      meta.put("lastBatch", Long.toString(batchId));
      meta.put("end", Long.toString(end));
      commit();
    } catch (RuntimeException e) {
      // Forget the uncommitted puts, so that a later commit cannot write half a batch.
      try {
        if (!store.isClosed()) {
          store.rollback();
        }
      } catch (RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
    published = new Published(batchId, end);
    return true;
  }

  /** Commits the MVStore and, with a file, forces it. */
  private void commit() {
    store.commit();
    if (file != null) {
      store.sync();
    }
  }

  private byte[] encodeRow(long batchId, int index, Object[] row) {
    requireNonNull(row, "row");
    if (row.length != types.length) {
      throw new IllegalArgumentException("Row " + index + " of batch " + batchId + " has "
          + row.length + " values, not one per column (" + types.length + ")");
    }
    encoded.reset();
    for (int c = 0; c < types.length; c++) {
      try {
        types[c].write(out, row[c], scales[c]);
      } catch (ClassCastException | NumberFormatException e) {
        throw new IllegalArgumentException("Column " + c + " of row " + index + " of batch "
            + batchId + " is " + types[c] + " but holds " + row[c] + " ("
            + row[c].getClass().getName() + ")", e);
      } catch (IOException e) {
        throw new UncheckedIOException(e);   // not from an in-memory buffer
      }
    }
    return encoded.toByteArray();
  }

  /** {@code key}'s {@link StateCodec} bytes, followed by {@code seq} in 8 bytes. */
  private byte[] encodeKey(@Nullable Object key, long seq) {
    encoded.reset();
    try {
      StateCodec.write(out, key);
      out.writeLong(seq);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return encoded.toByteArray();
  }

  /**
   * The rows of batches up to {@code upTo}, unchanged while later batches are appended on
   * another thread. Any thread.
   *
   * <p>A snapshot past the last batch added holds the batches added so far: its {@link
   * Snapshot#upTo} is {@link #lastBatch()}.
   */
  public Snapshot snapshot(long upTo) {
    checkOpen();
    Published p = published;
    if (upTo >= p.lastBatch) {
      return new View(p.lastBatch, p.end);
    }
    // Entries up to p.lastBatch are committed; one after it may belong to the batch being added,
    // which starts at p.end.
    Long next = batches.ceilingKey(upTo + 1);
    long end = next == null || next > p.lastBatch ? p.end : batches.get(next);
    return new View(upTo, end);
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException(where() + " are closed");
    }
  }

  /** Closes the file; idempotent. Every batch added is on disk already. */
  @Override public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      store.close();
    } catch (MVStoreException e) {
      // A store that failed to write (its file system failed) closes without writing.
      store.closeImmediately();
    }
  }

  /** The rows of the batches up to one. */
  public interface Snapshot {
    /** The last batch whose rows this snapshot holds. */
    long upTo();

    /** How many rows it holds. */
    long rowCount();

    /**
     * Every row of batches up to {@link #upTo}, in append order, in Calcite's internal
     * representation as {@link StoredColumnType#readFrom} reads it: a fresh array per row.
     */
    Iterable<Object[]> rows();

    /**
     * The row last appended under {@code key} in batches up to {@link #upTo} (keyed rows only),
     * or null if none was.
     *
     * @throws IllegalStateException if the rows are not keyed
     */
    Object @Nullable [] get(@Nullable Object key);

    /**
     * For each batch {@code b} with {@code since < b <= upTo()} that appended rows, in order:
     * {@code visitor.batch(b, rowsOfB)}. Batches without rows are not visited.
     */
    void forEachBatchAfter(long since, BatchVisitor visitor);
  }

  /** Receives the rows of one batch from {@link Snapshot#forEachBatchAfter}. */
  @FunctionalInterface
  public interface BatchVisitor {
    /** The rows {@code batchId} appended, in order; a list the visitor may keep. */
    void batch(long batchId, List<Object[]> rows);
  }

  /** A snapshot: the rows below sequence number {@code end}. */
  private final class View implements Snapshot {
    private final long upTo;
    private final long end;

    View(long upTo, long end) {
      this.upTo = upTo;
      this.end = end;
    }

    @Override public long upTo() {
      return upTo;
    }

    @Override public long rowCount() {
      return end;
    }

    @Override public Iterable<Object[]> rows() {
      return () -> new RowIterator(0, end);
    }

    @Override public Object @Nullable [] get(@Nullable Object key) {
      if (byKey == null) {
        throw new IllegalStateException(where() + " are not keyed");
      }
      checkOpen();
      if (end == 0) {
        return null;
      }
      byte[] probe = probe(key, end - 1);
      byte[] value;
      MVStore.TxCounter usage = store.registerVersionUsage();
      try {
        byte[] found = byKey.floorKey(probe);
        // The greatest entry at or below (key, end - 1) is key's iff it has key's bytes: keys
        // are self-delimiting, so another key's entries lie wholly before or after key's.
        if (found == null || found.length != probe.length
            || !Arrays.equals(found, 0, found.length - 8, probe, 0, probe.length - 8)) {
          return null;
        }
        value = rows.get(byKey.get(found));
      } finally {
        store.deregisterVersionUsage(usage);
      }
      if (value == null) {
        throw new IllegalStateException(where() + " have a key whose row is missing: the file is damaged");
      }
      return new RowReader(types).decode(value);
    }

    @Override public void forEachBatchAfter(long since, BatchVisitor visitor) {
      requireNonNull(visitor, "visitor");
      checkOpen();
      if (since >= upTo) {
        return;
      }
      // The batches to visit and where their rows begin: few entries, read at once.
      List<long[]> starts = new ArrayList<>();
      for (Cursor<Long, Long> c = batches.cursor(since + 1); c.hasNext(); ) {
        long b = c.next();
        long first = c.getValue();
        if (b > upTo || first >= end) {
          break;
        }
        starts.add(new long[] {b, first});
      }
      for (int i = 0; i < starts.size(); i++) {
        long from = starts.get(i)[1];
        long to = i + 1 < starts.size() ? starts.get(i + 1)[1] : end;
        List<Object[]> batchRows = new ArrayList<>(Math.toIntExact(to - from));
        for (Iterator<Object[]> it = new RowIterator(from, to); it.hasNext(); ) {
          batchRows.add(it.next());
        }
        visitor.batch(starts.get(i)[0], batchRows);
      }
    }

    @Override public String toString() {
      return "AppendedRows.Snapshot[upTo=" + upTo + ", rows=" + end + "]";
    }
  }

  /** {@code key}'s bytes followed by {@code seq}: a {@code byKey} key, on any thread. */
  private static byte[] probe(@Nullable Object key, long seq) {
    Bytes bytes = new Bytes();
    DataOutputStream data = new DataOutputStream(bytes);
    try {
      StateCodec.write(data, key);
      data.writeLong(seq);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** Reads rows {@code [from, to)} a segment at a time, each under a version usage. */
  private final class RowIterator implements Iterator<Object[]> {
    private final long to;
    private final RowReader reader = new RowReader(types);
    private final byte[][] segment;
    private long next;
    private int pos;
    private int count;

    RowIterator(long from, long to) {
      this.next = from;
      this.to = to;
      this.segment = new byte[(int) Math.min(SEGMENT, Math.max(0, to - from))][];
    }

    @Override public boolean hasNext() {
      return pos < count || next < to;
    }

    @Override public Object[] next() {
      if (pos == count) {
        if (next >= to) {
          throw new NoSuchElementException();
        }
        fill();
      }
      return reader.decode(segment[pos++]);
    }

    private void fill() {
      checkOpen();
      int wanted = (int) Math.min(segment.length, to - next);
      int n = 0;
      MVStore.TxCounter usage = store.registerVersionUsage();
      try {
        Cursor<Long, byte[]> c = rows.cursor(next, to - 1, false);
        while (n < wanted && c.hasNext()) {
          long seq = c.next();
          if (seq != next + n) {
            break;
          }
          segment[n++] = c.getValue();
        }
      } finally {
        store.deregisterVersionUsage(usage);
      }
      if (n < wanted) {
        throw new IllegalStateException(where() + " lack row " + (next + n) + " of the "
            + to + " a snapshot holds: the file is damaged");
      }
      Arrays.fill(segment, n, segment.length, null);
      next += n;
      pos = 0;
      count = n;
    }
  }

  /** An unsynchronized, reusable byte buffer for the batch thread's encoding. */
  private static final class Bytes extends OutputStream {
    private byte[] buf = new byte[256];
    private int size;

    void reset() {
      size = 0;
    }

    byte[] toByteArray() {
      return Arrays.copyOf(buf, size);
    }

    private void ensure(int more) {
      if (size + more > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
      }
    }

    @Override public void write(int b) {
      ensure(1);
      buf[size++] = (byte) b;
    }

    @Override public void write(byte[] b, int off, int len) {
      ensure(len);
      System.arraycopy(b, off, buf, size, len);
      size += len;
    }
  }
}
