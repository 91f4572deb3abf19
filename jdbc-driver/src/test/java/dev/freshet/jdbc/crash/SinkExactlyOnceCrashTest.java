package dev.freshet.jdbc.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.freshet.jdbc.KafkaBroker;
import dev.freshet.jdbc.KafkaBroker.Record;
import dev.freshet.jdbc.PostgresDatabase;
import dev.freshet.testkit.CrashTest;
import dev.freshet.testkit.ExternalTest;
import dev.freshet.testkit.crash.ChildJvm;
import dev.freshet.testkit.crash.KillLoop;
import dev.freshet.testkit.oracle.H2Oracle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly once end to end: a Kafka topic (rows in transactions, some aborted) into a view, the
 * view into PostgreSQL and into a Kafka topic, the raw rows appended into PostgreSQL; a child JVM
 * runs the engine and is SIGKILLed at {@value #KILLS} random moments while rows keep coming. At
 * the end the engine starts once more (in the test's JVM) and its sinks catch up: the PostgreSQL
 * tables and a {@code read_committed} reader of the sink topic hold exactly H2's result over the
 * committed rows, and nothing was applied twice: no appended row is there twice, and no key
 * appears twice in one batch of the topic.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@CrashTest
@ExternalTest
class SinkExactlyOnceCrashTest {
  /**
   * Kills: the ten random moments issue 16's acceptance line names, drawn in turn from the three
   * strata of kill points (see the test), so start-up is hit as often as the rest.
   */
  private static final int KILLS = 10;
  // The broker is the test JVM's (KafkaBroker): names of this class's own.
  private static final String TOPIC = "orders-" + UUID.randomUUID();
  private static final String SINK_TOPIC = "totals-out-" + UUID.randomUUID();
  private static final Duration DEADLINE = Duration.ofSeconds(120);
  /** The longest a child runs before it is killed. */
  private static final Duration KILL_AFTER = Duration.ofSeconds(20);
  private static final long POLL_NANOS = Duration.ofMillis(10).toNanos();

  @RegisterExtension static final KafkaBroker kafka = new KafkaBroker();
  @RegisterExtension static final PostgresDatabase postgres = new PostgresDatabase();

  @TempDir Path dataDir;
  /** The id of the next row produced. */
  private long nextId;

  @Test void shouldWriteEachChangeOnceWhenKilledAtRandomMoments() throws Exception {
    KillLoop loop = new KillLoop().killAtLatestAfter(KILL_AFTER);
    Random random = loop.random();
    String context = loop.context();
    kafka.createTopic(TOPIC, 3);
    kafka.createTopic(SINK_TOPIC, 2);
    KafkaProducer<String, String> producer = kafka.transactionalProducer("crash-producer-" + TOPIC);
    List<long[]> committed = new ArrayList<>();
    loop.run(KILLS, run -> {
      nextId = produce(producer, nextId, 2 + random.nextInt(3), random, committed);
      return child();
    }, (child, run) -> {
      // Killed after a number of the view's changes drawn in turn from each stratum of kill
      // points: during start-up (0), in the first batches after a restart (1 to 4), and after
      // more rows came while it ran (5 to 11), so that each is hit twice.
      int changes = switch (run % 3) {
        case 0 -> 0;
        case 1 -> 1 + random.nextInt(4);
        default -> 5 + random.nextInt(7);
      };
      for (; changes > 0; changes--) {
        child.awaitLine("PROGRESS");
        if (changes == 5) {
          // More rows while it runs, so that kills fall inside batches too.
          nextId = produce(producer, nextId, 1, random, committed);
        }
      }
    });
    nextId = produce(producer, nextId, 2, random, committed);

    // The engine started again after the last kill, in this JVM: its sinks catch up.
    try (RestartedEngine engine = new RestartedEngine(dataDir.resolve("data"));
         H2Oracle h2 = new H2Oracle();
         Connection pg = DriverManager.getConnection(postgres.jdbcUrl());
         Statement p = pg.createStatement()) {
      for (String sql : SinkCrashTestChild.declarations(kafka.bootstrapServers(), TOPIC,
          SINK_TOPIC, postgres.jdbcUrl())) {
        engine.execute(sql);
      }
      List<List<Object>> rows = new ArrayList<>();
      for (long[] row : committed) {
        rows.add(List.of(row[0], "item-" + row[1], row[2]));
      }
      h2.createTable("orders", "id BIGINT, item VARCHAR, qty INT").insert("orders", rows);
      TreeSet<String> totals = new TreeSet<>(
          h2.rows("SELECT item, COUNT(*), SUM(qty) FROM orders GROUP BY item"));
      TreeSet<String> raw = new TreeSet<>(h2.rows("SELECT id, item, qty FROM orders"));
      await(context + ": PostgreSQL table totals", () -> rows(p,
          "SELECT item, n, q FROM totals"), totals);
      await(context + ": PostgreSQL table raw_orders", () -> rows(p,
          "SELECT id, item, qty FROM raw_orders"), raw);
      // An appended row applied twice would be there twice.
      try (ResultSet rs = p.executeQuery("SELECT COUNT(*) FROM raw_orders")) {
        rs.next();
        assertEquals(committed.size(), rs.getLong(1), context + ": rows appended twice");
      }
      awaitTopic(context, totals);
    }
  }

  /** Sends {@code transactions} transactions of rows from {@code id} on; one in four aborted. */
  private static long produce(KafkaProducer<String, String> producer, long id, int transactions,
      Random random, List<long[]> committed) {
    for (int t = 0; t < transactions; t++) {
      boolean commit = random.nextInt(4) != 0;
      List<Record> records = new ArrayList<>();
      int rows = 5 + random.nextInt(60);
      for (int r = 0; r < rows; r++, id++) {
        long item = id % 11;
        long qty = id % 7 + 1;
        records.add(new Record((int) (id % 3), Long.toString(id), "{\"id\":" + id
            + ",\"item\":\"item-" + item + "\",\"qty\":" + qty + "}"));
        if (commit) {
          committed.add(new long[] {id, item, qty});
        }
      }
      KafkaBroker.sendInTransaction(producer, TOPIC, records, commit);
    }
    return id;
  }

  /** Reads the sink topic until its latest value per key is {@code totals}. */
  private static void awaitTopic(String context, TreeSet<String> totals) throws Exception {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
        StringDeserializer.class.getName());
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    ObjectMapper json = new ObjectMapper();
    Map<String, String> latest = new HashMap<>();
    Set<String> seen = new HashSet<>();
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
      List<TopicPartition> partitions = new ArrayList<>();
      for (PartitionInfo info : consumer.partitionsFor(SINK_TOPIC)) {
        partitions.add(new TopicPartition(SINK_TOPIC, info.partition()));
      }
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      while (true) {
        TreeSet<String> rows = new TreeSet<>();
        for (String value : latest.values()) {
          JsonNode node = json.readTree(value);
          rows.add(node.get("ITEM").asText() + " " + node.get("N").asLong() + " "
              + node.get("Q").asLong());
        }
        if (rows.equals(totals)) {
          return;
        }
        if (System.nanoTime() > deadline) {
          fail(context + ": the sink topic holds " + rows + ", not " + totals);
        }
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
          String batch = new String(r.headers().lastHeader("freshet.batch").value(),
              StandardCharsets.UTF_8);
          assertTrue(seen.add(batch + " " + r.key()), context + ": batch " + batch
              + " wrote key " + r.key() + " twice");
          latest.put(r.key(), r.value());
        }
      }
    }
  }

  private interface Rows {
    TreeSet<String> get() throws SQLException;
  }

  private static void await(String what, Rows rows, TreeSet<String> expected)
      throws SQLException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    TreeSet<String> seen = new TreeSet<>();
    while (System.nanoTime() < deadline) {
      try {
        seen = rows.get();
        if (seen.equals(expected)) {
          return;
        }
      } catch (SQLException notYetThere) {
        // The sink has not created the table yet.
      }
      // Polled every 10 ms rather than in a busy loop, which kept PostgreSQL and the test JVM
      // busy on the cores the child needs to catch up.
      LockSupport.parkNanos(POLL_NANOS);
    }
    fail(what + " holds " + seen.size() + " rows " + seen + ", not " + expected.size() + " rows "
        + expected);
  }

  private static TreeSet<String> rows(Statement s, String sql) throws SQLException {
    TreeSet<String> rows = new TreeSet<>();
    try (ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int c = 1; c <= rs.getMetaData().getColumnCount(); c++) {
          row.append(c == 1 ? "" : " ").append(rs.getString(c));
        }
        rows.add(row.toString());
      }
    }
    return rows;
  }

  private ChildJvm child() throws Exception {
    return ChildJvm.of(SinkCrashTestChild.class).jvmOptions("-Xmx512m")
        .args(dataDir.resolve("data"), kafka.bootstrapServers(), TOPIC, SINK_TOPIC,
            postgres.jdbcUrl())
        .start();
  }
}
