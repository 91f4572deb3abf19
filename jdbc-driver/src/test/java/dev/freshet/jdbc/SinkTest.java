package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.freshet.testkit.ExternalTest;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Sinks end to end through JDBC: a view's result upserted into a table of another database, a
 * query's rows appended to one, an UPDATE result written to a Kafka topic as upserts; the
 * targets equal H2's GROUP BY over the inserted rows. Dropping what a sink reads is refused, and
 * options and queries a sink cannot write exactly once are refused at CREATE SINK.
 */
@ExternalTest
class SinkTest {
  @RegisterExtension static final KafkaBroker kafka = new KafkaBroker();

  private final String engineName = UUID.randomUUID().toString();
  private final String targetUrl = "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
  private Connection connection;
  private Statement statement;
  private Connection target;
  /** The oracle: every inserted row. */
  private Connection h2;

  @BeforeEach void connect() throws Exception {
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + engineName);
    statement = connection.createStatement();
    statement.execute("CREATE STREAM orders (id BIGINT NOT NULL, item VARCHAR, qty INTEGER)");
    target = DriverManager.getConnection(targetUrl);
    h2 = DriverManager.getConnection("jdbc:h2:mem:" + UUID.randomUUID());
    try (Statement s = h2.createStatement()) {
      s.execute("CREATE TABLE orders (id BIGINT, item VARCHAR, qty INT)");
    }
  }

  @AfterEach void close() throws Exception {
    connection.close();
    try (Statement s = target.createStatement()) {
      s.execute("SHUTDOWN");
    }
    h2.close();
  }

  /** Inserts orders {@code from..to-1} into the stream and the oracle. */
  private void insert(long from, long to) throws SQLException {
    StringBuilder values = new StringBuilder();
    for (long id = from; id < to; id++) {
      values.append(id == from ? "" : ", ").append("(").append(id).append(", 'item-")
          .append(id % 7).append("', ").append(id % 5 + 1).append(")");
    }
    statement.executeUpdate("INSERT INTO orders VALUES " + values);
    try (Statement s = h2.createStatement()) {
      s.executeUpdate("INSERT INTO orders VALUES " + values);
    }
  }


  /** Re-reads the target until {@code sql} there returns what {@code oracleSql} returns in H2. */
  private void awaitTarget(String sql, String oracleSql) throws SQLException {
    List<List<Object>> expected;
    try (Statement s = h2.createStatement()) {
      expected = ViewResults.normalized(ViewResults.query(s, oracleSql));
    }
    long deadline = System.nanoTime() + ViewResults.DEADLINE.toNanos();
    List<List<Object>> rows = List.of();
    while (System.nanoTime() < deadline) {
      try (Statement s = target.createStatement()) {
        rows = ViewResults.normalized(ViewResults.query(s, sql));
      } catch (SQLException tableNotYetMade) {
        ViewResults.betweenPolls();
        continue;
      }
      if (ViewResults.sameRows(rows, expected)) {
        return;
      }
      ViewResults.betweenPolls();
    }
    fail("after " + ViewResults.DEADLINE + ", " + sql + " returned " + rows + ", not "
        + expected);
  }

  @Test void shouldUpsertAViewsResultIntoATableOfAnotherDatabase() throws Exception {
    statement.execute("CREATE MATERIALIZED VIEW totals AS SELECT item, COUNT(*) AS n,"
        + " SUM(qty) AS q FROM orders GROUP BY item");
    statement.execute("CREATE SINK totals_out FROM totals WITH (connector = 'jdbc', 'url' = '"
        + targetUrl + "', 'table-name' = 'totals')");
    insert(0, 100);
    awaitTarget("SELECT item, n, q FROM totals",
        "SELECT item, COUNT(*), SUM(qty) FROM orders GROUP BY item");
    insert(100, 250);
    awaitTarget("SELECT item, n, q FROM totals",
        "SELECT item, COUNT(*), SUM(qty) FROM orders GROUP BY item");

    List<Object> shown = ViewResults.query(statement, "SHOW SINKS").get(0);
    assertEquals(List.of("TOTALS_OUT", "jdbc", "totals", "TOTALS"), shown.subList(0, 4));
    assertEquals("ACTIVE", shown.get(5));
    assertEquals(List.of(List.of("ACTIVE")), ViewResults.query(statement,
        "SELECT status FROM sys.queries WHERE name = 'TOTALS_OUT'"));
    SQLException dropStream = assertThrows(SQLException.class,
        () -> statement.execute("DROP MATERIALIZED VIEW totals"));
    assertEquals("2BP01", dropStream.getSQLState());
    assertEquals("Cannot drop materialized view 'TOTALS': sink TOTALS_OUT reads it. Drop the"
        + " sink first: DROP SINK TOTALS_OUT.", dropStream.getMessage());
    assertEquals("2BP01", assertThrows(SQLException.class,
        () -> statement.execute("DROP STREAM orders")).getSQLState());
    statement.execute("DROP SINK totals_out");
    assertEquals(List.of(), ViewResults.query(statement, "SHOW SINKS"));
    statement.execute("DROP MATERIALIZED VIEW totals");
    // The target kept the batch the sink wrote last.
    try (Statement s = target.createStatement()) {
      assertEquals(1, ViewResults.query(s, "SELECT batch_id FROM freshet_sink_batches"
          + " WHERE sink_name = 'TOTALS_OUT'").size());
    }
  }

  @Test void shouldAppendAQuerysRowsToATable() throws Exception {
    statement.execute("CREATE SINK big AS SELECT id, item FROM orders WHERE qty >= 4"
        + " WITH (connector = 'jdbc', 'url' = '" + targetUrl + "', 'table-name' = 'big')");
    insert(0, 40);
    insert(40, 90);
    awaitTarget("SELECT id, item FROM big", "SELECT id, item FROM orders WHERE qty >= 4");
  }

  @Test void shouldWriteAnUpdateResultToAKafkaTopicAsUpserts() throws Exception {
    String topic = "totals-" + UUID.randomUUID();
    kafka.createTopic(topic, 2);
    statement.execute("CREATE SINK totals_kafka AS SELECT item, COUNT(*) AS n, SUM(qty) AS q"
        + " FROM orders GROUP BY item WITH (connector = 'kafka', 'topic' = '" + topic + "',"
        + " 'properties.bootstrap.servers' = '" + kafka.bootstrapServers() + "')");
    insert(0, 60);
    insert(60, 130);
    List<List<Object>> expected;
    try (Statement s = h2.createStatement()) {
      expected = ViewResults.normalized(ViewResults.query(s,
          "SELECT item, COUNT(*), SUM(qty) FROM orders GROUP BY item"));
    }
    long deadline = System.nanoTime() + ViewResults.DEADLINE.toNanos();
    Map<String, String> latest = new HashMap<>();
    Set<String> batchesSeen = new HashSet<>();
    try (KafkaConsumer<String, String> consumer = committedReader()) {
      List<TopicPartition> partitions = List.of(new TopicPartition(topic, 0),
          new TopicPartition(topic, 1));
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      while (!ViewResults.sameRows(rowsOf(latest), expected)) {
        if (System.nanoTime() > deadline) {
          fail("the topic holds " + latest + ", not " + expected);
        }
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
          latest.put(r.key(), r.value());
          String batch = new String(r.headers().lastHeader("freshet.batch").value(),
              StandardCharsets.UTF_8);
          // A key appears at most once per batch: nothing of a batch is sent twice.
          assertTrue(batchesSeen.add(batch + "/" + r.key()), "twice in batch " + batch + ": "
              + r.key());
        }
      }
    }
    assertTrue(latest.keySet().contains("{\"ITEM\":\"item-3\"}"), latest.toString());
  }

  private KafkaConsumer<String, String> committedReader() {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    return new KafkaConsumer<>(p);
  }

  /** The upserted rows as (item, n, q), from the JSON values by key. */
  private static List<List<Object>> rowsOf(Map<String, String> latest) {
    List<List<Object>> rows = new ArrayList<>();
    for (String value : latest.values()) {
      try {
        var node = new com.fasterxml.jackson.databind.ObjectMapper().readTree(value);
        rows.add(List.of(node.get("ITEM").asText(), node.get("N").asLong(),
            node.get("Q").asLong()));
      } catch (java.io.IOException e) {
        throw new AssertionError(value, e);
      }
    }
    return rows;
  }

  /**
   * The crash that only a batch id in the target survives: the target committed batch N, the
   * sink's query did not (its {@code commits/N} is gone). The batch runs again after the restart
   * and must change nothing, in a table and in a topic.
   */
  @Test void shouldApplyNothingTwiceWhenABatchRunsAgainAfterItsTargetCommitted(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dataDir) throws Exception {
    String topic = "raw-" + UUID.randomUUID();
    kafka.createTopic(topic, 1);
    String url = "jdbc:freshet:dataDir=" + dataDir;
    String stream = "CREATE STREAM IF NOT EXISTS raw (id BIGINT NOT NULL, item VARCHAR)";
    long[] lastBatch = new long[2];
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute(stream);
      s.execute("CREATE SINK raw_table AS SELECT id, item FROM raw WITH (connector = 'jdbc',"
          + " 'url' = '" + targetUrl + "', 'table-name' = 'raw_rows')");
      s.execute("CREATE SINK raw_topic AS SELECT id, item FROM raw WITH (connector = 'kafka',"
          + " 'topic' = '" + topic + "', 'properties.bootstrap.servers' = '"
          + kafka.bootstrapServers() + "')");
      for (int i = 0; i < 3; i++) {
        s.executeUpdate("INSERT INTO raw VALUES (" + (2 * i) + ", 'a'), (" + (2 * i + 1)
            + ", 'b')");
      }
      for (String sink : List.of("RAW_TABLE", "RAW_TOPIC")) {
        var query = EngineRegistry.INSTANCE.resolve(Map.of(EngineRegistry.DATA_DIR,
            dataDir.toString())).query(sink).orElseThrow();
        assertTrue(query.processAllAvailable(ViewResults.DEADLINE), sink);
      }
      lastBatch[0] = ((Number) ViewResults.query(s, "SELECT last_batch_id FROM sys.queries"
          + " WHERE name = 'RAW_TABLE'").get(0).get(0)).longValue();
      lastBatch[1] = ((Number) ViewResults.query(s, "SELECT last_batch_id FROM sys.queries"
          + " WHERE name = 'RAW_TOPIC'").get(0).get(0)).longValue();
    }
    EngineRegistry.INSTANCE.resolve(Map.of(EngineRegistry.DATA_DIR, dataDir.toString())).close();
    // As if killed after the targets committed the last batch, before the queries did.
    java.nio.file.Files.delete(dataDir.resolve("checkpoints").resolve("RAW_TABLE")
        .resolve("commits").resolve(Long.toString(lastBatch[0])));
    java.nio.file.Files.delete(dataDir.resolve("checkpoints").resolve("RAW_TOPIC")
        .resolve("commits").resolve(Long.toString(lastBatch[1])));
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      for (String sink : List.of("RAW_TABLE", "RAW_TOPIC")) {
        var query = EngineRegistry.INSTANCE.resolve(Map.of(EngineRegistry.DATA_DIR,
            dataDir.toString())).query(sink).orElseThrow();
        assertTrue(query.processAllAvailable(ViewResults.DEADLINE), sink);
        assertTrue(query.lastBatchId() >= lastBatch[sink.equals("RAW_TABLE") ? 0 : 1],
            sink + " ran its last batch again");
      }
      try (Statement t = target.createStatement()) {
        assertEquals(List.of(List.of(6L, 6L)), ViewResults.normalized(ViewResults.query(t,
            "SELECT COUNT(*), COUNT(DISTINCT id) FROM raw_rows")));
      }
    } finally {
      EngineRegistry.INSTANCE.resolve(Map.of(EngineRegistry.DATA_DIR, dataDir.toString()))
          .close();
    }
    List<String> values = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer = committedReader()) {
      TopicPartition partition = new TopicPartition(topic, 0);
      consumer.assign(List.of(partition));
      consumer.seekToBeginning(List.of(partition));
      long end = consumer.endOffsets(List.of(partition)).get(partition);
      long deadline = System.nanoTime() + ViewResults.DEADLINE.toNanos();
      while (consumer.position(partition) < end && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
          values.add(r.value());
        }
      }
    }
    assertEquals(6, values.size(), values.toString());
    assertEquals(6, new HashSet<>(values).size(), values.toString());
  }

  /** A group HAVING stops admitting leaves the table, and gets a tombstone in the topic. */
  @Test void shouldDeleteAGroupThatHavingStopsAdmitting() throws Exception {
    String topic = "having-" + UUID.randomUUID();
    kafka.createTopic(topic, 1);
    String query = "SELECT item, COUNT(*) AS n FROM orders GROUP BY item HAVING COUNT(*) < 12";
    statement.execute("CREATE SINK few_table AS " + query + " WITH (connector = 'jdbc',"
        + " 'url' = '" + targetUrl + "', 'table-name' = 'few')");
    statement.execute("CREATE SINK few_topic AS " + query + " WITH (connector = 'kafka',"
        + " 'topic' = '" + topic + "', 'properties.bootstrap.servers' = '"
        + kafka.bootstrapServers() + "')");
    String oracle = "SELECT item, COUNT(*) FROM orders GROUP BY item HAVING COUNT(*) < 12";
    insert(0, 60);
    awaitTarget("SELECT item, n FROM few", oracle);
    // Items 0-6 reach 12 and more: each leaves.
    insert(60, 100);
    awaitTarget("SELECT item, n FROM few", oracle);
    try (Statement s = h2.createStatement()) {
      assertEquals(List.of(), ViewResults.query(s, oracle), "every item leaves");
    }
    Map<String, String> latest = new HashMap<>();
    boolean tombstone = false;
    try (KafkaConsumer<String, String> consumer = committedReader()) {
      TopicPartition partition = new TopicPartition(topic, 0);
      consumer.assign(List.of(partition));
      consumer.seekToBeginning(List.of(partition));
      long deadline = System.nanoTime() + ViewResults.DEADLINE.toNanos();
      while ((latest.isEmpty() || latest.values().stream().anyMatch(v -> v != null))
          && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
          latest.put(r.key(), r.value());
          tombstone |= r.value() == null;
        }
      }
    }
    assertTrue(tombstone, latest.toString());
    assertEquals(7, latest.size(), latest.toString());
    assertTrue(latest.values().stream().allMatch(v -> v == null), latest.toString());
  }

  @Test void shouldRefuseWhatASinkCannotWriteExactlyOnce() throws Exception {
    assertRefused("CREATE SINK s1 AS SELECT COUNT(*) AS n FROM orders GROUP BY item"
        + " WITH (connector = 'jdbc', 'url' = '" + targetUrl + "', 'table-name' = 't')",
        "0A000", "does not show every GROUP BY column");
    assertRefused("CREATE SINK s1 AS SELECT * FROM orders WITH (connector = 'files')",
        "0A000", "Connector 'files' of sink S1 is not supported");
    assertRefused("CREATE SINK s1 AS SELECT * FROM orders WITH (connector = 'jdbc',"
        + " 'url' = '" + targetUrl + "')", "42000", "Sink S1 needs option 'table-name'");
    assertRefused("CREATE SINK s1 AS SELECT * FROM orders WITH (connector = 'jdbc',"
        + " 'url' = '" + targetUrl + "', 'table-name' = 't', 'tablename' = 'u')", "42000",
        "Unknown option 'tablename' for connector 'jdbc' of sink S1");
    assertRefused("CREATE SINK s1 AS SELECT * FROM orders WITH (connector = 'jdbc',"
        + " 'url' = 'jdbc:postgresql://127.0.0.1:1/none', 'table-name' = 't')", "08001",
        "Sink S1 cannot connect to jdbc:postgresql://127.0.0.1:1/none");
    assertRefused("CREATE SINK orders AS SELECT * FROM orders WITH (connector = 'jdbc',"
        + " 'url' = '" + targetUrl + "', 'table-name' = 't')", "42S01",
        "The name ORDERS is taken by a stream, materialized view or table");
    assertEquals(List.of(), ViewResults.query(statement, "SHOW SINKS"));
  }

  private void assertRefused(String sql, String state, String message) {
    SQLException e = assertThrows(SQLException.class, () -> statement.execute(sql));
    assertEquals(state, e.getSQLState(), e.getMessage());
    assertTrue(e.getMessage().contains(message), e.getMessage());
  }
}
