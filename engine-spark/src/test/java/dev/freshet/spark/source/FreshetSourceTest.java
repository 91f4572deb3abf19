package dev.freshet.spark.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.source.MemoryStream;
import dev.freshet.executor.source.StreamColumn;
import dev.freshet.spark.LocalSparkSession;
import dev.freshet.testkit.SparkTest;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.stream.IntStream;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Freshet {@link MemoryStream} read by Spark through {@code format("freshet")}: each INSERT's
 * rows in one batch with Spark's types, an aggregate equal to H2's, and the offsets Spark's
 * checkpoint fixes across a restart and a replayed batch.
 */
@SparkTest
@ExtendWith(LocalSparkSession.class)
class FreshetSourceTest {
  private static final List<StreamColumn> KEYED = List.of(new StreamColumn("K", "VARCHAR"),
      new StreamColumn("V", "INTEGER NOT NULL"));

  private static SparkSession spark;
  @TempDir Path dir;

  @BeforeAll static void startSpark() {
    spark = LocalSpark.start();
  }

  @AfterAll static void releaseSpark() {
    LocalSpark.release(spark);
  }

  @Test void shouldDeliverEachInsertAsOneBatchWithSparkTypes() throws Exception {
    List<StreamColumn> columns = List.of(new StreamColumn("NAME", "VARCHAR(10)"),
        new StreamColumn("N", "INTEGER"), new StreamColumn("BIG", "BIGINT NOT NULL"),
        new StreamColumn("PRICE", "DECIMAL(10, 2)"), new StreamColumn("OK", "BOOLEAN"),
        new StreamColumn("SCORE", "DOUBLE"), new StreamColumn("TS", "TIMESTAMP(3) NOT NULL"),
        new StreamColumn("DAY", "DATE"));
    MemoryStream stream = new MemoryStream("TYPED", columns.size());
    List<List<Object[]>> inserts = List.of(
        rows(row("a", 1, 10L, new BigDecimal("1.50"), true, 0.5, 1_700_000_000_123L, 19_000),
            row(null, null, 11L, null, null, null, 0L, null)),
        rows(row("é€", -7, Long.MAX_VALUE, new BigDecimal("-99999999.99"), false, -1e300,
            -1L, -1)),
        rows(row("c", 3, 12L, new BigDecimal("0.01"), true, 2.0, 86_400_000L, 0),
            row("d", 4, 13L, new BigDecimal("3"), false, 3.0, 86_400_001L, 1),
            row("e", 5, 14L, new BigDecimal("4.25"), null, null, 86_400_002L, 2)));
    try (StreamRegistration typed = FreshetSource.register("TYPED", stream, columns)) {
      Dataset<Row> rows = typed.readStream(spark);
      assertEquals(new StructType()
          .add("NAME", DataTypes.StringType, true)
          .add("N", DataTypes.IntegerType, true)
          .add("BIG", DataTypes.LongType, false)
          .add("PRICE", DataTypes.createDecimalType(10, 2), true)
          .add("OK", DataTypes.BooleanType, true)
          .add("SCORE", DataTypes.DoubleType, true)
          .add("TS", DataTypes.TimestampType, false)
          .add("DAY", DataTypes.DateType, true), rows.schema());
      Map<Long, List<List<Object>>> batches = new ConcurrentSkipListMap<>();
      StreamingQuery query = rows.writeStream()
          .foreachBatch(collectInto(batches))
          .option("checkpointLocation", dir.resolve("checkpoint").toString())
          .start();
      try {
        for (List<Object[]> insert : inserts) {
          stream.addData(insert);
          query.processAllAvailable();
        }
      } finally {
        query.stop();
      }
      assertEquals(Map.of(
          0L, List.of(
              List.of("a", 1, 10L, new BigDecimal("1.50"), true, 0.5,
                  Instant.ofEpochMilli(1_700_000_000_123L), LocalDate.ofEpochDay(19_000)),
              Arrays.asList(null, null, 11L, null, null, null, Instant.EPOCH, null)),
          1L, List.of(
              List.of("é€", -7, Long.MAX_VALUE, new BigDecimal("-99999999.99"), false, -1e300,
                  Instant.ofEpochMilli(-1L), LocalDate.of(1969, 12, 31))),
          2L, List.of(
              List.of("c", 3, 12L, new BigDecimal("0.01"), true, 2.0,
                  Instant.parse("1970-01-02T00:00:00Z"), LocalDate.EPOCH),
              List.of("d", 4, 13L, new BigDecimal("3.00"), false, 3.0,
                  Instant.parse("1970-01-02T00:00:00.001Z"), LocalDate.of(1970, 1, 2)),
              Arrays.asList("e", 5, 14L, new BigDecimal("4.25"), null, null,
                  Instant.parse("1970-01-02T00:00:00.002Z"), LocalDate.of(1970, 1, 3)))),
          batches);
    }
  }

