package dev.freshet.engine.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.push.RowKind;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.DataContext;
import org.apache.calcite.DataContexts;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How each output mode folds batches into a view's result table, and what survives a restart. */
class ResultTableTest {
  private static final JavaTypeFactoryImpl TYPES = new JavaTypeFactoryImpl();
  private static final RelDataType K_N = TYPES.builder()
      .add("K", SqlTypeName.VARCHAR).nullable(true).add("N", SqlTypeName.BIGINT).build();

  @TempDir Path dataDir;
  private final List<ResultDatabase> opened = new ArrayList<>();

  @AfterEach void closeDatabases() throws SQLException {
    for (ResultDatabase db : opened) {
      db.close();
    }
  }

  private ResultDatabase memory() throws SQLException {
    ResultDatabase db = ResultDatabase.open(Optional.empty());
    opened.add(db);
    return db;
  }

  private static List<List<Object>> rows(ResultTable table, DataContext context) {
    List<List<Object>> rows = new ArrayList<>();
    for (Object[] row : table.scan(context)) {
      rows.add(Arrays.asList(row));
    }
    return rows;
  }

  private static List<List<Object>> rows(ResultTable table) {
    return rows(table, DataContexts.EMPTY);
  }

  /** The key of rows grouped by the VARCHAR in {@code column}: kept encoded. */
  private static ResultKey textKeyAt(int column, int newKeyColumn) {
    return ResultKey.of(new int[] {column}, List.of(K_N.getFieldList().get(0).getType()),
        newKeyColumn);
  }

  private static List<Object[]> batch(Object[]... rows) {
    return new ArrayList<>(List.of(rows));
  }

  @Test void shouldUpsertByTheHiddenKeyAndDropIt() throws SQLException {
    // Rows are (visible k, n, hidden key): two groups look alike once upper-cased.
    ResultTable table = ResultTable.open(memory(), "V", "q", K_N, ResultTable.Layout.UPSERT,
        textKeyAt(2, -1), 100);
    table.apply(0, batch(new Object[] {"A", 1L, "a"}, new Object[] {"A", 1L, "A"}));
    table.apply(1, batch(new Object[] {"A", 2L, "a"}));
    // A view's rows come in no particular order.
    assertEquals(List.of(List.of("A", 1L), List.of("A", 2L)), sorted(rows(table)));
    assertEquals(1, table.batchId());
  }

  @Test void shouldKeepANullGroupKeyApartFromEveryOther() throws SQLException {
    ResultTable table = ResultTable.open(memory(), "V", "q", K_N, ResultTable.Layout.UPSERT,
        textKeyAt(0, -1), 100);
    table.apply(0, batch(new Object[] {null, 1L}, new Object[] {"", 1L}));
    table.apply(1, batch(new Object[] {null, 5L}));
    assertEquals(List.of(Arrays.asList(null, 5L), List.of("", 1L)), rows(table));
  }

  @Test void shouldReplaceTheResultInCompleteMode() throws SQLException {
    ResultTable table = ResultTable.open(memory(), "V", "q", K_N, ResultTable.Layout.REPLACE,
        ResultKey.none(), 100);
    table.apply(0, batch(new Object[] {"a", 1L}, new Object[] {"b", 1L}));
    table.apply(1, batch(new Object[] {"b", 2L}, new Object[] {"a", 2L}));
    // The batch's order is kept: a COMPLETE query may end with ORDER BY.
    assertEquals(List.of(List.of("b", 2L), List.of("a", 2L)), rows(table));
  }

  @Test void shouldAppendInBatchOrder() throws SQLException {
    ResultTable table = ResultTable.open(memory(), "V", "q", K_N, ResultTable.Layout.APPEND,
        ResultKey.none(), 100);
    List<List<Object>> expected = new ArrayList<>();
    for (int b = 0; b < 20; b++) {
      List<Object[]> rows = new ArrayList<>();
      for (int i = 0; i < b % 5; i++) {
        rows.add(new Object[] {"k" + b, (long) i});
        expected.add(List.of("k" + b, (long) i));
      }
      table.apply(b, rows);
      assertEquals(expected, rows(table), "batch " + b);
    }
  }

  /** A batch re-run after a crash reaches the sink again; exactly once means it is skipped. */
  @Test void shouldIgnoreABatchItHasAlready() throws SQLException {
    ResultTable table = ResultTable.open(memory(), "V", "q", K_N, ResultTable.Layout.APPEND,
        ResultKey.none(), 100);
    ViewSink sink = new ViewSink("V", table);
    sink.addBatch(3, batch(new Object[] {"a", 1L}));
    sink.addBatch(3, batch(new Object[] {"a", 1L}));
    sink.addBatch(2, batch(new Object[] {"b", 1L}));
    assertEquals(3, table.batchId());
    assertEquals(List.of(List.of("a", 1L)), rows(table));
  }

