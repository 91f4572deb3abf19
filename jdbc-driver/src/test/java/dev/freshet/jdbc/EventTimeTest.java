package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.runtime.StateOperatorProgress;
import dev.freshet.executor.runtime.StreamingQuery;
import dev.freshet.executor.runtime.StreamingQueryProgress;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Windows, watermarks and late data reproduce Spark's behaviour batch by batch (SEMANTICS.md
 * §4-§6, §14): a 10 s watermark over 5 s tumbling windows, event times in seconds since the epoch.
 */
class EventTimeTest {
  private final String engineName = UUID.randomUUID().toString();
  private Connection connection;
  private Statement statement;

  @BeforeEach void connect() throws Exception {
    // UTC, so that TIMESTAMP values read back as the instants written.
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + engineName
        + ";timeZone=UTC");
    statement = connection.createStatement();
    statement.execute("CREATE STREAM events (k VARCHAR, ts TIMESTAMP(3),"
        + " WATERMARK FOR ts AS ts - INTERVAL '10' SECOND) WITH (connector = 'memory')");
  }

  @AfterEach void close() throws Exception {
    connection.close();
  }

  /** Inserts one row per second given, with key 'a'; one INSERT, one batch. */
  private void insertSeconds(int... seconds) throws Exception {
    StringBuilder values = new StringBuilder();
    for (int s : seconds) {
      values.append(values.length() == 0 ? "" : ", ")
          .append("('a', TIMESTAMP '1970-01-01 00:00:00' + INTERVAL '").append(s)
          .append("' SECOND)");
    }
    statement.executeUpdate("INSERT INTO events VALUES " + values);
    awaitIdle();
  }

  /** Waits until the query has processed everything, including batches without data. */
  private StreamingQuery awaitIdle() throws Exception {
    return PushResults.awaitOnlyQuery(engineName, "event time");
  }

  private StreamingQueryProgress lastProgress() throws Exception {
    List<StreamingQueryProgress> progress = awaitIdle().recentProgress();
    return progress.get(progress.size() - 1);
  }

  private static List<Object> window(long startSeconds, long count) {
    return List.of(new java.sql.Timestamp(startSeconds * 1000), count);
  }

  @Test void shouldFollowSparksUpdateTimelineWithWatermarkAndTumblingWindows() throws Exception {
    try (Statement q = connection.createStatement();
         ResultSet rs = q.executeQuery("SELECT STREAM TUMBLE_START(ts, INTERVAL '5' SECOND) AS w,"
             + " COUNT(*) AS n FROM events GROUP BY TUMBLE(ts, INTERVAL '5' SECOND)"
             + " EMIT UPDATE")) {
      insertSeconds(10, 11, 12, 13, 14, 15);
      assertEquals(Set.of(window(10, 5), window(15, 1)), Set.copyOf(PushResults.readData(rs, 2)));
      // Batch 1 ran without data: the watermark moved from 0 to 15 - 10 = 5 s.
      StreamingQueryProgress noData = lastProgress();
      assertEquals(1, noData.batchId());
      assertEquals(5_000, noData.batchWatermarkMs());
      assertEquals(0, noData.numInputRows());

      insertSeconds(25);
      assertEquals(List.of(window(25, 1)), PushResults.readData(rs, 1));
      // Batch 3 (no data, watermark 15 s) evicted [10, 15) silently: nothing was emitted.
      StateOperatorProgress eviction = lastProgress().stateOperators().get(0);
      assertEquals(1, eviction.numRowsRemoved());
      assertEquals(2, eviction.numRowsTotal());

      insertSeconds(10, 25);
      // The row at 10 s is late for window [10, 15), whose end is at the watermark: dropped.
      assertEquals(List.of(window(25, 2)), PushResults.readData(rs, 1));
      StreamingQueryProgress late = lastProgress();
      assertEquals(4, late.batchId());
      assertEquals(1, late.stateOperators().get(0).numRowsDroppedByWatermark());
      assertEquals(2, late.stateOperators().get(0).numRowsTotal());
    }
  }

  @Test void shouldEmitEachWindowOnceInAppendModeWhenTheWatermarkPassesItsEnd() throws Exception {
    try (Statement q = connection.createStatement();
         ResultSet rs = q.executeQuery("SELECT STREAM TUMBLE_START(ts, INTERVAL '5' SECOND) AS w,"
             + " COUNT(*) AS n FROM events GROUP BY TUMBLE(ts, INTERVAL '5' SECOND)"
             + " EMIT APPEND")) {
      insertSeconds(10, 11, 12, 13, 14, 15);
      insertSeconds(25);
      // Watermark 15 s: [10, 15) is final and emitted once, with every row it got.
      assertEquals(List.of(window(10, 5)), PushResults.readData(rs, 1));

      insertSeconds(12);
      assertEquals(1, lastProgress().stateOperators().get(0).numRowsDroppedByWatermark());

      insertSeconds(41);
      // Watermark 31 s finalizes [15, 20) and [25, 30); the late row changed nothing.
      assertEquals(Set.of(window(15, 1), window(25, 1)), Set.copyOf(PushResults.readData(rs, 2)));
      assertEquals(1, lastProgress().stateOperators().get(0).numRowsTotal());
    }
  }

  @Test void shouldIgnoreTheWatermarkInCompleteMode() throws Exception {
    try (Statement q = connection.createStatement();
         ResultSet rs = q.executeQuery("SELECT STREAM TUMBLE_START(ts, INTERVAL '5' SECOND) AS w,"
             + " COUNT(*) AS n FROM events GROUP BY TUMBLE(ts, INTERVAL '5' SECOND)"
             + " EMIT COMPLETE")) {
      insertSeconds(10, 11, 15);
      assertEquals(Set.of(window(10, 2), window(15, 1)), Set.copyOf(PushResults.readData(rs, 2)));
      insertSeconds(40);
      assertEquals(Set.of(window(10, 2), window(15, 1), window(40, 1)),
          Set.copyOf(PushResults.readData(rs, 3)));
      // Watermark 30 s, far past [10, 15): a late row still counts, and nothing is evicted.
      insertSeconds(12);
      assertEquals(Set.of(window(10, 3), window(15, 1), window(40, 1)),
          Set.copyOf(PushResults.readData(rs, 3)));
      assertEquals(0, lastProgress().stateOperators().get(0).numRowsDroppedByWatermark());
    }
  }

  @Test void shouldCountARowInEveryHoppingWindowThatContainsIt() throws Exception {
    try (Statement q = connection.createStatement();
         ResultSet rs = q.executeQuery("SELECT STREAM HOP_START(ts, INTERVAL '5' SECOND,"
             + " INTERVAL '10' SECOND) AS w, COUNT(*) AS n FROM events"
             + " GROUP BY HOP(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND)")) {
      insertSeconds(12);
      assertEquals(Set.of(window(5, 1), window(10, 1)), Set.copyOf(PushResults.readData(rs, 2)));
      insertSeconds(17);
      assertEquals(Set.of(window(10, 2), window(15, 1)), Set.copyOf(PushResults.readData(rs, 2)));
    }
  }

  @Test void shouldRunTheWindowTableFunctions() throws Exception {
    try (Statement q1 = connection.createStatement();
         ResultSet tumble = q1.executeQuery("SELECT STREAM window_start, window_end, k,"
             + " COUNT(*) AS n FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts),"
             + " INTERVAL '5' SECOND)) GROUP BY window_start, window_end, k EMIT APPEND");
         Statement q2 = connection.createStatement();
         ResultSet hop = q2.executeQuery("SELECT STREAM window_start, COUNT(*) AS n"
             + " FROM TABLE(HOP(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND,"
             + " INTERVAL '10' SECOND)) GROUP BY window_start, window_end")) {
      statement.executeUpdate("INSERT INTO events VALUES"
          + " ('a', TIMESTAMP '1970-01-01 00:00:12'), ('a', TIMESTAMP '1970-01-01 00:00:13')");
      assertEquals(Set.of(window(5, 2), window(10, 2)), Set.copyOf(PushResults.readData(hop, 2)));
      statement.executeUpdate("INSERT INTO events VALUES ('a', TIMESTAMP '1970-01-01 00:00:40')");
      assertEquals(List.of(List.of(new java.sql.Timestamp(10_000), new java.sql.Timestamp(15_000),
          "a", 2L)), PushResults.readData(tumble, 1));
    }
  }

  @Test void shouldSortAndLimitAnAggregationInCompleteMode() throws Exception {
    try (Statement q = connection.createStatement();
         ResultSet rs = q.executeQuery("SELECT STREAM k, COUNT(*) AS n FROM events GROUP BY k"
             + " ORDER BY n DESC, k LIMIT 2 EMIT COMPLETE")) {
      statement.executeUpdate("INSERT INTO events (k) VALUES ('a'), ('b'), ('b'), ('c')");
      assertEquals(List.of(List.of("b", 2L, 0L, "INSERT"), List.of("a", 1L, 0L, "INSERT")),
          PushResults.read(rs, 2));
      statement.executeUpdate("INSERT INTO events (k) VALUES ('c'), ('c')");
      // LIMIT pushes a out: its DELETE, with the values the reader had, comes first.
      assertEquals(List.of(List.of("a", 1L, 1L, "DELETE"), List.of("c", 3L, 1L, "INSERT"),
          List.of("b", 2L, 1L, "UPDATE")), PushResults.read(rs, 3));
    }
  }

  @Test void shouldShowTheWatermarkAndEventTimeKeyInThePlan() throws Exception {
    try (ResultSet rs = statement.executeQuery("EXPLAIN PLAN FOR SELECT STREAM"
        + " TUMBLE_END(ts, INTERVAL '5' SECOND) AS w, COUNT(*) AS n FROM events"
        + " GROUP BY TUMBLE(ts, INTERVAL '5' SECOND) EMIT APPEND")) {
      assertTrue(rs.next());
      assertEquals(""
          + "LogicalProject(W=[+($0, 5000:INTERVAL SECOND)], N=[$1])\n"
          + "  LogicalStateStoreSave(operatorId=[0], keys=[{0}], outputMode=[Append],"
          + " statePartitions=[1], eventTimeKey=[$0 + 5000 ms], watermark=[TS - 10000 ms],"
          + " state=[BOUNDED BY WATERMARK])\n"
          + "    LogicalStreamAggregate(group=[{0}], N=[$SUM0($1)], phase=[MERGE])\n"
          + "      LogicalStateStoreRestore(operatorId=[0], keys=[{0}])\n"
          + "        LogicalStreamAggregate(group=[{0}], N=[COUNT()], phase=[PARTIAL])\n"
          + "          LogicalProject($f0=[CAST($2):TIMESTAMP(3)])\n"
          + "            LogicalTimeWindow(eventTime=[TS], sizeMs=[5000])\n"
          + "              LogicalEventTimeWatermark(eventTime=[TS], delayMs=[10000])\n"
          + "                LogicalTableScan(table=[[FRESHET, EVENTS]])\n",
          rs.getString(1));
    }
  }
}
