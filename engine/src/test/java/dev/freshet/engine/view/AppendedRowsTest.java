package dev.freshet.engine.view;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.store.StoredColumnType;
import dev.freshet.executor.state.GroupKey;
import dev.freshet.executor.storage.UnsignedBytesType;
import dev.freshet.testkit.CrashTest;
import dev.freshet.testkit.crash.ChildJvm;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.type.SqlTypeName;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.type.ByteArrayDataType;
import org.h2.mvstore.type.LongDataType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AppendedRowsTest {
  private static final JavaTypeFactoryImpl TYPES = new JavaTypeFactoryImpl();
  /** (K BIGINT, NAME VARCHAR): the columns of most cases. */
  private static final StoredColumnType[] K_NAME =
      {StoredColumnType.BIGINT, StoredColumnType.VARCHAR};
  private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(30);

  @TempDir Path dir;
  private final List<AppendedRows> opened = new ArrayList<>();

  @AfterEach void close() {
    for (AppendedRows rows : opened) {
      rows.close();
    }
  }

  private AppendedRows open(Path file, StoredColumnType[] types, boolean keyed) {
    AppendedRows rows = AppendedRows.open(file, types, keyed);
    opened.add(rows);
    return rows;
  }

  private Path file() {
    return dir.resolve("view").resolve("rows.mv.db");
  }

  private static Object[] row(Object... values) {
    return values;
  }

  /** A batch of rows (List.of would take a single row for its elements). */
  private static List<Object[]> batch(Object[]... rows) {
    return List.of(rows);
  }

  /** A snapshot's rows, as lists. */
  private static List<List<Object>> rows(AppendedRows.Snapshot snapshot) {
    List<List<Object>> rows = new ArrayList<>();
    for (Object[] row : snapshot.rows()) {
      rows.add(Arrays.asList(row));
    }
    return rows;
  }

  /** The row (k, "r" + k) of the concurrency and crash cases. */
  static Object[] numbered(long k) {
    return new Object[] {k, "r" + k};
  }

  @Test void shouldRoundTripEveryStoredTypeAsH2ReturnsIt() throws Exception {
    RelDataType rowType = TYPES.createTypeWithNullability(TYPES.builder()
        .add("B", SqlTypeName.BOOLEAN).add("T", SqlTypeName.TINYINT)
        .add("S", SqlTypeName.SMALLINT).add("I", SqlTypeName.INTEGER)
        .add("L", SqlTypeName.BIGINT).add("D", SqlTypeName.DECIMAL, 12, 3)
        .add("R", SqlTypeName.REAL).add("F", SqlTypeName.DOUBLE)
        .add("V", SqlTypeName.VARCHAR, 20).add("Y", SqlTypeName.VARBINARY, 4)
        .add("DT", SqlTypeName.DATE).add("TS", SqlTypeName.TIMESTAMP, 3).build(), true);
    List<RelDataTypeField> fields = rowType.getFieldList();
    StoredColumnType[] types = new StoredColumnType[fields.size()];
    int[] scales = new int[types.length];
    for (int i = 0; i < types.length; i++) {
      types[i] = StoredColumnType.of(fields.get(i).getType(), "V", fields.get(i).getName());
      scales[i] = StoredColumnType.scale(fields.get(i).getType());
    }
    // The decimal has more digits than its scale: kept rounded half up, as H2 keeps it.
    Object[] values = {true, (byte) 7, (short) 300, 70_000, 1L << 40,
        new BigDecimal("12345.6785"), 1.5f, 2.25, "x\"y", new ByteString(new byte[] {1, 2}),
        19_000, 1_700_000_000_123L};
    Object[] nulls = new Object[values.length];
    AppendedRows rows = AppendedRows.open(file(), types, scales, false);
    assertTrue(rows.addBatch(0, List.of(values.clone(), nulls), null));
    rows.close();
    AppendedRows reopened = AppendedRows.open(file(), types, scales, false);
    opened.add(reopened);

    List<List<Object>> read = rows(reopened.snapshot(0));
    Object[] expected = values.clone();
    expected[5] = new BigDecimal("12345.679");
    assertEquals(List.of(Arrays.asList(expected), Arrays.asList(nulls)), read);
    for (int i = 0; i < values.length; i++) {
      assertEquals(values[i].getClass(), read.get(0).get(i).getClass(), fields.get(i).getName());
    }
    // What an H2 result table returned for the row: the same values, the decimal at scale 3.
    assertEquals(Arrays.asList(expected), h2RoundTrip(types, scales, values));
  }

  /** {@code values} written to and read from an H2 table of {@code types}, as ResultTable does. */
  private static List<Object> h2RoundTrip(StoredColumnType[] types, int[] scales,
      Object[] values) throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:h2:mem:appended" + System.nanoTime());
         Statement s = c.createStatement()) {
      StringBuilder ddl = new StringBuilder("CREATE TABLE T (");
      StringBuilder marks = new StringBuilder();
      for (int i = 0; i < types.length; i++) {
        String type = types[i] == StoredColumnType.DECIMAL ? "NUMERIC(12, " + scales[i] + ")"
            : switch (types[i]) {
              case DOUBLE -> "DOUBLE PRECISION";
              case VARCHAR -> "CHARACTER VARYING";
              case VARBINARY -> "BINARY VARYING";
              default -> types[i].name();
            };
        ddl.append(i == 0 ? "" : ", ").append("C").append(i).append(' ').append(type);
        marks.append(i == 0 ? "?" : ", ?");
      }
      s.execute(ddl.append(')').toString());
      try (PreparedStatement insert = c.prepareStatement("INSERT INTO T VALUES (" + marks
          + ")")) {
        for (int i = 0; i < values.length; i++) {
          Object v = values[i] instanceof ByteString ? ((ByteString) values[i]).getBytes()
              : values[i];
          insert.setObject(i + 1, v);
        }
        insert.executeUpdate();
      }
      List<Object> read = new ArrayList<>();
      try (ResultSet r = s.executeQuery("SELECT * FROM T")) {
        assertTrue(r.next());
        read.add(r.getBoolean(1));
        read.add(r.getByte(2));
        read.add(r.getShort(3));
        read.add(r.getInt(4));
        read.add(r.getLong(5));
        read.add(r.getBigDecimal(6));
        read.add(r.getFloat(7));
        read.add(r.getDouble(8));
        read.add(r.getString(9));
        read.add(new ByteString(r.getBytes(10)));
        read.add(r.getInt(11));
        read.add(r.getLong(12));
      }
      return read;
    }
  }

  @Test void shouldSkipABatchItHasAfterReopening() {
    AppendedRows rows = AppendedRows.open(file(), K_NAME, false);
    assertEquals(-1, rows.lastBatch());
    assertTrue(rows.addBatch(0, batch(row(1L, "a")), null));
    assertTrue(rows.addBatch(1, batch(row(2L, "b"), row(3L, "c")), null));
    rows.close();

    AppendedRows reopened = open(file(), K_NAME, false);
    assertEquals(1, reopened.lastBatch());
    // The batches re-run after a restart: nothing is added twice.
    assertFalse(reopened.addBatch(0, batch(row(1L, "a")), null));
    assertFalse(reopened.addBatch(1, batch(row(9L, "other")), null));
    assertEquals(1, reopened.lastBatch());
    assertTrue(reopened.addBatch(2, batch(row(4L, "d")), null));
    assertEquals(List.of(List.of(1L, "a"), List.of(2L, "b"), List.of(3L, "c"),
        List.of(4L, "d")), rows(reopened.snapshot(2)));
  }

  @Test void shouldKeepEverythingAfterCloseAndReopen() {
    AppendedRows rows = AppendedRows.open(file(), K_NAME, true);
    rows.addBatch(0, batch(row(1L, "a"), row(2L, "b")), List.of(1L, 2L));
    rows.addBatch(1, List.of(), List.of());          // a batch without rows counts too
    rows.addBatch(4, batch(row(3L, "c")), List.of(3L));
    rows.close();
    rows.close();                                    // idempotent

    AppendedRows reopened = open(file(), K_NAME, true);
    assertEquals(4, reopened.lastBatch());
    AppendedRows.Snapshot all = reopened.snapshot(4);
    assertEquals(List.of(List.of(1L, "a"), List.of(2L, "b"), List.of(3L, "c")), rows(all));
    assertEquals(3, all.rowCount());
    assertArrayEquals(row(2L, "b"), all.get(2L));
    assertArrayEquals(row(3L, "c"), all.get(3L));
    assertEquals(List.of(List.of(1L, "a"), List.of(2L, "b")), rows(reopened.snapshot(1)));
    assertEquals(List.of("4: [[3, c]]"), batchesAfter(all, 1));
    // Appending goes on after the rows it had.
    reopened.addBatch(5, batch(row(4L, "d")), List.of(4L));
    assertEquals(List.of("4: [[3, c]]", "5: [[4, d]]"), batchesAfter(reopened.snapshot(5), 0));
  }

  @Test void shouldRefuseToOpenRowsOfOtherColumnsOrKeying() {
    AppendedRows.open(file(), K_NAME, true).close();
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> open(file(), new StoredColumnType[] {StoredColumnType.BIGINT}, true));
    assertEquals("The appended rows in " + file() + " have columns BIGINT,VARCHAR, keyed, not"
        + " BIGINT, keyed", e.getMessage());
    e = assertThrows(IllegalStateException.class, () -> open(file(), K_NAME, false));
    assertEquals("The appended rows in " + file() + " have columns BIGINT,VARCHAR, keyed, not"
        + " BIGINT,VARCHAR, not keyed", e.getMessage());
    // Neither attempt left the file open.
    open(file(), K_NAME, true);
  }

  @Test void shouldAddNothingOfABatchWithABadRowOrKeys() {
    AppendedRows rows = open(file(), K_NAME, true);
    rows.addBatch(0, batch(row(1L, "a")), List.of(1L));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> rows.addBatch(1, batch(row(2L, "b"), row("x", "c")), List.of(2L, 3L)));
    assertEquals("Column 0 of row 1 of batch 1 is BIGINT but holds x (java.lang.String)",
        e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> rows.addBatch(1, batch(row(2L)), List.of(2L)));
    assertEquals("Row 0 of batch 1 has 1 values, not one per column (2)", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> rows.addBatch(1, batch(row(2L, "b")), null));
    assertEquals("These appended rows are keyed: pass one key per row", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> rows.addBatch(1, batch(row(2L, "b")), List.of()));
    assertEquals("1 rows but 0 keys", e.getMessage());
    assertEquals(0, rows.lastBatch());

    assertTrue(rows.addBatch(1, batch(row(4L, "d")), List.of(4L)));
    assertEquals(List.of(List.of(1L, "a"), List.of(4L, "d")), rows(rows.snapshot(1)));
    assertNull(rows.snapshot(1).get(2L));
  }

  @Test void shouldFindAKeysRowOnlyIfAppendedUpToTheSnapshotsBatch() {
    AppendedRows rows = open(file(), K_NAME, true);
    GroupKey window = GroupKey.of("u1", 1_700_000_000_000L);
    GroupKey withNull = GroupKey.of(null, 5L);
    rows.addBatch(0, batch(row(1L, "long"), row(2L, "window")), List.of(1L, window));
    rows.addBatch(1, batch(row(3L, "int"), row(4L, "text"), row(5L, "null part")),
        List.of(1, "1", withNull));
    // Key 1L again, later: the snapshot of batch 1 still finds the first row.
    rows.addBatch(2, batch(row(6L, "long again")), List.of(1L));

    AppendedRows.Snapshot first = rows.snapshot(0);
    assertArrayEquals(row(1L, "long"), first.get(1L));
    assertArrayEquals(row(2L, "window"), first.get(GroupKey.of("u1", 1_700_000_000_000L)));
    assertNull(first.get(1));                 // appended in batch 1
    assertNull(first.get("1"));
    assertNull(first.get(withNull));

    AppendedRows.Snapshot second = rows.snapshot(1);
    assertArrayEquals(row(3L, "int"), second.get(1));    // Integer 1 is not Long 1
    assertArrayEquals(row(4L, "text"), second.get("1"));
    assertArrayEquals(row(5L, "null part"), second.get(GroupKey.of(null, 5L)));
    assertArrayEquals(row(1L, "long"), second.get(1L));
    assertNull(second.get(2L));
    assertNull(second.get(GroupKey.of("u1", 1_700_000_000_001L)));
    assertNull(second.get(GroupKey.of("u1")));

    assertArrayEquals(row(6L, "long again"), rows.snapshot(2).get(1L));
    assertNull(rows.snapshot(-1).get(1L));
    assertThrows(IllegalStateException.class,
        () -> open(dir.resolve("plain.mv.db"), K_NAME, false).snapshot(0).get(1L));
  }

  /**
   * Rows, keys and a batch entry beyond the last committed batch (what an MVStore that wrote in
   * the middle of a batch would leave; this one is configured not to) are removed when the file
   * is opened, and their sequence numbers go to the next batch's rows.
   */
  @Test void shouldDropWhatLiesBeyondTheLastBatchWhenOpening() throws Exception {
    AppendedRows rows = AppendedRows.open(file(), K_NAME, true);
    rows.addBatch(0, batch(row(1L, "a")), List.of(1L));
    rows.close();
    MVStore store = new MVStore.Builder().fileName(file().toString()).open();
    try {
      MVMap<Long, byte[]> rowMap = store.openMap("rows", new MVMap.Builder<Long, byte[]>()
          .keyType(LongDataType.INSTANCE).valueType(ByteArrayDataType.INSTANCE));
      MVMap<Long, Long> batchMap = store.openMap("batches", new MVMap.Builder<Long, Long>()
          .keyType(LongDataType.INSTANCE).valueType(LongDataType.INSTANCE));
      MVMap<byte[], Long> keyMap = store.openMap("byKey", new MVMap.Builder<byte[], Long>()
          .keyType(UnsignedBytesType.INSTANCE).valueType(LongDataType.INSTANCE));
      byte[] torn = rowMap.get(0L);
      rowMap.put(1L, torn);
      batchMap.put(1L, 1L);
      // The byKey entry of key 2L at sequence number 1, in its own bytes: found by a scan.
      byte[] key = keyMap.firstKey().clone();
      assertEquals(17, key.length, "a Long key's tag and value, and its sequence number");
      key[1 + 7] = 2;
      key[key.length - 1] = 1;
      keyMap.put(key, 1L);
      store.commit();
    } finally {
      store.close();
    }

    AppendedRows recovered = open(file(), K_NAME, true);
    assertEquals(0, recovered.lastBatch());
    assertNull(recovered.snapshot(0).get(2L));
    assertTrue(recovered.addBatch(1, batch(row(3L, "c")), List.of(3L)));
    AppendedRows.Snapshot s = recovered.snapshot(1);
    assertEquals(List.of(List.of(1L, "a"), List.of(3L, "c")), rows(s));
    assertNull(s.get(2L));
    assertArrayEquals(row(3L, "c"), s.get(3L));
    assertEquals(List.of("1: [[3, c]]"), batchesAfter(s, 0));
  }

  /** "batch: [rows]" per batch visited. */
  private static List<String> batchesAfter(AppendedRows.Snapshot snapshot, long since) {
    List<String> visited = new ArrayList<>();
    snapshot.forEachBatchAfter(since, (b, batchRows) -> {
      List<List<Object>> lists = new ArrayList<>();
      for (Object[] r : batchRows) {
        lists.add(Arrays.asList(r));
      }
      visited.add(b + ": " + lists);
    });
    return visited;
  }

  @Test void shouldHandEachBatchAfterAVersionUpToTheSnapshot() {
    AppendedRows rows = open(file(), K_NAME, false);
    rows.addBatch(0, batch(row(1L, "a"), row(2L, "b")), null);
    rows.addBatch(1, List.of(), null);
    rows.addBatch(2, batch(row(3L, "c")), null);
    rows.addBatch(3, batch(row(4L, "d"), row(5L, "e"), row(6L, "f")), null);
    rows.addBatch(7, batch(row(7L, "g")), null);
    rows.addBatch(8, List.of(), null);

    assertEquals(List.of("0: [[1, a], [2, b]]", "2: [[3, c]]"),
        batchesAfter(rows.snapshot(2), -1));
    assertEquals(List.of("2: [[3, c]]"), batchesAfter(rows.snapshot(2), 0));
    assertEquals(List.of("2: [[3, c]]", "3: [[4, d], [5, e], [6, f]]"),
        batchesAfter(rows.snapshot(3), 1));
    assertEquals(List.of("3: [[4, d], [5, e], [6, f]]", "7: [[7, g]]"),
        batchesAfter(rows.snapshot(8), 2));
    assertEquals(List.of("7: [[7, g]]"), batchesAfter(rows.snapshot(8), 5));
    assertEquals(List.of(), batchesAfter(rows.snapshot(8), 7));
    assertEquals(List.of(), batchesAfter(rows.snapshot(2), 2));
    // Snapshots between batches hold what was added up to them.
    assertEquals(6, rows.snapshot(6).rowCount());
  }

  @Test void shouldHoldTheBatchesAddedSoFarWhenAskedForALaterOne() {
    AppendedRows rows = open(file(), K_NAME, false);
    AppendedRows.Snapshot none = rows.snapshot(3);
    assertEquals(-1, none.upTo());
    assertEquals(List.of(), rows(none));
    rows.addBatch(0, batch(row(1L, "a")), null);
    AppendedRows.Snapshot early = rows.snapshot(3);
    rows.addBatch(1, batch(row(2L, "b")), null);
    assertEquals(0, early.upTo());
    assertEquals(List.of(List.of(1L, "a")), rows(early));
    assertEquals(List.of(), batchesAfter(early, 0));
  }

  @Test void shouldKeepRowsInMemoryWithoutAFile() {
    AppendedRows rows = open(null, K_NAME, true);
    assertNull(rows.file());
    assertTrue(rows.addBatch(0, batch(row(1L, "a")), List.of("k")));
    assertFalse(rows.addBatch(0, batch(row(1L, "a")), List.of("k")));
    assertTrue(rows.addBatch(1, batch(row(2L, "b")), List.of("l")));
    assertEquals(1, rows.lastBatch());
    assertEquals(List.of(List.of(1L, "a"), List.of(2L, "b")), rows(rows.snapshot(1)));
    assertArrayEquals(row(1L, "a"), rows.snapshot(0).get("k"));
    assertNull(rows.snapshot(0).get("l"));
    assertEquals(List.of("1: [[2, b]]"), batchesAfter(rows.snapshot(1), 0));
    // Each in-memory store is its own.
    assertEquals(-1, open(null, K_NAME, true).lastBatch());
    rows.close();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> rows.snapshot(1));
    assertEquals("The appended rows in memory are closed", e.getMessage());
  }

  /**
   * A snapshot's scan, started before later batches and resumed after several of them were
   * appended by another thread, reads exactly its own rows; snapshots taken meanwhile hold exactly
   * the batches up to theirs.
   */
  @Test void shouldReadExactlyASnapshotsRowsWhileAnotherThreadAppends() throws Exception {
    int perBatch = 3 * AppendedRows.SEGMENT + 17;
    int batchCount = 40;
    AppendedRows rows = open(file(), K_NAME, true);
    List<Object[]> first = new ArrayList<>();
    List<Object> firstKeys = new ArrayList<>();
    for (long k = 0; k < perBatch; k++) {
      first.add(numbered(k));
      firstKeys.add(k);
    }
    rows.addBatch(0, first, firstKeys);
    AppendedRows.Snapshot snapshot = rows.snapshot(0);
    Iterator<Object[]> scan = snapshot.rows().iterator();
    assertArrayEquals(numbered(0), scan.next());     // reads the first segment now

    AtomicReference<Throwable> failed = new AtomicReference<>();
    Thread writer = new Thread(() -> {
      try {
        for (int b = 1; b <= batchCount; b++) {
          List<Object[]> batch = new ArrayList<>();
          List<Object> keys = new ArrayList<>();
          for (long k = (long) b * perBatch; k < (long) (b + 1) * perBatch; k++) {
            batch.add(numbered(k));
            keys.add(k);
          }
          rows.addBatch(b, batch, keys);
        }
      } catch (Throwable t) {
        failed.set(t);
      }
    }, "appender");
    writer.start();
    try {
      awaitBatch(rows, 3, failed);
      // The rest of the scan, while batches go on being appended.
      long expected = 1;
      while (scan.hasNext()) {
        assertArrayEquals(numbered(expected++), scan.next());
      }
      assertEquals(perBatch, expected);
      assertNull(snapshot.get((long) perBatch));
      // Snapshots taken during the appends hold exactly the batches up to theirs.
      int checked = 0;
      while (rows.lastBatch() < batchCount && failed.get() == null) {
        long upTo = rows.lastBatch();
        AppendedRows.Snapshot s = rows.snapshot(upTo);
        long k = 0;
        for (Object[] r : s.rows()) {
          assertArrayEquals(numbered(k++), r);
        }
        assertEquals((upTo + 1) * perBatch, k);
        assertArrayEquals(numbered(k - 1), s.get(k - 1));
        assertNull(s.get(k));
        checked++;
      }
      assertTrue(checked > 0 || rows.lastBatch() == batchCount);
    } finally {
      writer.join(TimeUnit.NANOSECONDS.toMillis(DEADLINE_NANOS));
    }
    assertFalse(writer.isAlive(), "the appender did not finish");
    if (failed.get() != null) {
      throw new AssertionError("the appender failed", failed.get());
    }
    assertEquals((long) (batchCount + 1) * perBatch, rows.snapshot(batchCount).rowCount());
    assertEquals(perBatch, rows(snapshot).size());
  }

  private static void awaitBatch(AppendedRows rows, long batch, AtomicReference<Throwable> failed)
      throws InterruptedException {
    long deadline = System.nanoTime() + DEADLINE_NANOS;
    while (rows.lastBatch() < batch) {
      if (failed.get() != null) {
        throw new AssertionError("the appender failed", failed.get());
      }
      assertTrue(System.nanoTime() < deadline, "batch " + batch + " was not appended in time");
      Thread.onSpinWait();
      Thread.yield();
    }
  }

  /**
   * A process killed (SIGKILL) while it appends leaves every batch whose {@code addBatch}
   * returned, whole, and no part of the one it was adding.
   */
  @CrashTest
  @Test void shouldKeepEveryAddedBatchWhenTheProcessIsKilledWhileAppending() throws Exception {
    Path file = file();
    long acknowledged;
    try (ChildJvm child = ChildJvm.of(AppendedRowsCrashMain.class)
        .jvmOptions("-Xmx256m", "-XX:+UseSerialGC").args(file).start()) {
      acknowledged = Long.parseLong(child.awaitLine(line -> Long.parseLong(line) >= 3));
      // Most of the child's time is in addBatch: this kill lands in one, usually.
      child.kill();
    }

    AppendedRows recovered = open(file, K_NAME, true);
    long last = recovered.lastBatch();
    assertTrue(last >= acknowledged, last + " >= " + acknowledged);
    AppendedRows.Snapshot s = recovered.snapshot(last);
    long k = 0;
    for (Object[] r : s.rows()) {
      assertArrayEquals(numbered(k++), r);
    }
    assertEquals((last + 1) * AppendedRowsCrashMain.ROWS, k);
    assertArrayEquals(numbered(k - 1), s.get(k - 1));
    assertNull(s.get(k));
    // The batch after is added as if nothing had happened.
    assertFalse(recovered.addBatch(last, batch(numbered(k)), List.of(k)));
    assertTrue(recovered.addBatch(last + 1, batch(numbered(k)), List.of(k)));
    assertArrayEquals(numbered(k), recovered.snapshot(last + 1).get(k));
  }
}