  @Test void shouldReadTheStateOfTheStatementsStartWhenPinned() throws SQLException {
    ResultDatabase db = memory();
    ResultTable table = ResultTable.open(db, "V", "q", K_N, ResultTable.Layout.UPSERT,
        textKeyAt(0, -1), 100);
    table.apply(0, batch(new Object[] {"a", 1L}));
    try (Connection snapshot = db.connectSnapshot()) {
      Map<String, Object> variables = new HashMap<>();
      variables.put(ResultTable.SNAPSHOT_VARIABLE, snapshot);
      DataContext statement = DataContexts.of(variables);
      assertEquals(List.of(List.of("a", 1L)), rows(table, statement));
      table.apply(1, batch(new Object[] {"a", 2L}, new Object[] {"b", 1L}));
      assertEquals(List.of(List.of("a", 1L)), rows(table, statement));
    }
    assertEquals(List.of(List.of("a", 2L), List.of("b", 1L)), rows(table));
  }

  @Test void shouldResumeAfterARestartAsTheSameQueryAndStartAfreshAsAnother()
      throws SQLException {
    try (ResultDatabase db = ResultDatabase.open(Optional.of(dataDir))) {
      ResultTable table = ResultTable.open(db, "V", "q1", K_N, ResultTable.Layout.APPEND,
          ResultKey.none(), 100);
      table.apply(0, batch(new Object[] {"a", 1L}));
      table.apply(1, batch(new Object[] {"b", 1L}));
      table.closeWriter();
    }
    try (ResultDatabase db = ResultDatabase.open(Optional.of(dataDir))) {
      ResultTable table = ResultTable.open(db, "V", "q1", K_N, ResultTable.Layout.APPEND,
          ResultKey.none(), 100);
      assertEquals(1, table.batchId());
      table.apply(2, batch(new Object[] {"c", 1L}));
      assertEquals(List.of(List.of("a", 1L), List.of("b", 1L), List.of("c", 1L)), rows(table));
      table.closeWriter();

      ResultTable recreated = ResultTable.open(db, "V", "q2", K_N, ResultTable.Layout.APPEND,
          ResultKey.none(), 100);
      assertEquals(-1, recreated.batchId());
      assertEquals(List.of(), rows(recreated));
    }
  }

  @Test void shouldRoundTripEveryStoredTypeInCalcitesRepresentation() throws SQLException {
    RelDataType rowType = TYPES.createTypeWithNullability(TYPES.builder()
        .add("B", SqlTypeName.BOOLEAN).add("T", SqlTypeName.TINYINT)
        .add("S", SqlTypeName.SMALLINT).add("I", SqlTypeName.INTEGER)
        .add("L", SqlTypeName.BIGINT).add("D", SqlTypeName.DECIMAL, 12, 3)
        .add("R", SqlTypeName.REAL).add("F", SqlTypeName.DOUBLE)
        .add("V", SqlTypeName.VARCHAR, 20).add("Y", SqlTypeName.VARBINARY, 4)
        .add("DT", SqlTypeName.DATE).add("TS", SqlTypeName.TIMESTAMP, 3).build(), true);
    ResultTable table = ResultTable.open(memory(), "ALL TYPES", "q", rowType,
        ResultTable.Layout.APPEND, ResultKey.none(), 100);
    Object[] values = {true, (byte) 7, (short) 300, 70_000, 1L << 40,
        new BigDecimal("12345.678"), 1.5f, 2.25, "x\"y", new ByteString(new byte[] {1, 2}),
        19_000, 1_700_000_000_123L};
    Object[] nulls = new Object[values.length];
    table.apply(0, batch(values.clone(), nulls));
    assertEquals(List.of(Arrays.asList(values), Arrays.asList(nulls)), rows(table));
  }

  @Test void shouldRefuseATypeItCannotStore() {
    RelDataType rowType = TYPES.builder()
        .add("A", TYPES.createArrayType(TYPES.createSqlType(SqlTypeName.INTEGER), -1)).build();
    SQLException e = assertThrows(SQLException.class, () -> ResultTable.open(memory(), "V", "q",
        rowType, ResultTable.Layout.APPEND, ResultKey.none(), 100));
    assertEquals("0A000", e.getSQLState());
    assertEquals("Column A of materialized view V is INTEGER NOT NULL ARRAY NOT NULL, which a"
        + " view's result cannot hold yet. Cast it to a character, numeric, boolean, date, time"
        + " or timestamp type", e.getMessage());
  }

