package dev.freshet.spark.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.jdbc.EmbeddedEngines;
import dev.freshet.spark.LocalSparkSession;
import dev.freshet.testkit.ExternalTest;
import dev.freshet.testkit.SparkTest;
import dev.freshet.testkit.oracle.H2Oracle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.spark.SparkExecutorInfo;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Freshet's materialized views on a real standalone cluster (a master and two workers, each a
 * JVM) with this JVM as the driver in client mode, through the embedded JDBC driver of an engine
 * whose views run on Spark by default ({@code viewEngine=spark}, as {@code freshet serve --engine
 * spark --spark-master ...}): a stream declared with {@code connector = 'kafka'}, a view
 * {@code SELECT user_id, COUNT(*) ... GROUP BY user_id} in UPDATE mode whose executors read the
 * topic and parse its JSON values, and beside it a TUMBLE count with the stream's watermark in
 * APPEND mode. One worker dies mid-run; the view still ends at what H2 computes from the produced
 * records, and the windows view holds each window the last watermark closed, once.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@ExternalTest
@SparkTest
class ClusterSqlTest {
  private static final String TOPIC = "clicks";
  private static final int CHUNK = 20;
  private static final Duration BATCH_DEADLINE = Duration.ofSeconds(60);

  private static Path dir;
  private static InProcessKafka kafka;
  private static SparkStandaloneCluster cluster;
  private static Connection connection;
  private static Statement s;
  private static boolean passed;

  private final List<String> produced = new ArrayList<>();
  private final Random random = new Random(20);

