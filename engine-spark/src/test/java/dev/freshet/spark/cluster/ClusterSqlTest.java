package dev.freshet.spark.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.spark.FreshetSql;
import dev.freshet.spark.SparkContinuousQuery;
import dev.freshet.spark.SparkPlanTranslator;
import dev.freshet.spark.SparkQuery;
import dev.freshet.spark.SparkSources;
import dev.freshet.sql.parser.EmitMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
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
 * Freshet's SQL on a real standalone cluster (a master and two workers, each a JVM) with this JVM
 * as the driver in client mode: a stream declared with {@code connector = 'kafka'} by Freshet's
 * DDL, {@code SELECT STREAM user_id, COUNT(*) ... GROUP BY user_id} planned by Freshet's planner,
 * translated to Spark and run in UPDATE mode, its batches collected by foreachBatch. The executors
 * read the topic and parse its JSON values; one worker dies mid-run and the counts still end at
 * what H2 computes from the produced records. Beside it, over the same topic, a TUMBLE count
 * with the stream's watermark runs in APPEND mode and emits each closed window once, as H2
 * computes the windows that the last watermark closed.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class ClusterSqlTest {
  private static final String TOPIC = "clicks";
  private static final int CHUNK = 20;
  private static final Duration BATCH_DEADLINE = Duration.ofSeconds(60);

  private static Path dir;
  private static InProcessKafka kafka;
  private static SparkStandaloneCluster cluster;
  private static SparkSession spark;
  private static FreshetSql sql;
  private static boolean passed;

  private final List<String> produced = new ArrayList<>();
  private final Random random = new Random(20);

  @BeforeAll static void start() throws Exception {
    dir = Files.createTempDirectory("spark-standalone");
    // The broker starts in this JVM while the cluster's JVMs start (each takes seconds).
    CompletableFuture<InProcessKafka> broker = CompletableFuture.supplyAsync(() -> {
      try {
        InProcessKafka started = InProcessKafka.start();
        started.createTopic(TOPIC, 2);
        return started;
      } catch (Exception e) {
        throw new CompletionException(e);
      }
    });
    try {
      cluster = SparkStandaloneCluster.start(dir.resolve("cluster"), 2);
    } finally {
      kafka = broker.exceptionally(e -> null).join(); // stop() closes it, even if start failed
    }
    broker.join(); // the broker's own failure, if any
    spark = SparkSession.builder()
        .appName("ClusterSqlTest")
        .master(cluster.masterUrl())
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        // As SparkSessions sets them for Freshet's queries.
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.adaptive.enabled", "false")
        // One executor of one core on each worker.
        .config("spark.executor.cores", "1")
        .config("spark.cores.max", "2")
        .config("spark.executor.memory", "512m")
        .config("spark.executor.extraClassPath", cluster.executorClassPath())
        .config("spark.executor.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
        .getOrCreate();
    // getOrCreate() hands back a session another test class left open in this JVM, whatever
    // master it runs on.
    assertEquals(cluster.masterUrl(), spark.sparkContext().master(),
        "another test class left its SparkSession open in this JVM; stop it in @AfterAll");
    awaitExecutors(2);
    sql = new FreshetSql();
    String topic = " WITH (connector = 'kafka', 'topic' = '" + TOPIC + "',"
        + " 'properties.bootstrap.servers' = '" + kafka.bootstrapServers() + "',"
        + " 'format' = 'json'";
    // Several batches per chunk of produced records.
    sql.execute("CREATE STREAM clicks (user_id VARCHAR, seq INTEGER, ts TIMESTAMP(3))" + topic
        + ", 'scan.max-records-per-batch' = '" + CHUNK + "')");
    // No limit per batch: a batch then reads both partitions to their ends, so that no record
    // arrives after one that was produced after it, and none is late by the watermark.
    sql.execute("CREATE STREAM clicks_at (user_id VARCHAR, seq INTEGER, ts TIMESTAMP(3),"
        + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)" + topic + ")");
  }

  @AfterAll static void stop() throws Exception {
    if (spark != null) {
      spark.stop();
    }
    if (sql != null) {
      sql.close();
    }
    List<ProcessHandle> processes = cluster == null ? List.of() : cluster.liveProcesses();
    if (cluster != null) {
      cluster.close();
    }
    if (kafka != null) {
      kafka.close();
    }
    // close() fails if one survives; this checks what the fixture saw alive, by pid.
    assertTrue(processes.stream().noneMatch(ProcessHandle::isAlive), processes.toString());
    if (passed) { // else the daemons' logs and the executors' stderr stay for a post-mortem
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      }
    }
  }

  @Test void freshetSqlCountsPerKeyEndAtTheOracleAfterAWorkerDies() throws Exception {
    CountsCollector collector = new CountsCollector();
    SparkQuery plan = new SparkPlanTranslator(Map.of("CLICKS",
        SparkSources.of(spark, sql.stream("CLICKS")).rows())).translate(sql.plan(
            "SELECT STREAM user_id, COUNT(*) AS n FROM clicks GROUP BY user_id",
            EmitMode.UPDATE));
    SparkContinuousQuery query = SparkContinuousQuery.start(plan, dir.resolve("checkpoint"),
        collector::apply);
    RowsCollector windows = new RowsCollector();
    SparkQuery windowed = new SparkPlanTranslator(Map.of("CLICKS_AT",
        SparkSources.of(spark, sql.stream("CLICKS_AT")).rows())).translate(sql.plan(
            "SELECT STREAM TUMBLE_START(ts, INTERVAL '10' SECOND) AS w, COUNT(*) AS n"
                + " FROM clicks_at GROUP BY TUMBLE(ts, INTERVAL '10' SECOND)", EmitMode.APPEND));
    SparkContinuousQuery windowQuery = SparkContinuousQuery.start(windowed,
        dir.resolve("windows"), windows::apply);
    try {
      produce(CHUNK);
      long batch = collector.awaitBatchAfter(-1, BATCH_DEADLINE);
      produce(CHUNK);
      batch = collector.awaitBatchAfter(batch, BATCH_DEADLINE);

      // A worker and its executor die while records keep coming.
      long batchAtKill = batch;
      produce(CHUNK);
      cluster.killWorker(0);
      produce(CHUNK);
      cluster.awaitAliveWorkers(1, BATCH_DEADLINE);
      awaitExecutors(1);
      batch = collector.awaitBatchAfter(batch, BATCH_DEADLINE);
      produce(CHUNK);

      Map<String, Long> expected = oracle(produced);
      Map<String, Long> counts = collector.await(expected::equals, BATCH_DEADLINE);
      assertEquals(expected, counts);
      assertEquals(5 * CHUNK, counts.values().stream().mapToLong(Long::longValue).sum());
      assertTrue(collector.lastApplied() > batchAtKill + 1,
          "batches ran after the kill: " + collector.lastApplied());
      assertTrue(query.sparkQuery().exception().isEmpty(),
          () -> query.sparkQuery().exception().get().toString());

      // Chunk c is window [10c, 10c + 10) s; the last chunk's watermark closed chunks 0 to 2.
      List<List<Object>> closed = closedWindows(produced.size());
      assertEquals(3, closed.size());
      // A batch that closes two windows emits them in its partitions' order.
      List<List<Object>> emitted = new ArrayList<>(
          windows.await(rows -> rows.size() >= closed.size(), BATCH_DEADLINE));
      emitted.sort(Comparator.comparing(row -> (LocalDateTime) row.get(0)));
      assertEquals(closed, emitted);
      assertTrue(windowQuery.sparkQuery().exception().isEmpty(),
          () -> windowQuery.sparkQuery().exception().get().toString());
      passed = true;
    } finally {
      query.close();
      windowQuery.close();
    }
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
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:");
         Statement s = h2.createStatement()) {
      s.execute("CREATE TABLE clicks(ts BIGINT)");
      try (PreparedStatement insert = h2.prepareStatement("INSERT INTO clicks VALUES (?)")) {
        for (int seq = 0; seq < records; seq++) {
          insert.setLong(1, eventTime(seq));
          insert.addBatch();
        }
        insert.executeBatch();
      }
      List<List<Object>> windows = new ArrayList<>();
      try (ResultSet rs = s.executeQuery("SELECT w, COUNT(*)"
          + " FROM (SELECT ts / 10000 * 10000 AS w FROM clicks) GROUP BY w"
          + " HAVING w + 10000 <= (SELECT MAX(ts) - 5000 FROM clicks) ORDER BY w")) {
        while (rs.next()) {
          windows.add(List.of(LocalDateTime.ofEpochSecond(rs.getLong(1) / 1000, 0,
              ZoneOffset.UTC), rs.getLong(2)));
        }
      }
      return windows;
    }
  }

  /** COUNT(*) per user of the produced records, by H2. */
  private static Map<String, Long> oracle(List<String> users) throws Exception {
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:");
         Statement s = h2.createStatement()) {
      s.execute("CREATE TABLE clicks(user_id VARCHAR(10))");
      try (PreparedStatement insert = h2.prepareStatement("INSERT INTO clicks VALUES (?)")) {
        for (String user : users) {
          insert.setString(1, user);
          insert.addBatch();
        }
        insert.executeBatch();
      }
      Map<String, Long> counts = new HashMap<>();
      try (ResultSet rs = s.executeQuery(
          "SELECT user_id, COUNT(*) FROM clicks GROUP BY user_id")) {
        while (rs.next()) {
          counts.put(rs.getString(1), rs.getLong(2));
        }
      }
      return counts;
    }
  }

  /** Waits until the driver has exactly {@code count} executors (besides itself). */
  private static void awaitExecutors(int count) {
    Instant deadline = Instant.now().plus(BATCH_DEADLINE);
    int executors = -1;
    while (Instant.now().isBefore(deadline)) {
      SparkExecutorInfo[] infos = spark.sparkContext().statusTracker().getExecutorInfos();
      executors = Math.max(0, infos.length - 1); // the driver is one of them, once registered
      if (executors == count) {
        return;
      }
      LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
    }
    throw new AssertionError("the driver has " + executors + " executors, not " + count);
  }
}
