package dev.freshet.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.Engine;
import dev.freshet.engine.Session;
import dev.freshet.engine.push.PushQuery;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.WindowedQuery;
import dev.freshet.planner.logical.conversion.LogicalPlanConverter;
import dev.freshet.planner.logical.conversion.LogicalTypes;
import dev.freshet.sql.FreshetSqlParser;
import dev.freshet.sql.parser.EmitMode;
import dev.freshet.testkit.SparkTest;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Date;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.util.DateTimeUtils;
import org.apache.spark.sql.execution.streaming.runtime.MemoryStream;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Spark's result rows in Freshet's values ({@link SparkRows}) equal the rows Freshet's own
 * executor emits for the same SQL over the same input (its push query's rows, before the JDBC
 * layer converts them), for every type a view's column can have on Spark, NULL included, in
 * plain and keyed results.
 */
@SparkTest
@ExtendWith(LocalSparkSession.class)
class SparkRowsTest {
  private static final String DDL = "CREATE STREAM typed (b BOOLEAN, t TINYINT, s SMALLINT,"
      + " i INTEGER, l BIGINT, r REAL, f FLOAT, d DOUBLE, m DECIMAL(10, 2), c VARCHAR,"
      + " ch CHAR(3), dt DATE, ts TIMESTAMP(3)) WITH (connector = 'memory')";
  private static final String INSERT = "INSERT INTO typed VALUES (TRUE, -7, 1234, 123456,"
      + " 9000000000, 1.5, 2.25, -3.125, 12345.67, 'héllo', 'xyz', DATE '1969-07-20',"
      + " TIMESTAMP '2026-03-14 15:09:26.535'), (NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
      + " NULL, NULL, NULL, NULL, NULL, NULL)";
  /** The rows of {@link #INSERT} as Spark's encoder takes them (the session is in UTC). */
  private static final List<Row> SPARK_INPUT = List.of(
      RowFactory.create(true, (byte) -7, (short) 1234, 123456, 9_000_000_000L, 1.5f, 2.25,
          -3.125, new BigDecimal("12345.67"), "héllo", "xyz",
          Date.valueOf(LocalDate.of(1969, 7, 20)),
          Timestamp.from(LocalDateTime.of(2026, 3, 14, 15, 9, 26, 535_000_000)
              .toInstant(ZoneOffset.UTC))),
      RowFactory.create(null, null, null, null, null, null, null, null, null, null, null, null,
          null));
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  private static SparkSession spark;
  private static Path checkpoints;
  private static Engine engine;
  private static Session session;
  private static int queries;

  @BeforeAll static void start() throws Exception {
    spark = LocalSparkSession.get().newSession();
    checkpoints = Files.createTempDirectory("freshet-spark-rows");
    engine = new Engine("spark-rows-test");
    session = engine.openSession();
    session.execute(DDL);
  }