  /** What a subscriber heard: one entry per call, its batch id then its rows as lists. */
  private static final class Heard implements ResultTable.ChangeListener {
    final List<List<Object>> calls = new ArrayList<>();

    @Override public synchronized void committed(long batchId, List<Object[]> changes) {
      List<Object> call = new ArrayList<>();
      call.add(batchId);
      for (Object[] change : changes) {
        // The view's columns, the batch id and the kind; the key and the flag are for coalescing.
        List<Object> row = new ArrayList<>(Arrays.asList(change).subList(0, change.length - 2));
        // As the reader sees the kind.
        row.set(row.size() - 1, ((RowKind) row.get(row.size() - 1)).text());
        call.add(row);
      }
      calls.add(call);
    }
  }

  @Test void shouldHandASubscriberTheResultThenEachBatchWithItsKinds() throws Exception {
    ResultTable table = ResultTable.open(memory(), "V", "q", K_N, ResultTable.Layout.UPSERT,
        textKeyAt(0, -1), 100);
    table.apply(0, batch(new Object[] {"a", 1L}));
    Heard heard = new Heard();
    try (AutoCloseable subscription = table.subscribe(-1, heard)) {
      table.apply(1, batch(new Object[] {"a", 2L}, new Object[] {"b", 1L}));
    }
    table.apply(2, batch(new Object[] {"b", 2L}));
    assertEquals(List.of(
        List.of(0L, List.of("a", 1L, 0L, "INSERT")),
        List.of(1L, List.of("a", 2L, 1L, "UPDATE"), List.of("b", 1L, 1L, "INSERT"))),
        heard.calls);
  }

  @Test void shouldResumeAfterAVersionWhileItsChangesAreRetained() throws Exception {
    ResultTable table = ResultTable.open(memory(), "V", "q", K_N, ResultTable.Layout.UPSERT,
        textKeyAt(0, -1), 2);
    for (long b = 0; b < 5; b++) {
      table.apply(b, batch(new Object[] {"a", b}));
    }
    Heard heard = new Heard();
    try (AutoCloseable subscription = table.subscribe(2, heard)) {
      assertEquals(List.of(List.of(3L, List.of("a", 3L, 3L, "UPDATE")),
          List.of(4L, List.of("a", 4L, 4L, "UPDATE"))), heard.calls);
    }
    Heard current = new Heard();
    table.subscribe(4, current).close();
    assertEquals(List.of(), current.calls);

    SQLException gone = assertThrows(SQLException.class, () -> table.subscribe(1, new Heard()));
    assertEquals("22023", gone.getSQLState());
    assertEquals("View V no longer keeps the changes after version 1: the oldest it keeps are"
        + " those of version 3. Subscribe without 'since_version' to start from the view's"
        + " current rows, or keep more versions with SET 'min.batches.to.retain'",
        gone.getMessage());
    SQLException future = assertThrows(SQLException.class, () -> table.subscribe(9, new Heard()));
    assertEquals("View V has no version 9: its latest is 4. Resume from a version you have"
        + " seen, or subscribe without 'since_version' to start from the view's current rows",
        future.getMessage());
  }

  @Test void shouldDeleteTheOldTableAndInsertTheNewOneInCompleteMode() throws Exception {
    ResultTable table = ResultTable.open(memory(), "V", "q", K_N, ResultTable.Layout.REPLACE,
        ResultKey.none(), 100);
    Heard heard = new Heard();
    table.subscribe(-1, heard);
    table.apply(0, batch(new Object[] {"a", 1L}));
    table.apply(1, batch(new Object[] {"b", 1L}));
    assertEquals(List.of(
        List.of(0L, List.of("a", 1L, 0L, "INSERT")),
        List.of(1L, List.of("a", 1L, 1L, "DELETE"), List.of("b", 1L, 1L, "INSERT"))),
        heard.calls);
  }

  @Test void shouldTellNewKeysFromKnownOnesInALargeBatch() throws Exception {
    ResultTable table = ResultTable.open(memory(), "V", "q", K_N, ResultTable.Layout.UPSERT,
        textKeyAt(0, -1), 100);
    int keys = 20_010;
    List<Object[]> first = new ArrayList<>();
    for (int i = 0; i < keys; i += 2) {
      first.add(new Object[] {"k" + i, 1L});
    }
    table.apply(0, first);
    List<Object[]> second = new ArrayList<>();
    for (int i = 0; i < keys; i++) {
      second.add(new Object[] {"k" + i, 2L});
    }
    int[] kinds = new int[2];
    table.subscribe(0, (batchId, changes) -> {
      for (Object[] change : changes) {
        String key = (String) change[0];
        boolean known = Integer.parseInt(key.substring(1)) % 2 == 0;
        assertEquals(known ? RowKind.UPDATE : RowKind.INSERT, change[3], key);
        kinds[known ? 0 : 1]++;
      }
    });
    table.apply(1, second);
    assertEquals(List.of(keys / 2, keys / 2), List.of(kinds[0], kinds[1]));
  }

