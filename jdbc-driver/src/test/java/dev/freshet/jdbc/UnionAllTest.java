package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.runtime.StreamingQuery;
import dev.freshet.executor.runtime.StreamingQueryProgress;
import dev.freshet.testkit.oracle.H2Oracle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code UNION ALL} of streams: one query reads two streams, each batch a range of each (one
 * offset log entry with two offsets), and the global watermark is the minimum of the inputs'
 * (Spark's default {@code min} policy), which does not move until every input has seen rows.
 */
class UnionAllTest {
  private final String engineName = UUID.randomUUID().toString();
  private Connection freshet;
  private H2Oracle h2;
  private Statement fs;

  @BeforeEach void connect() throws Exception {
    freshet = DriverManager.getConnection("jdbc:freshet:engine=" + engineName + ";timeZone=UTC");
    h2 = new H2Oracle();
    fs = freshet.createStatement();
  }

  @AfterEach void close() throws Exception {
    freshet.close();
    h2.close();
  }

  @Test void shouldMatchH2AfterEveryBatchForAViewOverAUnionOfTwoStreams() throws Exception {
    for (String table : List.of("a", "b")) {
      fs.execute("CREATE STREAM " + table + " (k VARCHAR, v INTEGER) WITH (connector = 'memory')");
      h2.createTable(table, "k VARCHAR, v INTEGER");
    }
    String query = "SELECT k, COUNT(*) AS n, SUM(v) AS total, MAX(v) AS top FROM"
        + " (SELECT k, v FROM a UNION ALL SELECT k, v * 10 AS v FROM b WHERE v > 3) AS u"
        + " GROUP BY k";
    fs.execute("CREATE MATERIALIZED VIEW u AS " + query);
    Random random = new Random(7);
    for (int batch = 0; batch < 25; batch++) {
      // Some batches reach one stream only: the other input's chain still runs the batch.
      for (String table : random.nextInt(3) == 0 ? List.of("a", "b")
          : List.of(random.nextBoolean() ? "a" : "b")) {
        String values = randomValues(random);
        fs.executeUpdate("INSERT INTO " + table + " VALUES " + values);
        h2.execute("INSERT INTO " + table + " VALUES " + values);
      }
      ViewResults.awaitNormalized(fs, "SELECT * FROM u",
          ViewResults.normalized(h2.query(query)));
    }
  }

  @Test void shouldPushEveryRowOfBothStreamsOnce() throws Exception {
    for (String table : List.of("a", "b")) {
      fs.execute("CREATE STREAM " + table + " (k VARCHAR, v INTEGER) WITH (connector = 'memory')");
      h2.createTable(table, "k VARCHAR, v INTEGER");
    }
    String query = "SELECT k, v FROM a WHERE v < 50 UNION ALL SELECT UPPER(k), v FROM b";
    try (Statement q = freshet.createStatement();
         ResultSet rs = q.executeQuery(query.replace("SELECT k", "SELECT STREAM k"))) {
      Random random = new Random(11);
      List<List<Object>> pushed = new ArrayList<>();
      for (int batch = 0; batch < 10; batch++) {
        String table = batch % 3 == 0 ? "b" : "a";
        String values = randomValues(random);
        fs.executeUpdate("INSERT INTO " + table + " VALUES " + values);
        h2.execute("INSERT INTO " + table + " VALUES " + values);
        List<List<Object>> expected = h2.query(query);
        pushed.addAll(PushResults.readData(rs, expected.size() - pushed.size()));
        assertTrue(ViewResults.sameRows(pushed, expected),
            "after batch " + batch + ": " + pushed + " != " + expected);
      }
    }
  }

  /**
   * Spark's scenario: two streams with watermarks, unioned, counted per 10 s window in APPEND.
   * The fast stream's rows alone do not finish a window: the slower input holds the global
   * watermark back until its own rows move it.
   */
  @Test void shouldHoldTheWindowBackUntilTheSlowerInputsWatermarkPassesIt() throws Exception {
    for (String table : List.of("fast", "slow")) {
      fs.execute("CREATE STREAM " + table + " (ts TIMESTAMP(3),"
          + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH (connector = 'memory')");
    }
    try (Statement q = freshet.createStatement();
         ResultSet rs = q.executeQuery("SELECT STREAM TUMBLE_START(ts, INTERVAL '10' SECOND)"
             + " AS w, COUNT(*) AS n FROM (SELECT ts FROM fast UNION ALL SELECT ts FROM slow)"
             + " GROUP BY TUMBLE(ts, INTERVAL '10' SECOND) EMIT APPEND")) {
      insertSeconds("fast", 1, 2);
      insertSeconds("fast", 40);
      // fast's watermark is 35 s, but slow has seen no row: the global watermark stays 0.
      assertEquals(0, lastProgress().batchWatermarkMs());
      insertSeconds("slow", 3, 12);
      // slow's watermark: 12 - 5 = 7 s; the minimum, 7 s, finishes no window yet.
      assertEquals(7_000, lastProgress().batchWatermarkMs());
      insertSeconds("slow", 16);
      // 16 - 5 = 11 s passes [0, 10): emitted once, with both streams' rows.
      assertEquals(List.of(List.of(new java.sql.Timestamp(0), 3L)), PushResults.readData(rs, 1));
      assertEquals(11_000, lastProgress().batchWatermarkMs());
      // A row of the fast stream older than the global watermark is late, though its own
      // stream's watermark is far ahead only because of the minimum.
      insertSeconds("fast", 5);
      assertEquals(1, lastProgress().stateOperators().get(0).numRowsDroppedByWatermark());
      insertSeconds("slow", 50);
      // min(35, 45) = 35 s: [10, 20) with 12 and 16 s is final.
      assertEquals(List.of(List.of(new java.sql.Timestamp(10_000), 2L)),
          PushResults.readData(rs, 1));
    }
  }

  /**
   * A restarted view of a union resumes each stream where its batch ended: the offset log's
   * entry has one offset per stream, and the rows of neither are counted twice or lost.
   */
  @Test void shouldResumeEachStreamOfAUnionAfterARestart(@TempDir Path dataDir) throws Exception {
    String url = "jdbc:freshet:dataDir=" + dataDir + ";timeZone=UTC";
    for (String table : List.of("a", "b")) {
      h2.createTable(table, "k VARCHAR, v INTEGER");
    }
    String query = "SELECT k, COUNT(*) AS n, SUM(v) AS total FROM"
        + " (SELECT k, v FROM a UNION ALL SELECT k, v FROM b) AS u GROUP BY k";
    Random random = new Random(3);
    for (int run = 0; run < 3; run++) {
      try (Connection c = DriverManager.getConnection(url);
           Statement s = c.createStatement()) {
        if (run == 0) {
          s.execute("CREATE STREAM a (k VARCHAR, v INTEGER) WITH (connector = 'memory')");
          s.execute("CREATE STREAM b (k VARCHAR, v INTEGER) WITH (connector = 'memory')");
          s.execute("CREATE MATERIALIZED VIEW u AS " + query);
        }
        ViewResults.awaitNormalized(s, "SELECT * FROM u",
            ViewResults.normalized(h2.query(query)));
        for (int batch = 0; batch < 4; batch++) {
          String table = random.nextBoolean() ? "a" : "b";
          String values = randomValues(random);
          s.executeUpdate("INSERT INTO " + table + " VALUES " + values);
          h2.execute("INSERT INTO " + table + " VALUES " + values);
          ViewResults.awaitNormalized(s, "SELECT * FROM u",
              ViewResults.normalized(h2.query(query)));
        }
      } finally {
        EngineRegistry.INSTANCE.resolve(Map.of(EngineRegistry.DATA_DIR, dataDir.toString()))
            .close();
      }
    }
    // Each batch's offsets name both streams: the first entry of the view's offset log.
    try (var files = Files.walk(dataDir)) {
      Path firstBatch = files.filter(p -> p.getFileName().toString().equals("0")
          && p.getParent().getFileName().toString().equals("offsets")).findFirst()
          .orElseThrow();
      List<String> lines = Files.readAllLines(firstBatch);
      assertEquals(5, lines.size(), "version, metadata, two offsets and the checksum: " + lines);
      assertTrue(lines.get(4).startsWith("crc32c "), lines.toString());
    }
  }

  @Test void shouldRefuseUnionWithoutAll() throws Exception {
    fs.execute("CREATE STREAM a (k VARCHAR) WITH (connector = 'memory')");
    fs.execute("CREATE STREAM b (k VARCHAR) WITH (connector = 'memory')");
    SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
        () -> fs.executeQuery("SELECT STREAM k FROM a UNION SELECT k FROM b"));
    assertEquals("0A000", e.getSQLState());
    assertTrue(e.getMessage().contains("UNION of streams without ALL is not supported"),
        e.getMessage());
    assertTrue(e.getMessage().contains("UNION ALL"), e.getMessage());
  }

  private void insertSeconds(String stream, int... seconds) throws Exception {
    StringBuilder values = new StringBuilder();
    for (int s : seconds) {
      values.append(values.length() == 0 ? "" : ", ")
          .append("(TIMESTAMP '1970-01-01 00:00:00' + INTERVAL '").append(s)
          .append("' SECOND)");
    }
    fs.executeUpdate("INSERT INTO " + stream + " VALUES " + values);
    awaitIdle();
  }

  private StreamingQuery awaitIdle() throws Exception {
    return PushResults.awaitOnlyQuery(engineName, "union");
  }

  private StreamingQueryProgress lastProgress() throws Exception {
    List<StreamingQueryProgress> progress = awaitIdle().recentProgress();
    return progress.get(progress.size() - 1);
  }

  private static String randomValues(Random random) {
    StringBuilder values = new StringBuilder();
    int rows = 1 + random.nextInt(6);
    for (int i = 0; i < rows; i++) {
      values.append(i == 0 ? "" : ", ").append("('k").append(random.nextInt(4)).append("', ")
          .append(random.nextInt(8) == 0 ? "NULL" : Integer.toString(random.nextInt(100)))
          .append(')');
    }
    return values.toString();
  }
}
