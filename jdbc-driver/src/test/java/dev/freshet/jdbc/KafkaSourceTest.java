package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.freshet.engine.Engine;
import dev.freshet.executor.runtime.StreamingQuery;
import dev.freshet.jdbc.KafkaBroker.Record;
import dev.freshet.testkit.ExternalTest;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kafka source end to end, against a real broker in this JVM: rows produced in
 * transactions (some aborted) to a topic whose partitions grow while a view reads it; the view
 * equals H2's GROUP BY over the committed rows. Malformed records fail the view naming the
 * record, or are skipped and counted; a view resumes after a restart without counting twice.
 */
@ExternalTest
class KafkaSourceTest {
  @RegisterExtension static final KafkaBroker kafka = new KafkaBroker();

  private final String engineName = UUID.randomUUID().toString();
  private Connection connection;
  private Statement statement;
  /** The oracle: the rows of committed transactions. */
  private Connection h2;

  @TempDir Path dataDir;

  @BeforeEach void connect() throws Exception {
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + engineName
        + ";timeZone=UTC");
    statement = connection.createStatement();
    h2 = DriverManager.getConnection("jdbc:h2:mem:" + UUID.randomUUID());
    try (Statement s = h2.createStatement()) {
      s.execute("CREATE TABLE orders (id BIGINT, item VARCHAR, qty INT, p INT)");
    }
  }

  @AfterEach void close() throws Exception {
    connection.close();
    h2.close();
  }

  private String createOrders(String topic, String extraOptions) throws SQLException {
    statement.execute("CREATE STREAM orders (id BIGINT NOT NULL, item VARCHAR, qty INTEGER,"
        + " ts TIMESTAMP(3), p INTEGER, o BIGINT) WITH (connector = 'kafka', 'topic' = '" + topic
        + "', 'properties.bootstrap.servers' = '" + kafka.bootstrapServers() + "',"
        + " 'format' = 'json', 'scan.startup.mode' = 'earliest-offset',"
        + " 'metadata.partition' = 'p', 'metadata.offset' = 'o'" + extraOptions + ")");
    return topic;
  }

  /** An order as JSON, its timestamp in SQL's form or ISO-8601's by turns. */
  private static String json(long id, String item, int qty) {
    String ts = id % 2 == 0 ? "2026-12-01 10:00:0" + (id % 10) + ".000"
        : "2026-12-01T10:00:0" + (id % 10) + "Z";
    return "{\"ID\":" + id + ",\"item\":\"" + item + "\",\"qty\":" + qty + ",\"ts\":\"" + ts
        + "\",\"extra\":[1,2]}";
  }

  /** Sends orders {@code from..to-1} over {@code partitions}, committed or aborted. */
  private void send(KafkaProducer<String, String> producer, String topic, long from, long to,
      int partitions, boolean commit) throws SQLException {
    List<Record> records = new ArrayList<>();
    try (PreparedStatement insert = h2.prepareStatement("INSERT INTO orders VALUES (?, ?, ?, ?)")) {
      for (long id = from; id < to; id++) {
        String item = "item-" + (id % 7);
        int qty = (int) (id % 5) + 1;
        int partition = (int) (id % partitions);
        records.add(new Record(partition, Long.toString(id), json(id, item, qty)));
        if (commit) {
          insert.setLong(1, id);
          insert.setString(2, item);
          insert.setInt(3, qty);
          insert.setInt(4, partition);
          insert.executeUpdate();
        }
      }
    }
    KafkaBroker.sendInTransaction(producer, topic, records, commit);
  }

  /** H2's rows for {@code sql}, each value a long or a string. */
  private List<List<Object>> oracle(String sql) throws SQLException {
    try (Statement s = h2.createStatement()) {
      return ViewResults.normalized(ViewResults.query(s, sql));
    }
  }


  /** Re-runs {@code sql} on Freshet until it returns what H2 returns for {@code oracleSql}. */
  private void awaitOracle(String sql, String oracleSql) throws SQLException {
    ViewResults.awaitNormalized(statement, sql, oracle(oracleSql));
  }


  @Test void shouldMatchH2WhenRowsComeInTransactionsAndPartitionsAreAdded() throws Exception {
    String topic = createOrders("orders-" + UUID.randomUUID(), "");
    kafka.createTopic(topic, 3);
    statement.execute("CREATE MATERIALIZED VIEW by_item AS SELECT item, COUNT(*) AS n,"
        + " SUM(qty) AS q FROM orders GROUP BY item");
    statement.execute("CREATE MATERIALIZED VIEW by_partition AS SELECT p, COUNT(*) AS n,"
        + " MAX(o) AS last_offset FROM orders GROUP BY p");
    KafkaProducer<String, String> producer = kafka.transactionalProducer("tx-" + topic);
    send(producer, topic, 0, 300, 3, true);
    send(producer, topic, 300, 400, 3, false);
    send(producer, topic, 400, 700, 3, true);
    awaitOracle("SELECT item, n, q FROM by_item",
        "SELECT item, COUNT(*), SUM(qty) FROM orders GROUP BY item");

    // Two partitions more while the views run: read from their beginning, nothing lost.
    kafka.addPartitions(topic, 5);
    send(producer, topic, 700, 1_200, 5, true);
    send(producer, topic, 1_200, 1_300, 5, false);
    send(producer, topic, 1_300, 1_500, 5, true);
    awaitOracle("SELECT item, n, q FROM by_item",
        "SELECT item, COUNT(*), SUM(qty) FROM orders GROUP BY item");
    awaitOracle("SELECT p, n FROM by_partition", "SELECT p, COUNT(*) FROM orders GROUP BY p");
    // Offsets are the records': commit markers take offsets too, so the last offset of a
    // partition is above its record count.
    for (List<Object> row : ViewResults.query(statement,
        "SELECT p, n, last_offset FROM by_partition")) {
      assertTrue(((Number) row.get(2)).longValue() >= ((Number) row.get(1)).longValue(),
          row.toString());
    }
    // The offset log holds Spark's offsets: one per partition.
    String endOffset = lastEndOffset("BY_ITEM");
    assertTrue(endOffset.startsWith("{\"" + topic + "\":{\"0\":"), endOffset);
    assertTrue(endOffset.contains("\"4\":"), endOffset);
  }

  /** The end offset of the last batch of view {@code name}, as its progress shows it. */
  private String lastEndOffset(String name) throws SQLException {
    try (ResultSet rs = statement.executeQuery("SELECT json FROM sys.query_progress"
        + " WHERE name = '" + name + "' ORDER BY batch_id DESC")) {
      assertTrue(rs.next(), "no progress of " + name);
      String progress = rs.getString(1);
      int start = progress.indexOf("\"endOffset\":") + "\"endOffset\":".length();
      int end = progress.indexOf("}}", start) + 2;
      return progress.substring(start, end);
    }
  }

  @Test void shouldFailTheViewNamingAMalformedRecord() throws Exception {
    String topic = createOrders("bad-" + UUID.randomUUID(), "");
    kafka.createTopic(topic, 1);
    statement.execute("CREATE MATERIALIZED VIEW by_item AS SELECT item, COUNT(*) AS n"
        + " FROM orders GROUP BY item");
    KafkaProducer<String, String> producer = kafka.transactionalProducer("tx-" + topic);
    KafkaBroker.sendInTransaction(producer, topic, List.of(new Record(0, "1", json(1, "a", 1)),
        new Record(0, "2", "{\"id\": 2, \"qty\": \"many\"}")), true);

    SQLException e = ViewResults.awaitFailure(statement, "SELECT * FROM by_item");
    assertEquals("22000", e.getSQLState(), e.getMessage());
    assertTrue(e.getMessage().contains("The record at offset 1 of partition 0 of topic " + topic
        + " is not a row of stream ORDERS (format json): field \"qty\" (column QTY): 'many' is"
        + " not a whole number that fits INTEGER. Fix what writes the topic, or skip such"
        + " records with 'format.ignore-parse-errors' = 'true'"), e.getMessage());
  }

  @Test void shouldSkipAndCountMalformedRecordsWhenAskedTo() throws Exception {
    String topic = createOrders("skip-" + UUID.randomUUID(),
        ", 'format.ignore-parse-errors' = 'true'");
    kafka.createTopic(topic, 2);
    statement.execute("CREATE MATERIALIZED VIEW by_item AS SELECT item, COUNT(*) AS n,"
        + " SUM(qty) AS q FROM orders GROUP BY item");
    KafkaProducer<String, String> producer = kafka.transactionalProducer("tx-" + topic);
    send(producer, topic, 0, 50, 2, true);
    KafkaBroker.sendInTransaction(producer, topic, List.of(new Record(0, "x", "not json"),
        new Record(1, "y", "{\"id\": null}"), new Record(1, "z", "[1]")), true);
    send(producer, topic, 50, 100, 2, true);

    awaitOracle("SELECT item, n, q FROM by_item",
        "SELECT item, COUNT(*), SUM(qty) FROM orders GROUP BY item");
    assertEquals(3, ViewResults.awaitDroppedRows(statement, "BY_ITEM", 3));
  }

  @Test void shouldResumeAfterARestartWithoutCountingTwice() throws Exception {
    String topic = "resume-" + UUID.randomUUID();
    kafka.createTopic(topic, 3);
    String url = "jdbc:freshet:dataDir=" + dataDir;
    KafkaProducer<String, String> producer = kafka.transactionalProducer("tx-" + topic);
    send(producer, topic, 0, 200, 3, true);
    try (Connection first = DriverManager.getConnection(url);
         Statement s = first.createStatement()) {
      Statement previous = statement;
      statement = s;
      createOrders(topic, "");
      s.execute("CREATE MATERIALIZED VIEW by_item AS SELECT item, COUNT(*) AS n, SUM(qty) AS q"
          + " FROM orders GROUP BY item");
      awaitOracle("SELECT item, n, q FROM by_item",
          "SELECT item, COUNT(*), SUM(qty) FROM orders GROUP BY item");
      statement = previous;
    }
    engine(url).close();
    // Written while the engine is down: the next run reads them, and only them.
    send(producer, topic, 200, 300, 3, true);
    send(producer, topic, 300, 350, 3, false);
    try (Connection second = DriverManager.getConnection(url);
         Statement s = second.createStatement()) {
      statement = s;
      awaitOracle("SELECT item, n, q FROM by_item",
          "SELECT item, COUNT(*), SUM(qty) FROM orders GROUP BY item");
      send(producer, topic, 350, 400, 3, true);
      awaitOracle("SELECT item, n, q FROM by_item",
          "SELECT item, COUNT(*), SUM(qty) FROM orders GROUP BY item");
    } finally {
      engine(url).close();
    }
  }

  @Test void shouldReadCsvFromSpecificOffsetsAtMostACapPerBatch() throws Exception {
    String topic = "csv-" + UUID.randomUUID();
    kafka.createTopic(topic, 1);
    KafkaProducer<String, String> producer = kafka.transactionalProducer("tx-" + topic);
    List<Record> records = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      records.add(new Record(0, "key-" + i, i + ",\"item, " + (i % 3) + "\"," + (i + 1)));
    }
    // One transaction: records at offsets 0-9, its commit marker at 10.
    KafkaBroker.sendInTransaction(producer, topic, records, true);
    statement.execute("CREATE STREAM orders (id BIGINT NOT NULL, item VARCHAR, qty INTEGER,"
        + " k VARCHAR, o BIGINT, t VARCHAR) WITH (connector = 'kafka', 'topic' = '" + topic
        + "', 'properties.bootstrap.servers' = '" + kafka.bootstrapServers() + "',"
        + " 'format' = 'csv', 'scan.startup.mode' = 'specific-offsets',"
        + " 'scan.startup.specific-offsets' = 'partition:0,offset:4',"
        + " 'scan.max-records-per-batch' = '2', 'metadata.key' = 'k', 'metadata.offset' = 'o',"
        + " 'metadata.topic' = 't')");
    statement.execute("CREATE MATERIALIZED VIEW rows_read AS SELECT id, item, qty, k, o, t"
        + " FROM orders");
    List<List<Object>> expected = new ArrayList<>();
    for (long i = 4; i < 10; i++) {
      expected.add(List.of(i, "item, " + (i % 3), i + 1, "key-" + i, i, topic));
    }
    long deadline = System.nanoTime() + ViewResults.DEADLINE.toNanos();
    List<List<Object>> rows = ViewResults.normalized(ViewResults.query(statement, "SELECT * FROM rows_read"));
    while (!ViewResults.sameRows(rows, expected) && System.nanoTime() < deadline) {
      ViewResults.betweenPolls();
      rows = ViewResults.normalized(ViewResults.query(statement, "SELECT * FROM rows_read"));
    }
    assertEquals(expected.size(), rows.size(), rows.toString());
    assertTrue(ViewResults.sameRows(rows, expected), rows.toString());
    // The cap: six records in batches of at most two offsets.
    for (List<Object> batch : ViewResults.query(statement, "SELECT num_input_rows"
        + " FROM sys.query_progress WHERE name = 'ROWS_READ'")) {
      assertTrue(((Number) batch.get(0)).longValue() <= 2, batch.toString());
    }
  }

  @Test void shouldStartAtTheEndOfTheTopicWhenTheQueryIsMadeWithLatestOffset() throws Exception {
    String topic = "latest-" + UUID.randomUUID();
    kafka.createTopic(topic, 2);
    KafkaProducer<String, String> producer = kafka.transactionalProducer("tx-" + topic);
    send(producer, topic, 0, 40, 2, true);
    createOrders(topic, "");
    statement.execute("DROP STREAM orders");
    statement.execute("CREATE STREAM orders (id BIGINT NOT NULL, item VARCHAR, qty INTEGER)"
        + " WITH (connector = 'kafka', 'topic' = '" + topic + "',"
        + " 'properties.bootstrap.servers' = '" + kafka.bootstrapServers() + "',"
        + " 'scan.startup.mode' = 'latest-offset')");
    statement.execute("CREATE MATERIALIZED VIEW by_item AS SELECT item, COUNT(*) AS n,"
        + " SUM(qty) AS q FROM orders GROUP BY item");
    // Written right after CREATE returned: the view's, and nothing before.
    try (Statement s = h2.createStatement()) {
      s.execute("DELETE FROM orders");
    }
    send(producer, topic, 40, 70, 2, true);
    awaitOracle("SELECT item, n, q FROM by_item",
        "SELECT item, COUNT(*), SUM(qty) FROM orders GROUP BY item");
  }

  /** A batch of 40,000 records over 3 partitions is read by the query's input tasks at once. */
  @Test void shouldMatchH2WhenABatchsPartitionsAreReadInParallel() throws Exception {
    String topic = createOrders("parallel-" + UUID.randomUUID(), "");
    kafka.createTopic(topic, 3);
    KafkaProducer<String, String> producer = kafka.transactionalProducer("tx-" + topic);
    send(producer, topic, 0, 40_000, 3, true);
    send(producer, topic, 40_000, 41_000, 3, false);
    statement.execute("CREATE MATERIALIZED VIEW by_item AS SELECT item, COUNT(*) AS n,"
        + " SUM(qty) AS q FROM orders GROUP BY item");
    awaitOracle("SELECT item, n, q FROM by_item",
        "SELECT item, COUNT(*), SUM(qty) FROM orders GROUP BY item");
    send(producer, topic, 41_000, 80_000, 3, true);
    awaitOracle("SELECT item, n, q FROM by_item",
        "SELECT item, COUNT(*), SUM(qty) FROM orders GROUP BY item");
  }

  @Test void shouldRefuseAPlainSelectOfATopic() throws Exception {
    createOrders("plain-" + UUID.randomUUID(), "");
    SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
        () -> statement.executeQuery("SELECT COUNT(*) FROM orders"));
    assertEquals("0A000", e.getSQLState());
    assertTrue(e.getMessage().contains("reads Kafka topic plain-"), e.getMessage());
  }

  private static Engine engine(String url) throws SQLException {
    return EngineRegistry.INSTANCE.resolve(
        Map.of(EngineRegistry.DATA_DIR, url.substring(url.indexOf('=') + 1)));
  }
}