  /**
   * A group the aggregation flags as new is inserted; any other is updated, or inserted if the
   * result has no row for it (a HAVING clause kept its earlier rows out).
   */
  @Test void shouldInsertFlaggedGroupsAndUpdateOthersOrInsertThoseTheResultLacks()
      throws Exception {
    // Rows are (k, n, hidden key, new-key flag).
    ResultTable table = ResultTable.open(memory(), "V", "q", K_N, ResultTable.Layout.UPSERT,
        textKeyAt(2, 3), 100);
    table.apply(0, batch(new Object[] {"a", 1L, "a", true}, new Object[] {"b", 1L, "b", true}));
    Heard live = new Heard();
    table.subscribe(0, live);
    table.apply(1, batch(new Object[] {"a", 2L, "a", false}, new Object[] {"c", 2L, "c", false},
        new Object[] {"d", 1L, "d", true}));
    List<List<Object>> expected = List.of(List.of(1L, List.of("a", 2L, 1L, "UPDATE"),
        List.of("c", 2L, 1L, "INSERT"), List.of("d", 1L, 1L, "INSERT")));
    assertEquals(expected, live.calls);
    Heard resumed = new Heard();
    table.subscribe(0, resumed).close();
    assertEquals(expected, resumed.calls);
    assertEquals(List.of(List.of("a", 2L), List.of("b", 1L), List.of("c", 2L),
        List.of("d", 1L)), sorted(rows(table)));
  }

  private static List<List<Object>> sorted(List<List<Object>> rows) {
    rows.sort(java.util.Comparator.comparing(List::toString));
    return rows;
  }

  /**
   * A resumed subscriber reads each value as the result table holds it, not as the query handed
   * it over: a DECIMAL at the column's scale, a TINYINT as a byte, binary as a ByteString.
   */
  @Test void shouldReplayEveryStoredTypeAsTheTableHoldsIt() throws Exception {
    RelDataType rowType = TYPES.createTypeWithNullability(TYPES.builder()
        .add("B", SqlTypeName.BOOLEAN).add("T", SqlTypeName.TINYINT)
        .add("S", SqlTypeName.SMALLINT).add("I", SqlTypeName.INTEGER)
        .add("L", SqlTypeName.BIGINT).add("D", SqlTypeName.DECIMAL, 12, 3)
        .add("R", SqlTypeName.REAL).add("F", SqlTypeName.DOUBLE)
        .add("V", SqlTypeName.VARCHAR, 100_000).add("Y", SqlTypeName.VARBINARY, 4)
        .add("DT", SqlTypeName.DATE).add("TS", SqlTypeName.TIMESTAMP, 3).build(), true);
    ResultTable table = ResultTable.open(memory(), "ALL TYPES", "q", rowType,
        ResultTable.Layout.APPEND, ResultKey.none(), 100);
    String longText = "é".repeat(70_000);
    Object[] handed = {false, 7, 300, 70_000, 1L << 40, new BigDecimal("-1.2345"), 1.5f, 2.25,
        longText, new byte[] {1, 2}, 19_000, 1_700_000_000_123L};
    Object[] held = {false, (byte) 7, (short) 300, 70_000, 1L << 40, new BigDecimal("-1.235"),
        1.5f, 2.25, longText, new ByteString(new byte[] {1, 2}), 19_000, 1_700_000_000_123L};
    table.apply(0, batch(new Object[held.length]));
    table.apply(1, batch(handed, new Object[held.length]));
    Heard resumed = new Heard();
    table.subscribe(0, resumed).close();
    List<Object> nulls = Arrays.asList(new Object[held.length + 2]);
    nulls.set(held.length, 1L);
    nulls.set(held.length + 1, "INSERT");
    List<Object> values = new ArrayList<>(Arrays.asList(held));
    values.addAll(List.of(1L, "INSERT"));
    assertEquals(List.of(List.of(1L, values, nulls)), resumed.calls);
    assertEquals(Arrays.asList(held), rows(table).get(1));
  }