  @AfterAll static void stop() {
    engine.close();
    try (java.util.stream.Stream<Path> files = Files.walk(checkpoints)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test void shouldGiveEveryTypeAsFreshetsExecutorDoes() throws Exception {
    String sql = "SELECT STREAM * FROM typed";
    List<List<Object>> onFreshet = onFreshet(sql, EmitMode.APPEND, 2);
    // What the executor holds, spelled out: the comparison must not be vacuous.
    assertEquals(Arrays.asList(true, (byte) -7, (short) 1234, 123456, 9_000_000_000L, 1.5f, 2.25,
        -3.125, new BigDecimal("12345.67"), "héllo", "xyz",
        (int) LocalDate.of(1969, 7, 20).toEpochDay(),
        LocalDateTime.of(2026, 3, 14, 15, 9, 26, 535_000_000).toInstant(ZoneOffset.UTC)
            .toEpochMilli()), onFreshet.get(1));
    assertEquals(onFreshet, onSpark(sql, EmitMode.APPEND, false));
  }

  @Test void shouldGiveKeyColumnsAsFreshetsExecutorGivesTheGroupingColumns() throws Exception {
    String columns = "b, t, s, i, l, r, f, d, m, c, ch, dt, ts";
    // Freshet: [columns..., n]; Spark keyed: [n, key columns..., admitted].
    List<List<Object>> onFreshet = onFreshet("SELECT STREAM " + columns + ", COUNT(*) AS n"
        + " FROM typed GROUP BY " + columns, EmitMode.UPDATE, 2);
    List<List<Object>> expected = new ArrayList<>();
    for (List<Object> row : onFreshet) {
      List<Object> keyed = new ArrayList<>();
      keyed.add(row.get(row.size() - 1));
      keyed.addAll(row.subList(0, row.size() - 1));
      keyed.add(true);
      expected.add(keyed);
    }
    assertEquals(sorted(expected), onSpark("SELECT STREAM COUNT(*) AS n FROM typed GROUP BY "
        + columns, EmitMode.UPDATE, true));
  }

  @Test void shouldGiveTheDaysAndMillisecondsSparkMeantWhateverTheDefaultTimeZone() {
    SparkRows rows = SparkRows.of(DataTypes.createStructType(List.of(
        DataTypes.createStructField("dt", DataTypes.DateType, true),
        DataTypes.createStructField("ts", DataTypes.TimestampType, true))));
    TimeZone zone = TimeZone.getDefault();
    // East of UTC (+09:00 in 1969 too), a date's midnight is the day before in UTC.
    TimeZone.setDefault(TimeZone.getTimeZone("Asia/Tokyo"));
    try {
      // As Spark's deserializer makes them from its days and microseconds.
      Row row = RowFactory.create(DateTimeUtils.toJavaDate(-165),
          DateTimeUtils.toJavaTimestamp(1_773_500_966_535_000L));
      assertEquals(Arrays.asList(-165, 1_773_500_966_535L), Arrays.asList(rows.convert(row)));
    } finally {
      TimeZone.setDefault(zone);
    }
  }

  @Test void shouldRefuseASparkTypeThatNoFreshetTypeTranslatesTo() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SparkRows.of(DataTypes.createStructType(List.of(
            DataTypes.createStructField("x", DataTypes.BinaryType, true)))));
    assertTrue(e.getMessage().contains("binary"), e::getMessage);
  }

  /** {@code sql} on Freshet's executor: its first {@code n} rows, without batch id and kind. */
  private static List<List<Object>> onFreshet(String sql, EmitMode mode, int n)
      throws Exception {
    StatementResult.Push push = (StatementResult.Push) session.execute(sql + " EMIT " + mode);
    try (PushQuery query = push.query()) {
      session.execute(INSERT);
      List<List<Object>> rows = new ArrayList<>();
      long deadline = System.nanoTime() + DEADLINE.toNanos();
      while (rows.size() < n) {
        assertTrue(System.nanoTime() < deadline, "fewer than " + n + " rows from Freshet");
        Object[] row = query.next(Duration.ofSeconds(1));
        if (row != null) {
          rows.add(Arrays.asList(row).subList(0, push.columns().size() - 2));
        }
      }
      return sorted(rows);
    }
  }

  /** {@code sql} translated for Spark over {@link #SPARK_INPUT}: its rows in Freshet's values. */
  private static List<List<Object>> onSpark(String sql, EmitMode mode, boolean keyed)
      throws Exception {
    WindowedQuery plan = engine.planner().planWindowed(FreshetSqlParser.parse(sql), mode,
        FreshetPlanner.DEFAULT_MAX_WINDOWS_PER_ROW);
    StructType schema = SparkTypes.schemaOf(LogicalTypes.fields(engine.planner().catalog()
        .stream("TYPED").orElseThrow().getRowType(engine.planner().typeFactory())));
    MemoryStream<Row> stream = MemoryStream.apply(Encoders.row(schema), spark);
    Map<String, Dataset<Row>> sources = Map.of("TYPED", stream.toDF());
    SparkQuery query = new SparkPlanTranslator(sources).translate(
        LogicalPlanConverter.convert(plan), keyed);
    SparkRows toFreshet = SparkRows.of(query);
    List<List<Object>> rows = new ArrayList<>();
    SparkContinuousQuery running = SparkContinuousQuery.start(query,
        checkpoints.resolve("q" + queries++), (batchId, batch) -> {
          synchronized (rows) {
            toFreshet.convert(batch).forEach(row -> rows.add(Arrays.asList(row)));
          }
        });
    try {
      stream.addData(CollectionConverters.asScala(SPARK_INPUT));
      assertTimeoutPreemptively(DEADLINE,
          () -> running.processAllAvailable());
    } finally {
      running.close();
    }
    synchronized (rows) {
      return sorted(rows);
    }
  }

  private static List<List<Object>> sorted(List<List<Object>> rows) {
    List<List<Object>> copy = new ArrayList<>(rows);
    copy.sort(Comparator.comparing(Object::toString));
    return copy;
  }
}
