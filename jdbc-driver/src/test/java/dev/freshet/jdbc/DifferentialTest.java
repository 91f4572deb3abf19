package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.executor.runtime.StreamingQuery;
import dev.freshet.executor.runtime.StreamingQueryProgress;
import dev.freshet.testkit.oracle.H2Oracle;
import java.math.BigDecimal;
import java.math.MathContext;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Differential test (STYLE.md §9): random rows in random batches go both to a Freshet push query
 * and to an H2 table; after every batch, Freshet's result so far must equal H2 running the same
 * {@code GROUP BY} as a batch query over every row inserted so far.
 *
 * <p>"Result so far" is what Spark's output modes guarantee:
 *
 * <ul>
 *   <li>{@code EMIT UPDATE}: the batch emits exactly one row per group that the batch's rows
 *       (after {@code WHERE}) touched and that passes {@code HAVING}; folding every emitted row
 *       into a table, last row per key, gives the batch query's result. Every shape's
 *       {@code HAVING} is monotonic ({@code COUNT(*) > 1}), so no group ever needs retracting.
 *   <li>{@code EMIT COMPLETE}: the batch emits every group, so its rows alone are the result.
 * </ul>
 *
 * <p>H2 knows the batch each row came in (column {@code bn}, which only H2's table has), so the
 * number of rows a batch must emit comes from H2 too: in UPDATE mode, the groups of the result
 * whose {@code MAX(bn)} is the batch; in COMPLETE mode, every group of the result. The query SQL
 * is the same text for both engines, except for the tumbling window, which H2 computes itself
 * (see {@link #windowStart()}). Streams have no watermark, so no row is late and no group is
 * evicted: the comparison is exact.
 *
 * <p>Values are compared normalized: numbers by value with 12 significant digits (the engines type
 * {@code SUM} and {@code AVG} apart, e.g. BIGINT against NUMERIC), timestamps as instants read in
 * UTC on both sides ({@code timeZone=UTC} for Freshet, {@link LocalDateTime} for H2), so the JVM's
 * time zone does not matter.
 */
class DifferentialTest {
  /** Columns of the stream; H2's table has them plus the batch number {@code bn}. */
  private static final String COLUMNS = "k VARCHAR, k2 VARCHAR, i INTEGER, b BIGINT, d DOUBLE,"
      + " m DECIMAL(10, 2), ts TIMESTAMP(3)";
  /** Event times are whole seconds from here, over one minute: six 10 s windows. */
  private static final LocalDateTime FIRST_SECOND = LocalDateTime.of(2026, 1, 1, 0, 0, 0);
  private static final DateTimeFormatter TIMESTAMP_LITERAL =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
  private static final String TUMBLE_START = "TUMBLE_START(ts, INTERVAL '10' SECOND)";
  private static final String TUMBLE = "TUMBLE(ts, INTERVAL '10' SECOND)";

  enum Mode { UPDATE, COMPLETE }

  /**
   * A query as both engines run it, without {@code STREAM} and {@code EMIT}; its first
   * {@code keyColumns} columns are the group's key.
   */
  record Shape(String name, String sql, String h2Sql, int keyColumns) {
    Shape(String name, String sql, int keyColumns) {
      this(name, sql, sql, keyColumns);
    }

    @Override public String toString() {
      return name;
    }
  }

  /**
   * The start of the epoch-aligned 10 s window of {@code ts} in H2's SQL: {@code ts} minus its
   * seconds since the epoch modulo 10. H2 computes {@code DATEDIFF} and {@code DATEADD} on
   * {@code TIMESTAMP} (without time zone) from the date and time fields alone, so the JVM's time
   * zone plays no part; timestamps are whole seconds, so seconds are enough. Computed in H2's SQL
   * rather than passed to H2 as an extra column, so that both engines get the same rows and the
   * window start, epoch alignment included, is derived independently of Freshet.
   */
  private static String windowStart() {
    return "DATEADD(SECOND, -MOD(DATEDIFF(SECOND, TIMESTAMP '1970-01-01 00:00:00', ts), 10), ts)";
  }

  static List<Shape> shapes() {
    String window = "SELECT " + TUMBLE_START + ", k, COUNT(*), SUM(i), MAX(d), MIN(k2) FROM s"
        + " GROUP BY " + TUMBLE + ", k";
    return List.of(
        new Shape("one grouping column",
            "SELECT k, COUNT(*), SUM(i), MAX(d) FROM s GROUP BY k", 1),
        new Shape("two grouping columns, one with NULLs",
            "SELECT k, k2, COUNT(*), SUM(b), MIN(d) FROM s GROUP BY k, k2", 2),
        new Shape("grouping expression over strings",
            "SELECT UPPER(k2) || '-' || k, COUNT(*), AVG(i), MIN(k2) FROM s"
                + " GROUP BY UPPER(k2) || '-' || k", 1),
        new Shape("grouping expression over numbers",
            "SELECT MOD(i, 3), COUNT(*), SUM(d), MAX(k) FROM s GROUP BY MOD(i, 3)", 1),
        new Shape("WHERE before the aggregation",
            "SELECT k, COUNT(*), SUM(i), MAX(m) FROM s WHERE i > 10 OR d < 0 GROUP BY k", 1),
        new Shape("HAVING after the aggregation",
            "SELECT k, k2, COUNT(*), SUM(i) FROM s GROUP BY k, k2 HAVING COUNT(*) > 1", 2),
        new Shape("every aggregate function over every type",
            "SELECT k, COUNT(*), COUNT(i), COUNT(b), COUNT(d), COUNT(m), COUNT(k2),"
                + " SUM(i), SUM(b), SUM(d), SUM(m), MIN(i), MIN(b), MIN(d), MIN(m), MIN(k2),"
                + " MIN(ts), MAX(i), MAX(b), MAX(d), MAX(m), MAX(k2), MAX(ts),"
                + " AVG(i), AVG(b), AVG(d) FROM s GROUP BY k", 1),
        // AVG over DECIMAL apart, so that its bug (see shouldKeepFourMoreDecimalsWhenAveraging
        // Decimals) leaves the other aggregates checked. Spark types AVG(DECIMAL(10, 2)) as
        // DECIMAL(14, 6), H2 with more digits; the CAST, in both engines, compares Spark's.
        new Shape("AVG over DECIMAL",
            "SELECT k2, CAST(AVG(m) AS DECIMAL(16, 6)), COUNT(m) FROM s GROUP BY k2", 1),
        new Shape("expressions after the aggregation",
            "SELECT k, SUM(i) * 2 + COUNT(*), MAX(d) - MIN(d), COALESCE(SUM(m), 0) + 1,"
                + " UPPER(k) || ':' || CAST(COUNT(*) AS VARCHAR),"
                + " CASE WHEN MAX(i) > 20 THEN 'big' ELSE 'small' END FROM s GROUP BY k", 1),
        new Shape("tumbling window and a column", window,
            window.replace(TUMBLE_START, windowStart()).replace(TUMBLE, windowStart()), 2));
  }

  /** Every shape in both modes with seeds 1, 42 and one that differs each run (in the name). */
  static List<Arguments> cases() {
    long randomSeed = System.nanoTime();
    List<Arguments> cases = new ArrayList<>();
    for (Shape shape : shapes()) {
      for (Mode mode : Mode.values()) {
        for (long seed : new long[] {1L, 42L, randomSeed}) {
          cases.add(Arguments.of(shape, mode, seed));
        }
      }
    }
    return cases;
  }

  /**
   * Runs {@code shape} as a push query in {@code mode} over a random stream (5 to 15 batches, each
   * one INSERT of 1 to 40 rows with NULLs in some values) and, after every batch, compares the
   * rows the batch emitted and the result they add up to with H2's batch query over all rows so
   * far; a failure names the shape, mode, seed and batch.
   */
  @ParameterizedTest(name = "{0}, EMIT {1}, seed {2}")
  @MethodSource("cases")
  void shouldMatchH2BatchQueryAfterEveryBatchWhenRowsAndBatchesAreRandom(Shape shape, Mode mode,
      long seed) throws Exception {
    Random random = new Random(seed);
    String engineName = UUID.randomUUID().toString();
    try (Connection freshet = DriverManager.getConnection("jdbc:freshet:engine=" + engineName
             + ";timeZone=UTC");
         H2Oracle h2 = new H2Oracle();
         Statement fs = freshet.createStatement();
         Statement query = freshet.createStatement()) {
      fs.execute("CREATE STREAM s (" + COLUMNS + ") WITH (connector = 'memory')");
      h2.createTable("s", COLUMNS + ", bn INTEGER");
      String freshetSql = shape.sql().replaceFirst("^SELECT ", "SELECT STREAM ") + " EMIT " + mode;
      // The same query with the last batch that touched each group as an extra, last column.
      String h2LastBatchSql = shape.h2Sql().replace(" FROM s", ", MAX(bn) FROM s");
      try (ResultSet rs = query.executeQuery(freshetSql)) {
        Map<List<Object>, List<Object>> folded = new HashMap<>();
        int batches = 5 + random.nextInt(11);
        for (int batch = 0; batch < batches; batch++) {
          String context = shape + ", EMIT " + mode + ", seed " + seed + ", batch " + batch;
          List<String> tuples = randomTuples(random);
          String bn = ", " + batch + ")";
          fs.executeUpdate("INSERT INTO s VALUES " + String.join(", ", tuples));
          h2.execute("INSERT INTO s VALUES " + String.join(", ",
              tuples.stream().map(t -> t.substring(0, t.length() - 1) + bn).toList()));
          StreamingQuery streamingQuery = PushResults.awaitOnlyQuery(engineName, context);

          List<List<Object>> expected = h2Rows(h2, shape.h2Sql());
          List<List<Object>> expectedOfBatch = expected;
          if (mode == Mode.UPDATE) {
            expectedOfBatch = new ArrayList<>();
            for (List<Object> row : h2Rows(h2, h2LastBatchSql)) {
              if (row.get(row.size() - 1).equals(normalize(batch))) {
                expectedOfBatch.add(row.subList(0, row.size() - 1));
              }
            }
          }
          List<List<Object>> emitted = new ArrayList<>();
          for (List<Object> row : PushResults.readData(rs, expectedOfBatch.size())) {
            emitted.add(normalize(row));
          }
          // Rows beyond those read would only show in the next batch: check the count now.
          StreamingQueryProgress progress = lastProgress(streamingQuery);
          assertEquals(List.of((long) batch, (long) expectedOfBatch.size()),
              List.of(progress.batchId(), progress.numOutputRows()),
              context + ": [batch id, rows emitted]");
          assertEquals(sorted(expectedOfBatch), sorted(emitted), context + ": rows emitted");
          if (mode == Mode.UPDATE) {
            for (List<Object> row : emitted) {
              folded.put(new ArrayList<>(row.subList(0, shape.keyColumns())), row);
            }
            assertEquals(sorted(expected), sorted(folded.values()),
                context + ": rows emitted so far, last row per key");
          }
        }
      }
    }
  }

  /**
   * Bug found with every seed (first: seed 1, batch 0), fixed: {@code INSERT} of a DECIMAL literal
   * into a DECIMAL column failed with "cannot evaluate literal 14984.73:DECIMAL(10, 2)", because
   * Calcite translates a DECIMAL literal to {@code new BigDecimal(...)}, not to a constant.
   */
  @Test void shouldInsertADecimalLiteralWhenTheColumnIsDecimal() throws Exception {
    assertEquals(List.of(List.of("a", new BigDecimal("14984.73"))),
        pushRows("k VARCHAR, m DECIMAL(10, 2)", "SELECT STREAM k, m FROM s", "('a', 14984.73)",
            1));
  }

  /**
   * Bug found with every seed (first: shape "AVG over DECIMAL", seed 1, batch 0), not fixed:
   * {@code AVG} of a DECIMAL(10, 2) column is typed DECIMAL(10, 2) and truncated, so the average
   * of 1.00, 2.00 and 2.00 is 1.66. Spark types it DECIMAL(14, 6) and rounds half up: 1.666667
   * (H2: 1.6666666667). Bounded queries ({@code SELECT k, AVG(m) FROM s GROUP BY k}) too.
   */
  @Test void shouldKeepFourMoreDecimalsWhenAveragingDecimals() throws Exception {
    assertEquals(List.of(List.of("a", new BigDecimal("1.666667"))),
        pushRows("k VARCHAR, m DECIMAL(10, 2)", "SELECT STREAM k, AVG(m) FROM s GROUP BY k",
            "('a', 1.00), ('a', 2.00), ('a', 2.00)", 1));
  }

  /**
   * Bug found while reducing the one above, not fixed: {@code AVG} of a DECIMAL(10, 2) column
   * fails the query with "Value 199999999.98 cannot be represented as a DECIMAL(10, 2)" once a
   * group's sum needs more digits than the column, though the average fits: the average is
   * {@code CAST(sum AS DECIMAL(10, 2)) / CAST(count AS DECIMAL(10, 2))}. Spark sums into
   * DECIMAL(20, 2) and returns 99999999.990000.
   */
  @Test void shouldAverageDecimalsWhenTheirSumHasMoreDigitsThanTheColumn() throws Exception {
    assertEquals(List.of(List.of("a", new BigDecimal("99999999.990000"))),
        pushRows("k VARCHAR, m DECIMAL(10, 2)", "SELECT STREAM k, AVG(m) FROM s GROUP BY k",
            "('a', 99999999.99), ('a', 99999999.99)", 1));
  }

  /**
   * Bug found with every seed (first: shape "expressions after the aggregation", seed 1, batch
   * 0), fixed: a {@code CASE} whose branches are string literals of different lengths was typed
   * CHAR(5) as in standard SQL and padded {@code 'big'} to {@code 'big  '}; Spark and H2 return
   * {@code 'big'}.
   */
  @Test void shouldNotPadAStringWhenCaseBranchesHaveDifferentLengths() throws Exception {
    assertEquals(List.of(List.of("a", "one")),
        pushRows("k VARCHAR", "SELECT STREAM k, CASE WHEN COUNT(*) > 1 THEN 'many' ELSE 'one'"
            + " END FROM s GROUP BY k", "('a')", 1));
  }

  /** Starts {@code query} on a new stream of {@code columns}, inserts, reads {@code n} rows. */
  private static List<List<Object>> pushRows(String columns, String query, String values, int n)
      throws Exception {
    try (Connection freshet = DriverManager.getConnection("jdbc:freshet:engine="
             + UUID.randomUUID());
         Statement ddl = freshet.createStatement();
         Statement push = freshet.createStatement()) {
      ddl.execute("CREATE STREAM s (" + columns + ") WITH (connector = 'memory')");
      try (ResultSet rs = push.executeQuery(query)) {
        ddl.executeUpdate("INSERT INTO s VALUES " + values);
        return PushResults.readData(rs, n);
      }
    }
  }

  private static StreamingQueryProgress lastProgress(StreamingQuery query) {
    List<StreamingQueryProgress> progress = query.recentProgress();
    return progress.get(progress.size() - 1);
  }

  /** H2's rows, timestamps read as the local date-time they store, then normalized. */
  private static List<List<Object>> h2Rows(H2Oracle h2, String sql) throws Exception {
    List<List<Object>> rows = new ArrayList<>();
    for (List<Object> row : h2.queryLocal(sql)) {
      rows.add(normalize(row));
    }
    return rows;
  }

  private static List<Object> normalize(List<Object> row) {
    List<Object> result = new ArrayList<>();
    for (Object v : row) {
      result.add(normalize(v));
    }
    return result;
  }

  /**
   * Numbers as their value with 12 significant digits; timestamps as instants: a Freshet
   * {@link Timestamp} read with {@code timeZone=UTC} holds the instant of its UTC fields, an H2
   * {@link LocalDateTime} gets UTC added.
   */
  private static Object normalize(Object v) {
    if (v instanceof Number) {
      return new BigDecimal(v.toString()).round(new MathContext(12)).stripTrailingZeros()
          .toPlainString();
    } else if (v instanceof Timestamp t) {
      return Instant.ofEpochMilli(t.getTime());
    } else if (v instanceof LocalDateTime t) {
      return t.toInstant(ZoneOffset.UTC);
    }
    return v;
  }

  /** Rows in a deterministic order, so that a failure shows both sides aligned. */
  private static List<List<Object>> sorted(Collection<List<Object>> rows) {
    List<List<Object>> result = new ArrayList<>(rows);
    result.sort(Comparator.comparing(Object::toString));
    return result;
  }

  /** One batch: 1 to 40 rows as SQL tuples, each value NULL now and then (never k and ts). */
  private static List<String> randomTuples(Random random) {
    int n = 1 + random.nextInt(40);
    List<String> tuples = new ArrayList<>();
    for (int r = 0; r < n; r++) {
      String k = "'k" + random.nextInt(6) + "'";
      String k2 = orNull(random, "'" + List.of("x", "X", "y").get(random.nextInt(3)) + "'");
      String i = orNull(random, Integer.toString(random.nextInt(40) - 5));
      String b = orNull(random, Long.toString(10_000_000_000L + random.nextInt(2_000) - 1_000));
      // An approximate literal (12.5E0): for a DOUBLE column, a DECIMAL literal (12.5) makes
      // Freshet compile the cast with Janino in every INSERT, which would dominate the run time.
      String d = orNull(random, BigDecimal.valueOf(random.nextInt(800) - 200, 0)
          .divide(BigDecimal.valueOf(4)).toPlainString() + "E0");
      String m = orNull(random, BigDecimal.valueOf(random.nextInt(2_000_000) - 500_000, 2)
          .toPlainString());
      String ts = "TIMESTAMP '" + TIMESTAMP_LITERAL.format(FIRST_SECOND.plusSeconds(
          random.nextInt(60))) + "'";
      tuples.add("(" + String.join(", ", k, k2, i, b, d, m, ts) + ")");
    }
    return tuples;
  }

  private static String orNull(Random random, String literal) {
    return random.nextInt(8) == 0 ? "NULL" : literal;
  }
}