  @Test void shouldReadADurableStreamFromItsLog() throws Exception {
    try (MemoryStream stream = MemoryStream.open("DURABLE", KEYED, dir.resolve("streams/D"));
        StreamRegistration durable = FreshetSource.register("DURABLE", stream, KEYED)) {
      Dataset<Row> rows = spark.readStream().format("freshet")
          .option(FreshetSource.STREAM_OPTION, durable.id())
          .option(FreshetSource.READ_FROM_OPTION, FreshetSource.READ_FROM_LOG)
          .option(FreshetSource.MAX_PARTITIONS_OPTION, "2")
          .option(FreshetSource.MIN_ROWS_PER_PARTITION_OPTION, "2")
          .load();
      Map<Long, List<List<Object>>> batches = new ConcurrentSkipListMap<>();
      StreamingQuery query = rows.writeStream()
          .foreachBatch(collectInto(batches))
          .option("checkpointLocation", dir.resolve("checkpoint").toString())
          .start();
      try {
        for (List<Object[]> insert : List.of(rows(row("a", 1), row(null, 2)),
            rows(row("b", 3)), rows(row("c", 4), row("d", 5), row("e", 6), row("f", 7)))) {
          stream.addData(insert);
          query.processAllAvailable();
        }
      } finally {
        query.stop();
      }
      // Two tasks read the last batch, each its half of the log's record.
      assertEquals(Map.of(0L, List.of(List.of("a", 1), Arrays.asList(null, 2)),
          1L, List.of(List.of("b", 3)),
          2L, List.of(List.of("c", 4), List.of("d", 5), List.of("e", 6), List.of("f", 7))),
          batches);
    }
  }

  @Test void shouldCountLikeH2InUpdateMode() throws Exception {
    MemoryStream stream = new MemoryStream("KEYED", 2);
    try (StreamRegistration keyed = FreshetSource.register("KEYED", stream, KEYED);
        Connection h2 = h2("count")) {
      Map<String, Long> counts = new TreeMap<>();
      StreamingQuery query = countByKey(keyed, counts, dir.resolve("checkpoint"));
      try {
        for (List<Object[]> insert : List.of(
            rows(row("a", 1), row("b", 2), row("a", 3)),
            rows(row("c", 4), row(null, 5)),
            rows(row("a", 6), row("b", 7), row(null, 8), row("d", 9)))) {
          stream.addData(insert);
          insertInto(h2, insert);
          query.processAllAvailable();
          assertEquals(h2Counts(h2), counts);
        }
      } finally {
        query.stop();
      }
      assertEquals(Map.of("a", 3L, "b", 2L, "c", 1L, "d", 1L, "<null>", 2L), counts);
    }
  }

