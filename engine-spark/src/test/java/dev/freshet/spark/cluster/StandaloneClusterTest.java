package dev.freshet.spark.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
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
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A Spark-native streaming job on a real standalone cluster (a master and two workers, each a JVM)
 * with this JVM as the driver in client mode: a GROUP BY count per key over a Kafka topic, in
 * UPDATE mode, collected by foreachBatch. One worker dies mid-run and the counts still end at what
 * H2 computes from the produced records.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class StandaloneClusterTest {
  private static final String TOPIC = "clicks";
  private static final int CHUNK = 20;
  private static final Duration BATCH_DEADLINE = Duration.ofSeconds(60);

  private static Path dir;
  private static InProcessKafka kafka;
  private static SparkStandaloneCluster cluster;
  private static SparkSession spark;
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
        .appName("StandaloneClusterTest")
        .master(cluster.masterUrl())
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
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
  }

  @AfterAll static void stop() throws Exception {
    if (spark != null) {
      spark.stop();
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

  @Test void countsPerKeyEndAtTheOracleAfterAWorkerDies() throws Exception {
    CountsCollector collector = new CountsCollector();
    VoidFunction2<Dataset<Row>, Long> sink =
        (batch, batchId) -> collector.apply(batchId, batch.collectAsList());
    StreamingQuery query = spark.readStream().format("kafka")
        .option("kafka.bootstrap.servers", kafka.bootstrapServers())
        .option("subscribe", TOPIC)
        .option("startingOffsets", "earliest")
        .option("maxOffsetsPerTrigger", Integer.toString(CHUNK)) // several batches per chunk
        .load()
        .selectExpr("CAST(key AS STRING) AS user")
        .groupBy("user").count()
        .writeStream()
        .outputMode("update")
        .option("checkpointLocation", dir.resolve("checkpoint").toString())
        .trigger(Trigger.ProcessingTime(100))
        .foreachBatch(sink)
        .start();
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
      assertTrue(query.exception().isEmpty(), () -> query.exception().get().toString());
      passed = true;
    } finally {
      query.stop();
    }
  }

  /** Sends {@code n} records keyed by one of five users, and waits until Kafka has them. */
  private void produce(int n) {
    KafkaProducer<String, String> producer = kafka.producer();
    for (int i = 0; i < n; i++) {
      String user = "u" + random.nextInt(5);
      producer.send(new ProducerRecord<>(TOPIC, user, Integer.toString(produced.size())));
      produced.add(user);
    }
    producer.flush();
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
