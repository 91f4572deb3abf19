package dev.freshet.planner.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.operators.RowErrors;
import dev.freshet.executor.runtime.MicroBatchExecution;
import dev.freshet.executor.runtime.StreamingPipeline;
import dev.freshet.executor.runtime.Trigger;
import dev.freshet.executor.source.MemoryStream;
import dev.freshet.executor.source.SequenceSource;
import dev.freshet.executor.source.SequenceSpec;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.internals.InMemoryStateStoreProvider;
import dev.freshet.executor.vector.VectorType;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.WatermarkSpec;
import dev.freshet.sql.FreshetSqlParser;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The columnar path against the row path: the same query, planned once, built twice by
 * {@link ExecPlanBuilder} (once with {@code withColumnarPath(false)}), run by
 * {@link MicroBatchExecution} over the same data; every batch's output rows (values, Java
 * classes and order) and the committed state of every partition (keys and saved values, with
 * their classes) must be identical, and so must failures and dropped rows.
 */
class ColumnarPathTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private final ExecutorService pool = Executors.newFixedThreadPool(2);
  /** The stream M of the current run: each run gets a new one. */
  private MemoryStream memory;
  /** The stream T of strings of the current run: each run gets a new one. */
  private MemoryStream strings;

  /** A planner over the sequence S and a new memory stream M. */
  private FreshetPlanner newPlanner() {
    Catalog catalog = new Catalog();
    FreshetPlanner planner = new FreshetPlanner(catalog);
    memory = new MemoryStream("M", 3);
    RelDataTypeFactory f = planner.typeFactory();
    // 100,001 rows in batches of 40,000: two batches read by two input tasks, then one of
    // 20,001 rows read by one; with a watermark on TS (row i at i ms).
    catalog.addStream(new StreamTable("S", RelDataTypeImpl.proto(f.builder()
        .add("N", SqlTypeName.BIGINT)
        .add("TS", SqlTypeName.TIMESTAMP, 3).nullable(true)
        .build()), Optional.of(new WatermarkSpec("TS", 5000)), Map.of("connector", "sequence"),
        new SequenceSource(SequenceSpec.bounded("S", 100_001).withRowsPerBatch(40_000)
            .withColumns(0, OptionalInt.of(1)))));
    catalog.addStream(new StreamTable("M", RelDataTypeImpl.proto(f.builder()
        .add("K", SqlTypeName.INTEGER).nullable(true)
        .add("X", SqlTypeName.BIGINT).nullable(true)
        .add("D", SqlTypeName.DOUBLE).nullable(true)
        .build()), Optional.empty(), Map.of("connector", "memory"), memory));
    strings = new MemoryStream("T", 5);
    catalog.addStream(new StreamTable("T", RelDataTypeImpl.proto(f.builder()
        .add("S", SqlTypeName.VARCHAR).nullable(true)
        .add("K", SqlTypeName.INTEGER).nullable(true)
        .add("X", SqlTypeName.BIGINT).nullable(true)
        .add("TS", SqlTypeName.TIMESTAMP, 3).nullable(true)
        .add("S2", SqlTypeName.VARCHAR, 10).nullable(true)
        .build()), Optional.of(new WatermarkSpec("TS", 5000)), Map.of("connector", "memory"),
        strings));
    return planner;
  }

  @AfterEach void shutdown() {
    pool.shutdownNow();
  }

  /** What one run produced. */
  private record Run(List<String> batches, List<String> state, String failure, long dropped,
      long watermarkMs, boolean columnar) {}

  /** Plans {@code sql}, builds it row-only or columnar, runs it until its stream is read. */
  private Run run(String sql, boolean columnar, RowErrors rowErrors, Runnable beforeEachBatch,
      int batches) throws Exception {
    List<StateStoreProvider<Object, Object[]>> providers = new ArrayList<>();
    FreshetPlanner planner = newPlanner();
    StreamingPipeline pipeline = new ExecPlanBuilder(planner.typeFactory(),
        "q", id -> {
          InMemoryStateStoreProvider<Object, Object[]> p = new InMemoryStateStoreProvider<>(id);
          providers.add(p);
          return p;
        }, pool, 2).withRowErrors(rowErrors).withColumnarPath(columnar)
        .build(planner.planQuery(FreshetSqlParser.parse(sql), null, 2));
    List<String> out = new ArrayList<>();
    MicroBatchExecution query = MicroBatchExecution.builder("q", "q", pipeline, (batchId, rows) -> {
      synchronized (out) {
        List<String> batch = new ArrayList<>();
        for (Object[] row : rows) {
          batch.add(typed(row));
        }
        out.add(batchId + ": " + batch);
      }
    }).clock(() -> 0L).build();
    query.start();
    List<String> state = new ArrayList<>();
    try {
      for (int b = 0; b < batches; b++) {
        beforeEachBatch.run();
        query.processAllAvailable(TIMEOUT);
        if (query.exception().isPresent()) {
          break;
        }
      }
      if (query.exception().isEmpty()) {
        // Read while the query runs, idle: stopping closes its stores.
        for (StateStoreProvider<Object, Object[]> p : providers) {
          long v = p.latestCommittedVersion();
          List<String> entries = new ArrayList<>();
          for (Map.Entry<Object, Object[]> e : p.getReadStore(v).entries()) {
            entries.add(typed(new Object[] {e.getKey()}) + "=" + typed(e.getValue()));
          }
          entries.sort(null);
          state.add(p.id() + "@" + v + " " + entries);
        }
      }
    } finally {
      query.stop();
    }
    Throwable failure = query.exception().orElse(null);
    synchronized (out) {
      return new Run(List.copyOf(out), state, failure == null ? null
          : failure.getClass().getName() + ": " + failure.getMessage(), rowErrors.droppedRows(),
          pipeline.watermarkMs(), pipeline.columnarInput() != null);
    }
  }

  /** A row's values with their classes: 1 (Integer) and 1 (Long) differ. */
  private static String typed(Object[] row) {
    StringBuilder s = new StringBuilder("[");
    for (Object v : row) {
      s.append(v == null ? "null" : v + ":" + v.getClass().getSimpleName()).append(", ");
    }
    return s.append("]").toString();
  }

  /** Runs {@code sql} both ways over the sequence S and asserts the same results. */
  private Run assertSameOverSequence(String sql) throws Exception {
    Run rows = run(sql, false, RowErrors.failing(), () -> { }, 1);
    Run columns = run(sql, true, RowErrors.failing(), () -> { }, 1);
    assertTrue(columns.columnar(), "the columnar path was not taken for " + sql);
    assertEquals(false, rows.columnar());
    assertEquals(rows, new Run(columns.batches(), columns.state(), columns.failure(),
        columns.dropped(), columns.watermarkMs(), false));
    return columns;
  }

  @Test void shouldAggregateW1AsTheRowPathDoes() throws Exception {
    Run run = assertSameOverSequence("SELECT STREAM n % 1000 AS k, COUNT(*) AS c, SUM(n) AS s"
        + " FROM s GROUP BY n % 1000");
    assertEquals(3, run.batches().size());
    assertNull(run.failure());
    // The vector batches' event times reached the watermark: the last row's 100,000 ms less
    // the stream's 5 s delay.
    assertEquals(95_000, run.watermarkMs());
  }

  @Test void shouldFilterAndComputeNegativesAsTheRowPathDoes() throws Exception {
    assertSameOverSequence("SELECT STREAM (n - 50000) % 7 AS k, COUNT(*), SUM(n - 50000),"
        + " MIN(n * -3), MAX(-n), SUM(n / -7), COUNT(n)"
        + " FROM s WHERE n % 3 <> 1 AND (n % 2 = 0 OR n > 95000) AND NOT n = 77"
        + " GROUP BY (n - 50000) % 7");
  }

  @Test void shouldComputeNearOverflowAndFailOnOverflowAsTheRowPathDoes() throws Exception {
    Run near = assertSameOverSequence("SELECT STREAM n % 5 AS k, MIN(n * 92233720368547),"
        + " MAX(n + 9223372036854000000), MIN(-n - 9223372036854000000), COUNT(*)"
        + " FROM s GROUP BY n % 5");
    assertNull(near.failure());
    // Calcite's arithmetic is checked: the first row past 2^63 fails the batch.
    Run over = assertSameOverSequence("SELECT STREAM n % 5 AS k, MAX(n + 9223372036854700000)"
        + " FROM s GROUP BY n % 5");
    assertEquals("java.lang.ArithmeticException: long overflow", over.failure());
  }

  @Test void shouldCastToIntegerAndDoubleAsTheRowPathDoes() throws Exception {
    assertSameOverSequence("SELECT STREAM CAST(n / 10 AS INTEGER) AS k, COUNT(*),"
        + " SUM(CAST(n AS DOUBLE) / 3), MIN(n * 0.5e0), MAX(CAST(n AS DOUBLE) - 7.0e4),"
        + " SUM(CAST(n AS INTEGER) % 10)"
        + " FROM s WHERE n % 4 = 0 OR n > 99990 GROUP BY CAST(n / 10 AS INTEGER)");
  }

  @Test void shouldAggregateW4AsTheRowPathDoes() throws Exception {
    // Tumbling windows of 10 s over TS (row i at i ms) and n % 1000: the watermark (5 s behind)
    // evicts the windows that closed, in UPDATE mode; a key of two columns.
    Run run = assertSameOverSequence("SELECT STREAM TUMBLE_START(ts, INTERVAL '10' SECOND) AS w,"
        + " n % 1000 AS k, COUNT(*) AS c, SUM(n) AS s FROM s"
        + " GROUP BY TUMBLE(ts, INTERVAL '10' SECOND), n % 1000");
    // The three batches of rows, then one without rows that the watermark's advance runs.
    assertEquals(4, run.batches().size());
    assertNull(run.failure());
  }

  @Test void shouldGroupByTwoColumnsAsTheRowPathDoes() throws Exception {
    assertSameOverSequence("SELECT STREAM n % 7 AS a, n % 3 - 1 AS b, COUNT(*), MAX(n)"
        + " FROM s GROUP BY n % 7, n % 3 - 1");
    assertSameOverMemory("SELECT STREAM k, x % 2 AS p, COUNT(*), SUM(x), MIN(d) FROM m"
        + " GROUP BY k, x % 2", false);
  }

  @Test void shouldFailAnOverflowingSumAsTheRowPathDoes() throws Exception {
    Run run = assertSameOverSequence("SELECT STREAM n % 2 AS k,"
        + " SUM(n + 9223372036854000000) FROM s GROUP BY n % 2");
    assertEquals("java.lang.ArithmeticException: long overflow", run.failure());
    assertEquals(List.of(), run.batches());
  }

  @Test void shouldKeepTheRowPathOutsideTheSubset() throws Exception {
    for (String sql : List.of(
        "SELECT STREAM n % 10 AS k, COUNT(DISTINCT n) FROM s GROUP BY n % 10",
        "SELECT STREAM n % 10 AS k, SUM(n) FROM s WHERE n % 3 = 0 OR n / (n % 3) > 1"
            + " GROUP BY n % 10",
        "SELECT STREAM HOP_START(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND) AS w,"
            + " COUNT(*) FROM s GROUP BY HOP(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND)",
        "SELECT STREAM n % 10 AS k, SUM(n * 1.5) FROM s GROUP BY n % 10")) {
      Run rows = run(sql, false, RowErrors.failing(), () -> { }, 1);
      Run columns = run(sql, true, RowErrors.failing(), () -> { }, 1);
      assertEquals(false, columns.columnar(), sql);
      assertEquals(rows, columns, sql);
    }
  }

  /** Adds one statement of rows to M before each batch: nulls, extremes, -0.0, NaN. */
  private Runnable memoryBatches() {
    List<List<Object[]>> statements = List.of(
        List.of(new Object[] {1, 10L, 1.5}, new Object[] {null, 5L, -0.0},
            new Object[] {2, null, null}, new Object[] {1, -7L, 0.0},
            new Object[] {Integer.MAX_VALUE, Long.MAX_VALUE, Double.NaN},
            new Object[] {-3, Long.MIN_VALUE, -2.5}),
        List.of(new Object[] {null, null, null}, new Object[] {2, 3_000_000_000L, 1e300},
            new Object[] {1, 4L, -0.0}, new Object[] {Integer.MIN_VALUE, -1L, 1e300},
            new Object[] {7, 8L, 2.0}, new Object[] {null, Long.MAX_VALUE, 1.0}));
    int[] next = {0};
    return () -> memory.addData(statements.get(next[0]++ % statements.size()));
  }

  /** Runs {@code sql} both ways over two statements into M, with {@code rowErrors} each. */
  private Run assertSameOverMemory(String sql, boolean skipping) throws Exception {
    Run rows = run(sql, false, skipping ? RowErrors.skipping() : RowErrors.failing(),
        memoryBatches(), 2);
    Run columns = run(sql, true, skipping ? RowErrors.skipping() : RowErrors.failing(),
        memoryBatches(), 2);
    assertTrue(columns.columnar(), "the columnar path was not taken for " + sql);
    assertEquals(rows, new Run(columns.batches(), columns.state(), columns.failure(),
        columns.dropped(), columns.watermarkMs(), false));
    return columns;
  }

  @Test void shouldHandleNullsAndExtremesAsTheRowPathDoes() throws Exception {
    Run run = assertSameOverMemory("SELECT STREAM k, COUNT(*), COUNT(x), SUM(x / 4), SUM(d),"
        + " MIN(d), MAX(d), MIN(k), MAX(x), COUNT(d) FROM m GROUP BY k", false);
    assertEquals(2, run.batches().size());
  }

  @Test void shouldComputeThreeValuedLogicAndIntegerArithmeticAsTheRowPathDoes() throws Exception {
    assertSameOverMemory("SELECT STREAM x % 3 AS k, COUNT(*), SUM(k + 1), MIN(k * 2),"
        + " MAX(-k), SUM(d * 2)"
        + " FROM m WHERE (x IS NOT NULL OR k IS NULL) AND NOT (k > 5 AND d IS NULL)"
        + " AND (d < 100 OR d IS NULL OR k = 2) GROUP BY x % 3", false);
  }

  @Test void shouldFailOrDropARowWhoseCastFailsAsTheRowPathDoes() throws Exception {
    String sql = "SELECT STREAM CAST(x AS INTEGER) AS k, COUNT(*) FROM m"
        + " GROUP BY CAST(x AS INTEGER)";
    Run failing = assertSameOverMemory(sql, false);
    assertEquals("java.lang.ArithmeticException: Value 9223372036854775807 out of range",
        failing.failure());
    Run skipping = assertSameOverMemory(sql, true);
    assertNull(skipping.failure());
    // Long.MAX_VALUE (twice), Long.MIN_VALUE and 3,000,000,000 are out of INTEGER's range.
    assertEquals(4, skipping.dropped());
  }

  @Test void shouldFailOrDropARowWhoseArithmeticOverflowsAsTheRowPathDoes() throws Exception {
    // x * 2 overflows for Long.MAX_VALUE and MIN_VALUE, -k for Integer.MIN_VALUE, k + 1 for
    // Integer.MAX_VALUE; one row with x = Long.MAX_VALUE has k NULL.
    String sql = "SELECT STREAM k, SUM(x * 2 + k), MIN(-k), MAX(k + 1), SUM(x / (k - 100))"
        + " FROM m WHERE x * 3 <> 7 GROUP BY k";
    Run failing = assertSameOverMemory(sql, false);
    assertEquals("java.lang.ArithmeticException: long overflow", failing.failure());
    Run skipping = assertSameOverMemory(sql, true);
    assertNull(skipping.failure());
    assertTrue(skipping.dropped() >= 3, "dropped " + skipping.dropped());
  }

  @Test void shouldBuildAColumnarPipelinePerInputTask() throws Exception {
    FreshetPlanner planner = newPlanner();
    StreamingPipeline pipeline = new ExecPlanBuilder(planner.typeFactory(),
        "q", InMemoryStateStoreProvider::new, pool, 2).build(planner.planQuery(
            FreshetSqlParser.parse("SELECT STREAM n % 1000 AS k, COUNT(*) FROM s"
                + " GROUP BY n % 1000"), null, 2));
    assertNotNull(pipeline.columnarInput());
    assertEquals(2, pipeline.columnarInput().tasks());
    assertEquals(2, pipeline.inputTasks());
  }

  /** Strings of T: empty, NULL, non-ASCII, a surrogate pair, a trailing space, case. */
  private static final String[] STRINGS = {"a", "b", "", "\u00e9t\u00e9", "\u65e5\u672c",
      "a ", "A", "\ud83d\ude00", "z", "\u00e9", "ab"};

  /**
   * Adds one statement of rows to T before each batch: a few by hand, then 10,000 (three vector
   * batches, whose dictionaries differ), then the first ones again as new String objects.
   */
  private Runnable stringBatches() {
    List<Object[]> first = List.of(
        new Object[] {"a", 1, 10L, 1_000L, "a"}, new Object[] {null, 2, 5L, 2_000L, "b"},
        new Object[] {"", null, null, 3_000L, null}, new Object[] {"\u00e9t\u00e9", 1, -7L,
            4_000L, "\u00e9t\u00e9"},
        new Object[] {"\u65e5\u672c", 3, Long.MAX_VALUE / 4, 12_000L, "x"},
        new Object[] {"a ", 1, 1L, 13_000L, "a"}, new Object[] {"a", 2, 2L, null, ""},
        new Object[] {"\ud83d\ude00", -1, 4L, 25_000L, "\uffff"});
    java.util.Random random = new java.util.Random(7);
    List<Object[]> many = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      many.add(new Object[] {
          random.nextInt(20) == 0 ? null : STRINGS[random.nextInt(STRINGS.length)]
              + (random.nextInt(3) == 0 ? "" + random.nextInt(40) : ""),
          random.nextInt(10) == 0 ? null : random.nextInt(4),
          random.nextInt(10) == 0 ? null : (long) random.nextInt(1000) - 500,
          30_000L + i * 7L,
          random.nextInt(10) == 0 ? null : STRINGS[random.nextInt(STRINGS.length)]});
    }
    List<Object[]> again = new ArrayList<>();
    for (Object[] row : first) {
      Object[] copy = row.clone();
      copy[0] = copy[0] == null ? null : new String((String) copy[0]);
      copy[3] = copy[3] == null ? null : (Long) copy[3] + 100_000L;
      again.add(copy);
    }
    List<List<Object[]>> statements = List.of(first, many, again);
    int[] next = {0};
    return () -> strings.addData(statements.get(next[0]++ % statements.size()));
  }

  /** Runs {@code sql} both ways over three statements into T. */
  private Run assertSameOverStrings(String sql) throws Exception {
    Run rows = run(sql, false, RowErrors.failing(), stringBatches(), 3);
    Run columns = run(sql, true, RowErrors.failing(), stringBatches(), 3);
    assertTrue(columns.columnar(), "the columnar path was not taken for " + sql);
    assertEquals(rows, new Run(columns.batches(), columns.state(), columns.failure(),
        columns.dropped(), columns.watermarkMs(), false));
    return columns;
  }

  @Test void shouldGroupByAStringAsTheRowPathDoes() throws Exception {
    Run run = assertSameOverStrings("SELECT STREAM s, COUNT(*), SUM(x), COUNT(s), MIN(k)"
        + " FROM t GROUP BY s");
    assertEquals(3, run.batches().size());
    assertNull(run.failure());
  }

  @Test void shouldGroupByAStringAndIntegersAsTheRowPathDoes() throws Exception {
    assertSameOverStrings("SELECT STREAM k, s, x % 3 AS r, COUNT(*), SUM(x) FROM t"
        + " GROUP BY k, s, x % 3");
    assertSameOverStrings("SELECT STREAM s2, s, COUNT(*), MAX(x) FROM t GROUP BY s2, s");
  }

  @Test void shouldGroupByATumblingWindowAndAStringAsTheRowPathDoes() throws Exception {
    Run run = assertSameOverStrings("SELECT STREAM TUMBLE_START(ts, INTERVAL '10' SECOND) AS w,"
        + " s, COUNT(*), SUM(x) FROM t GROUP BY TUMBLE(ts, INTERVAL '10' SECOND), s");
    assertNull(run.failure());
  }

  @Test void shouldFilterOnStringsAsTheRowPathDoes() throws Exception {
    for (String where : List.of("s = 'a'", "s <> 'a'", "'a' = s", "s > 'a'", "s <= '\u00e9'",
        "s >= 'A' AND s < 'b'", "s IS NULL", "s IS NOT NULL OR k = 1", "s IN ('a', '', 'z')",
        "s = s2", "s <> s2 OR s2 IS NULL", "s2 > s", "s = 'a ' OR s = ''",
        "NOT (s = 'ab')", "s = CAST(s2 AS VARCHAR)")) {
      assertSameOverStrings("SELECT STREAM s, k, COUNT(*), SUM(x) FROM t WHERE " + where
          + " GROUP BY s, k");
    }
  }

  @Test void shouldFailAnOverflowingSumByAStringAsTheRowPathDoes() throws Exception {
    Run run = assertSameOverStrings("SELECT STREAM s, SUM(x + 9223372036854775000)"
        + " FROM t GROUP BY s");
    assertEquals("java.lang.ArithmeticException: long overflow", run.failure());
  }

  @Test void shouldKeepTheRowPathForStringFunctions() throws Exception {
    for (String sql : List.of(
        "SELECT STREAM UPPER(s) AS u, COUNT(*) FROM t GROUP BY UPPER(s)",
        "SELECT STREAM CAST(s AS VARCHAR(1)) AS c, COUNT(*) FROM t GROUP BY CAST(s AS VARCHAR(1))",
        "SELECT STREAM s, COUNT(*) FROM t WHERE s LIKE 'a%' GROUP BY s",
        "SELECT STREAM k, MIN(s) FROM t GROUP BY k")) {
      Run rows = run(sql, false, RowErrors.failing(), stringBatches(), 3);
      Run columns = run(sql, true, RowErrors.failing(), stringBatches(), 3);
      assertEquals(false, columns.columnar(), sql);
      assertEquals(rows, columns, sql);
    }
  }

  @Test void shouldNotReadStringColumnsNoOperatorReads() throws Exception {
    FreshetPlanner planner = newPlanner();
    ExecPlanBuilder builder = new ExecPlanBuilder(planner.typeFactory(),
        "q", InMemoryStateStoreProvider::new, pool, 2);
    StreamingPipeline integers = builder.build(planner.planQuery(FreshetSqlParser.parse(
        "SELECT STREAM k, COUNT(*), SUM(x) FROM t GROUP BY k"), null, 2));
    assertEquals(java.util.Arrays.asList(null, VectorType.INT, VectorType.LONG, VectorType.LONG,
        null), java.util.Arrays.asList(integers.columnarInput().columns()));
    StreamingPipeline filtered = builder.build(planner.planQuery(FreshetSqlParser.parse(
        "SELECT STREAM TUMBLE_START(ts, INTERVAL '10' SECOND) AS w, COUNT(*) FROM t"
            + " WHERE s2 = 'a' GROUP BY TUMBLE(ts, INTERVAL '10' SECOND)"), null, 2));
    assertEquals(VectorType.STRING, filtered.columnarInput().columns()[4]);
    assertNull(filtered.columnarInput().columns()[0]);
    assertSameOverStrings("SELECT STREAM k, COUNT(*), SUM(x) FROM t GROUP BY k");
  }
}