  @Test void shouldResumeAtCommittedOffsetAfterRestart() throws Exception {
    MemoryStream stream = new MemoryStream("RESUMED", 2);
    Path checkpoint = dir.resolve("checkpoint");
    try (StreamRegistration before = FreshetSource.register("RESUMED", stream, KEYED);
        Connection h2 = h2("resume")) {
      Map<String, Long> counts = new TreeMap<>();
      StreamingQuery first = countByKey(before, counts, checkpoint);
      try {
        for (List<Object[]> insert : List.of(rows(row("a", 1), row("b", 2)),
            rows(row("a", 3)))) {
          stream.addData(insert);
          insertInto(h2, insert);
          first.processAllAvailable();
        }
      } finally {
        first.stop();
      }
      for (List<Object[]> insert : List.of(rows(row("a", 4), row("c", 5)),
          rows(row("b", 6)))) {
        stream.addData(insert);
        insertInto(h2, insert);
      }
      // A new registration of the same stream: the checkpoint holds offsets, not the id.
      try (StreamRegistration after = FreshetSource.register("RESUMED", stream, KEYED)) {
        StreamingQuery second = countByKey(after, counts, checkpoint);
        try {
          second.processAllAvailable();
          assertEquals(2L, second.lastProgress().batchId());
          assertEquals("{\"offset\":2}", second.lastProgress().sources()[0].startOffset());
          assertEquals("{\"offset\":4}", second.lastProgress().sources()[0].endOffset());
          assertEquals(3L, second.lastProgress().numInputRows());
        } finally {
          second.stop();
        }
      }
      assertEquals(h2Counts(h2), counts);
      assertEquals(Map.of("a", 3L, "b", 2L, "c", 1L), counts);
    }
  }

  @Test void shouldReplayAnUncommittedBatchWithTheSameRows() throws Exception {
    MemoryStream stream = new MemoryStream("REPLAYED", 2);
    Path checkpoint = dir.resolve("checkpoint");
    try (StreamRegistration replayed = FreshetSource.register("REPLAYED", stream, KEYED)) {
      Map<Long, List<List<Object>>> batches = new ConcurrentSkipListMap<>();
      StreamingQuery first = collect(replayed, batches, checkpoint);
      try {
        stream.addData(rows(row("a", 1), row("b", 2)));
        first.processAllAvailable();
      } finally {
        first.stop();
      }
      // A crash after batch 0's rows went out but before Spark committed it: no commit file.
      forgetCommit(checkpoint, 0);
      stream.addData(rows(row("c", 3)));
      batches.clear();
      StreamingQuery second = collect(replayed, batches, checkpoint);
      try {
        second.processAllAvailable();
      } finally {
        second.stop();
      }
      // Batch 0 again with its own rows only (its end offset came from the offset log), then
      // the new row in batch 1.
      assertEquals(Map.of(0L, List.of(List.of("a", 1), List.of("b", 2)),
          1L, List.of(List.of("c", 3))), batches);
    }
  }

  @Test void shouldReplayFromTheLogOfAStreamReopenedAfterACrash() throws Exception {
    Path directory = dir.resolve("streams/REOPENED");
    Path checkpoint = dir.resolve("checkpoint");
    Map<Long, List<List<Object>>> batches = new ConcurrentSkipListMap<>();
    try (MemoryStream stream = MemoryStream.open("REOPENED", KEYED, directory);
        StreamRegistration before = FreshetSource.register("REOPENED", stream, KEYED)) {
      StreamingQuery first = readLog(before).writeStream().foreachBatch(collectInto(batches))
          .option("checkpointLocation", checkpoint.toString()).start();
      try {
        stream.addData(rows(row("a", 1), row("b", 2)));
        first.processAllAvailable();
      } finally {
        first.stop();
      }
    }
    // The process died after batch 0's rows went out, before Spark committed the batch; the
    // stream's rows survive in its directory, the registration does not.
    forgetCommit(checkpoint, 0);
    batches.clear();
    try (MemoryStream stream = MemoryStream.open("REOPENED", KEYED, directory);
        StreamRegistration after = FreshetSource.register("REOPENED", stream, KEYED)) {
      stream.addData(rows(row("c", 3)));
      StreamingQuery second = readLog(after).writeStream().foreachBatch(collectInto(batches))
          .option("checkpointLocation", checkpoint.toString()).start();
      try {
        second.processAllAvailable();
      } finally {
        second.stop();
      }
    }
    assertEquals(Map.of(0L, List.of(List.of("a", 1), List.of("b", 2)),
        1L, List.of(List.of("c", 3))), batches);
  }