  /** A batch whose changes fill several chunks of the change log replays whole and in order. */
  @Test void shouldReplayABatchOfManyChunksInOrderAfterARestart() throws Exception {
    int groups = 30_000;
    List<List<Object>> expected = new ArrayList<>();
    expected.add(new ArrayList<>(List.of(1L)));
    try (ResultDatabase db = ResultDatabase.open(Optional.of(dataDir))) {
      ResultTable table = ResultTable.open(db, "V", "q", K_N, ResultTable.Layout.UPSERT,
          textKeyAt(0, -1), 100);
      List<Object[]> first = new ArrayList<>();
      List<Object[]> second = new ArrayList<>();
      for (int i = 0; i < groups; i++) {
        String k = "group-" + (groups - i);
        if (i % 3 == 0) {
          first.add(new Object[] {k, 1L});
        }
        second.add(new Object[] {k, (long) i});
        expected.get(0).add(List.of(k, (long) i, 1L, i % 3 == 0 ? "UPDATE" : "INSERT"));
      }
      table.apply(0, first);
      table.apply(1, second);
      table.closeWriter();
    }
    try (ResultDatabase db = ResultDatabase.open(Optional.of(dataDir))) {
      ResultTable table = ResultTable.open(db, "V", "q", K_N, ResultTable.Layout.UPSERT,
          textKeyAt(0, -1), 100);
      Heard resumed = new Heard();
      table.subscribe(0, resumed).close();
      assertEquals(expected, resumed.calls);
      try (Connection c = db.connect(); java.sql.Statement s = c.createStatement();
           java.sql.ResultSet r = s.executeQuery("SELECT COUNT(*) FROM \"CHANGELOG$V\"")) {
        r.next();
        // Far fewer rows than changes: 40,000 changes of about 43 bytes, in chunks of 256 KB.
        int chunks = r.getInt(1);
        assertTrue(chunks > 2 && chunks < 20, "chunks: " + chunks);
      }
    }
  }

  private static final RelDataType BIGINT_NOT_NULL = TYPES.createSqlType(SqlTypeName.BIGINT);
  private static final RelDataType ID_N = TYPES.builder()
      .add("ID", BIGINT_NOT_NULL).add("N", SqlTypeName.BIGINT).build();

  /**
   * A key of one integral column that cannot be NULL is the table's BIGINT key; a group's key
   * bytes are the same in the snapshot, the live changes and the replayed ones, so that a
   * subscriber coalesces a group's rows.
   */
  @Test void shouldKeyByABigintWhenTheGroupKeyIsOneIntegralColumn() throws Exception {
    ResultDatabase db = memory();
    ResultTable table = ResultTable.open(db, "V", "q", ID_N, ResultTable.Layout.UPSERT,
        ResultKey.of(new int[] {0}, List.of(BIGINT_NOT_NULL), 2), 100);
    table.apply(0, batch(new Object[] {1L, 1L, true}, new Object[] {2L, 1L, true}));
    List<Object[]> snapshot = new ArrayList<>();
    List<Object[]> live = new ArrayList<>();
    table.subscribe(-1, (batchId, changes) -> (batchId == 0 ? snapshot : live).addAll(changes));
    table.apply(1, batch(new Object[] {1L, 2L, false}, new Object[] {3L, 1L, true}));
    List<Object[]> replayed = new ArrayList<>();
    table.subscribe(0, (batchId, changes) -> replayed.addAll(changes)).close();

    assertEquals("BIGINT", keyType(db));
    assertEquals(List.of(List.of(1L, 2L), List.of(2L, 1L), List.of(3L, 1L)), rows(table));
    Object keyOfOne = snapshot.stream().filter(c -> c[0].equals(1L)).findFirst().orElseThrow()[4];
    for (List<Object[]> changes : List.of(live, replayed)) {
      assertEquals(List.of(List.of(1L, 2L, 1L, RowKind.UPDATE),
          List.of(3L, 1L, 1L, RowKind.INSERT)),
          changes.stream().map(c -> Arrays.asList(c).subList(0, 4)).collect(
              java.util.stream.Collectors.toList()));
      assertEquals(keyOfOne, changes.get(0)[4]);
    }
  }

  private static String keyType(ResultDatabase db) throws SQLException {
    try (Connection c = db.connect(); java.sql.Statement s = c.createStatement();
         java.sql.ResultSet r = s.executeQuery("SELECT DATA_TYPE FROM INFORMATION_SCHEMA.COLUMNS"
             + " WHERE TABLE_NAME = 'RESULT$V' AND COLUMN_NAME = 'KEY$'")) {
      assertTrue(r.next());
      return r.getString(1);
    }
  }
}