  @BeforeAll static void start() throws Exception {
    dir = Files.createTempDirectory("spark-standalone");
    // The JVM's broker starts, if no class started it yet, while the cluster's JVMs start (each
    // takes seconds).
    CompletableFuture<InProcessKafka> broker = CompletableFuture.supplyAsync(() -> {
      try {
        InProcessKafka started = InProcessKafka.shared();
        started.createTopic(TOPIC, 2);
        return started;
      } catch (Exception e) {
        throw new CompletionException(e);
      }
    });
    try {
      cluster = SparkStandaloneCluster.start(dir.resolve("cluster"), 2);
    } finally {
      kafka = broker.exceptionally(e -> null).join();
    }
    broker.join(); // the broker's own failure, if any
    // Spark allows one SparkContext per JVM: the local one that classes before shared goes.
    LocalSparkSession.stop();
    assertTrue(SparkSession.getDefaultSession().isEmpty(), "the JVM's local SparkSession runs");
    Properties info = new Properties();
    info.setProperty("dataDir", dir.resolve("freshet").toString());
    info.setProperty("viewEngine", "spark");
    info.setProperty("spark.master", cluster.masterUrl());
    // The cluster's processes all see this machine's disk: a shared location.
    info.setProperty("spark.checkpoint.dir", dir.resolve("checkpoints").toString());
    // One executor of one core on each worker.
    info.setProperty("spark.executor.cores", "1");
    info.setProperty("spark.cores.max", "2");
    info.setProperty("spark.executor.memory", "512m");
    info.setProperty("spark.executor.extraClassPath", cluster.executorClassPath());
    info.setProperty("spark.executor.extraJavaOptions", "-XX:TieredStopAtLevel=1"
        + " -XX:+UseSerialGC -XX:+UnlockDiagnosticVMOptions -XX:-BytecodeVerificationRemote");
    connection = DriverManager.getConnection("jdbc:freshet:", info);
    s = connection.createStatement();
    String topic = " WITH (connector = 'kafka', 'topic' = '" + TOPIC + "',"
        + " 'properties.bootstrap.servers' = '" + kafka.bootstrapServers() + "',"
        + " 'format' = 'json'";
    // Several batches per chunk of produced records.
    s.execute("CREATE STREAM clicks (user_id VARCHAR, seq INTEGER, ts TIMESTAMP(3))" + topic
        + ", 'scan.max-records-per-batch' = '" + CHUNK + "')");
    // No limit per batch: a batch then reads both partitions to their ends, so that no record
    // arrives after one that was produced after it, and none is late by the watermark.
    s.execute("CREATE STREAM clicks_at (user_id VARCHAR, seq INTEGER, ts TIMESTAMP(3),"
        + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)" + topic + ")");
  }

  @AfterAll static void stop() throws Exception {
    if (connection != null) {
      EmbeddedEngines.of(dir.resolve("freshet")).close();
      connection.close();
    }
    SparkSession.getDefaultSession().foreach(spark -> {
      spark.stop();
      return null;
    });
    List<ProcessHandle> processes = cluster == null ? List.of() : cluster.liveProcesses();
    if (cluster != null) {
      cluster.close();
    }
    // close() fails if one survives; this checks what the fixture saw alive, by pid.
    assertTrue(processes.stream().noneMatch(ProcessHandle::isAlive), processes.toString());
    if (passed) { // else the daemons' logs and the executors' stderr stay for a post-mortem
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      }
    }
  }

  @Test void viewCountsPerKeyEndAtTheOracleAfterAWorkerDies() throws Exception {
    // No WITH: the engine runs views on Spark by default.
    s.execute("CREATE MATERIALIZED VIEW counts AS SELECT user_id, COUNT(*) AS n FROM clicks"
        + " GROUP BY user_id");
    s.execute("CREATE MATERIALIZED VIEW windows AS SELECT TUMBLE_START(ts, INTERVAL '10'"
        + " SECOND) AS w, COUNT(*) AS n FROM clicks_at GROUP BY TUMBLE(ts, INTERVAL '10' SECOND)"
        + " EMIT APPEND");
    assertTrue(plan("counts").contains("StateStoreSave"));
    awaitExecutors(2);
    produce(CHUNK);
    long batch = awaitBatchAfter(-1);
    produce(CHUNK);
    batch = awaitBatchAfter(batch);

    // A worker and its executor die while records keep coming.
    long batchAtKill = batch;
    produce(CHUNK);
    cluster.killWorker(0);
    produce(CHUNK);
    cluster.awaitAliveWorkers(1, BATCH_DEADLINE);
    awaitExecutors(1);
    batch = awaitBatchAfter(batch);
    produce(CHUNK);

    Map<String, Long> expected = oracle(produced);
    List<List<Object>> expectedRows = new ArrayList<>();
    new java.util.TreeMap<>(expected).forEach((user, n) -> expectedRows.add(List.of(user, n)));
    await("SELECT user_id, n FROM counts ORDER BY user_id", expectedRows);
    assertEquals(5 * CHUNK, expected.values().stream().mapToLong(Long::longValue).sum());
    assertTrue(lastBatchId("COUNTS") > batchAtKill + 1, "batches ran after the kill");

    // Chunk c is window [10c, 10c + 10) s; the last chunk's watermark closed chunks 0 to 2.
    List<List<Object>> closed = closedWindows(produced.size());
    assertEquals(3, closed.size());
    await("SELECT w, n FROM windows ORDER BY w", closed);
    assertEquals(List.of(List.of("COUNTS", "ACTIVE", "spark"),
        List.of("WINDOWS", "ACTIVE", "spark")),
        rows("SELECT name, status, engine FROM sys.queries ORDER BY name"));
    passed = true;
  }

  private static String plan(String view) throws Exception {
    String sql = (String) rows("SELECT query_text FROM sys.queries WHERE name = '"
        + view.toUpperCase() + "'").get(0).get(0);
    return (String) rows("EXPLAIN PLAN FOR " + sql).get(0).get(0);
  }

  /** Waits until the view's query ran a batch after {@code batch}; returns its id. */
  private static long awaitBatchAfter(long batch) throws Exception {
    Instant deadline = Instant.now().plus(BATCH_DEADLINE);
    while (Instant.now().isBefore(deadline)) {
      long last = lastBatchId("COUNTS");
      if (last > batch) {
        return last;
      }
      LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
    }
    throw new AssertionError("no batch after " + batch + " within " + BATCH_DEADLINE + ": "
        + rows("SELECT name, status, last_error FROM sys.queries"));
  }

  private static long lastBatchId(String view) throws Exception {
    return ((Number) rows("SELECT last_batch_id FROM sys.queries WHERE name = '" + view + "'")
        .get(0).get(0)).longValue();
  }

  /** Waits until {@code sql} gives {@code expected}, or fails with what it gave last. */
  private static void await(String sql, List<List<Object>> expected) throws Exception {
    Instant deadline = Instant.now().plus(BATCH_DEADLINE);
    List<List<Object>> last = List.of();
    while (Instant.now().isBefore(deadline)) {
      last = rows(sql);
      if (last.equals(expected)) {
        return;
      }
      LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
    }
    assertEquals(expected, last, sql + "; queries: "
        + rows("SELECT name, status, last_error FROM sys.queries"));
  }

  /** The rows of {@code sql}: integral numbers as longs, timestamps as UTC LocalDateTimes. */
  private static List<List<Object>> rows(String sql) throws Exception {
    List<List<Object>> rows = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(sql)) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<Object> row = new ArrayList<>();
        for (int c = 1; c <= columns; c++) {
          Object v = rs.getObject(c);
          row.add(v instanceof Integer i ? (Object) i.longValue()
              : v instanceof java.sql.Timestamp t
                  ? LocalDateTime.ofInstant(t.toInstant(), ZoneOffset.UTC) : v);
        }
        rows.add(row);
      }
    }
    return rows;
  }

  /**
   * Sends {@code n} records of one of five users as JSON values (keyed by the user, so spread over
   * both partitions), and waits until Kafka has them.
   */
  private void produce(int n) {
    KafkaProducer<String, String> producer = kafka.producer();
    for (int i = 0; i < n; i++) {
      String user = "u" + random.nextInt(5);
      producer.send(new ProducerRecord<>(TOPIC, user, "{\"user_id\": \"" + user
          + "\", \"seq\": " + produced.size() + ", \"ts\": " + eventTime(produced.size())
          + "}"));
      produced.add(user);
    }
    producer.flush();
  }

  /** Record {@code seq}'s event time in epoch milliseconds: its chunk's 10 s, 10 ms apart. */
  private static long eventTime(int seq) {
    return (seq / CHUNK) * 10_000L + (seq % CHUNK) * 10L;
  }

  /**
   * COUNT(*) per 10 s window of the first {@code records} records, by H2, of the windows that the
   * watermark (the largest event time less 5 s) closed, by start.
   */
  private static List<List<Object>> closedWindows(int records) throws Exception {
    List<List<Object>> clicks = new ArrayList<>();
    for (int seq = 0; seq < records; seq++) {
      clicks.add(List.of(eventTime(seq)));
    }
    try (H2Oracle h2 = new H2Oracle()) {
      h2.createTable("clicks", "ts BIGINT").insert("clicks", clicks);
      List<List<Object>> windows = new ArrayList<>();
      for (List<Object> row : h2.query("SELECT w, COUNT(*)"
          + " FROM (SELECT ts / 10000 * 10000 AS w FROM clicks) GROUP BY w"
          + " HAVING w + 10000 <= (SELECT MAX(ts) - 5000 FROM clicks) ORDER BY w")) {
        windows.add(List.of(LocalDateTime.ofEpochSecond(((Number) row.get(0)).longValue() / 1000,
            0, ZoneOffset.UTC), ((Number) row.get(1)).longValue()));
      }
      return windows;
    }
  }

  /** COUNT(*) per user of the produced records, by H2. */
  private static Map<String, Long> oracle(List<String> users) throws Exception {
    List<List<Object>> clicks = new ArrayList<>();
    for (String user : users) {
      clicks.add(List.of(user));
    }
    try (H2Oracle h2 = new H2Oracle()) {
      h2.createTable("clicks", "user_id VARCHAR(10)").insert("clicks", clicks);
      Map<String, Long> counts = new HashMap<>();
      for (List<Object> row : h2.query("SELECT user_id, COUNT(*) FROM clicks GROUP BY user_id")) {
        counts.put((String) row.get(0), ((Number) row.get(1)).longValue());
      }
      return counts;
    }
  }

  /** Waits until the driver has exactly {@code count} executors (besides itself). */
  private static void awaitExecutors(int count) {
    Instant deadline = Instant.now().plus(BATCH_DEADLINE);
    int executors = -1;
    while (Instant.now().isBefore(deadline)) {
      SparkExecutorInfo[] infos = SparkSession.getDefaultSession().get().sparkContext()
          .statusTracker().getExecutorInfos();
      executors = Math.max(0, infos.length - 1); // the driver is one of them, once registered
      if (executors == count) {
        return;
      }
      LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
    }
    throw new AssertionError("the driver has " + executors + " executors, not " + count);
  }
}