  private static Dataset<Row> readLog(StreamRegistration registration) {
    return spark.readStream().format("freshet")
        .option(FreshetSource.STREAM_OPTION, registration.id())
        .option(FreshetSource.READ_FROM_OPTION, FreshetSource.READ_FROM_LOG)
        .load();
  }

  @Test void shouldSplitALargeInsertAcrossTasks() throws Exception {
    MemoryStream stream = new MemoryStream("LARGE", 2);
    List<Object[]> insert = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      insert.add(row("k" + (i % 7), i));
    }
    try (StreamRegistration large = FreshetSource.register("LARGE", stream, KEYED)) {
      Dataset<Row> rows = spark.readStream().format("freshet")
          .option(FreshetSource.STREAM_OPTION, large.id())
          .option(FreshetSource.MAX_PARTITIONS_OPTION, "3")
          .option(FreshetSource.MIN_ROWS_PER_PARTITION_OPTION, "1000")
          .load();
      // Per task: its row count and the sum, first and last value of V it read.
      Map<Long, List<List<Object>>> batches = new ConcurrentSkipListMap<>();
      StreamingQuery query = rows
          .groupBy(functions.spark_partition_id().as("task"))
          .agg(functions.count("V"), functions.sum("V"), functions.min("V"), functions.max("V"))
          .writeStream().outputMode("complete")
          .foreachBatch(collectInto(batches))
          .option("checkpointLocation", dir.resolve("checkpoint").toString())
          .start();
      try {
        stream.addData(insert);
        query.processAllAvailable();
      } finally {
        query.stop();
      }
      assertEquals(Map.of(0L, List.of(List.of(0, 1000L, 499_500L, 0, 999),
          List.of(1, 1000L, 1_499_500L, 1000, 1999),
          List.of(2, 1000L, 2_499_500L, 2000, 2999))), sortedBatches(batches));
    }
  }

  @Test void shouldNameTheRegistrationThatIsMissing() {
    Exception e = assertThrows(Exception.class, () -> spark.readStream().format("freshet")
        .option(FreshetSource.STREAM_OPTION, "GONE#0").load());
    FreshetSourceException source = causeOfType(e, FreshetSourceException.class);
    assertEquals("42S02", source.sqlException().getSQLState());
    assertEquals("No Freshet stream is registered as 'GONE#0' in this JVM. Register the stream"
        + " in the driver with FreshetSource.register(...) and keep the registration open while"
        + " the query runs; the registry is per JVM, so the source runs with a local master"
        + " (local[n]) only", source.getMessage());
  }

  @Test void shouldFailTheBatchAfterTheRegistrationIsClosed() throws Exception {
    MemoryStream stream = new MemoryStream("CLOSED", 2);
    StreamRegistration closed = FreshetSource.register("CLOSED", stream, KEYED);
    Map<Long, List<List<Object>>> batches = new ConcurrentSkipListMap<>();
    StreamingQuery query = collect(closed, batches, dir.resolve("checkpoint"));
    try {
      closed.close();
      stream.addData(rows(row("a", 1)));
      Exception e = assertThrows(Exception.class, query::processAllAvailable);
      FreshetSourceException source = causeOfType(e, FreshetSourceException.class);
      assertEquals("42S02", source.sqlException().getSQLState());
      assertTrue(source.getMessage().startsWith("No Freshet stream is registered as '"
          + closed.id() + "'"), source.getMessage());
    } finally {
      query.stop();
    }
  }

  private static StreamingQuery collect(StreamRegistration registration,
      Map<Long, List<List<Object>>> batches, Path checkpoint) throws Exception {
    return registration.readStream(spark).writeStream()
        .foreachBatch(collectInto(batches))
        .option("checkpointLocation", checkpoint.toString())
        .start();
  }

  /** Folds the query's UPDATE-mode counts per key into {@code counts} (null key as "<null>"). */
  private static StreamingQuery countByKey(StreamRegistration registration,
      Map<String, Long> counts, Path checkpoint) throws Exception {
    return registration.readStream(spark).groupBy("K").count()
        .writeStream().outputMode("update")
        .foreachBatch((VoidFunction2<Dataset<Row>, Long>) (batch, batchId) -> {
          List<Row> changed = batch.collectAsList();
          synchronized (counts) {
            for (Row row : changed) {
              counts.put(row.isNullAt(0) ? "<null>" : row.getString(0), row.getLong(1));
            }
          }
        })
        .option("checkpointLocation", checkpoint.toString())
        .start();
  }

  private static VoidFunction2<Dataset<Row>, Long> collectInto(
      Map<Long, List<List<Object>>> batches) {
    return (batch, batchId) -> {
      List<List<Object>> rows = new ArrayList<>();
      for (Row row : batch.collectAsList()) {
        rows.add(IntStream.range(0, row.length()).mapToObj(row::get).toList());
      }
      batches.put(batchId, rows);
    };
  }

  /** The batches with each one's rows in order of their first value (tasks finish in any). */
  private static Map<Long, List<List<Object>>> sortedBatches(
      Map<Long, List<List<Object>>> batches) {
    Map<Long, List<List<Object>>> sorted = new TreeMap<>();
    batches.forEach((batchId, rows) -> {
      List<List<Object>> copy = new ArrayList<>(rows);
      copy.sort((a, b) -> Integer.compare((Integer) a.get(0), (Integer) b.get(0)));
      sorted.put(batchId, copy);
    });
    return sorted;
  }

  private static Connection h2(String name) throws SQLException {
    Connection h2 = DriverManager.getConnection("jdbc:h2:mem:" + name + System.nanoTime());
    try (Statement statement = h2.createStatement()) {
      statement.execute("CREATE TABLE T (K VARCHAR, V INTEGER NOT NULL)");
    }
    return h2;
  }

  private static void insertInto(Connection h2, List<Object[]> rows) throws SQLException {
    try (var insert = h2.prepareStatement("INSERT INTO T VALUES (?, ?)")) {
      for (Object[] row : rows) {
        insert.setObject(1, row[0]);
        insert.setObject(2, row[1]);
        insert.executeUpdate();
      }
    }
  }

  private static Map<String, Long> h2Counts(Connection h2) throws SQLException {
    Map<String, Long> counts = new TreeMap<>();
    try (Statement statement = h2.createStatement();
        ResultSet rows = statement.executeQuery("SELECT K, COUNT(*) FROM T GROUP BY K")) {
      while (rows.next()) {
        counts.put(rows.getString(1) == null ? "<null>" : rows.getString(1), rows.getLong(2));
      }
    }
    return counts;
  }

  static Object[] row(Object... values) {
    return values;
  }

  /** The rows of one INSERT. */
  static List<Object[]> rows(Object[]... rows) {
    return List.of(rows);
  }

  static <T extends Throwable> T causeOfType(Throwable e, Class<T> type) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (type.isInstance(cause)) {
        return type.cast(cause);
      }
    }
    throw new AssertionError("no " + type.getSimpleName() + " in " + e, e);
  }

  /** What a crash between a batch's output and its commit leaves: no commit file for it. */
  private static void forgetCommit(Path checkpoint, long batchId) throws Exception {
    Files.delete(checkpoint.resolve("commits/" + batchId));
    Files.deleteIfExists(checkpoint.resolve("commits/." + batchId + ".crc"));
  }
}
