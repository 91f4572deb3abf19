package dev.freshet.jdbc;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * A real Kafka broker in this JVM (Kafka's own KRaft test kit, one combined node), for a test
 * class: topics, transactional producers, partitions added.
 *
 * <pre>{@code
 * static KafkaBroker kafka;
 * @BeforeAll static void start() throws Exception { kafka = KafkaBroker.start(); }
 * @AfterAll static void stop() throws Exception { kafka.close(); }
 * }</pre>
 */
public final class KafkaBroker implements AutoCloseable {
  private final KafkaClusterTestKit cluster;
  private final Admin admin;
  private final List<KafkaProducer<String, String>> producers = new ArrayList<>();

  private KafkaBroker(KafkaClusterTestKit cluster) {
    this.cluster = cluster;
    this.admin = cluster.admin();
  }

  /** Starts a one-node cluster whose internal topics need one replica. */
  public static KafkaBroker start() throws Exception {
    KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
        .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build())
        .setConfigProp("offsets.topic.replication.factor", "1")
        .setConfigProp("transaction.state.log.replication.factor", "1")
        .setConfigProp("transaction.state.log.min.isr", "1")
        .setConfigProp("group.initial.rebalance.delay.ms", "0")
        .build();
    cluster.format();
    cluster.startup();
    cluster.waitForReadyBrokers();
    return new KafkaBroker(cluster);
  }

  /** Where clients connect, e.g. {@code localhost:40123}. */
  public String bootstrapServers() {
    return cluster.bootstrapServers();
  }

  /** Creates a topic of {@code partitions} partitions and waits until it exists. */
  public void createTopic(String topic, int partitions) throws ExecutionException,
      InterruptedException {
    admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
  }

  /** Grows the topic to {@code partitions} partitions. */
  public void addPartitions(String topic, int partitions) throws ExecutionException,
      InterruptedException {
    admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(partitions))).all().get();
  }

  /** A transactional producer with id {@code transactionalId}, initialized; closed with this. */
  public KafkaProducer<String, String> transactionalProducer(String transactionalId) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    KafkaProducer<String, String> producer = new KafkaProducer<>(p);
    producer.initTransactions();
    producers.add(producer);
    return producer;
  }

  /** Sends {@code records} (partition, key, value) in one transaction and commits it. */
  public static void sendInTransaction(KafkaProducer<String, String> producer, String topic,
      List<Record> records, boolean commit) {
    producer.beginTransaction();
    for (Record r : records) {
      producer.send(new ProducerRecord<>(topic, r.partition(), r.key(), r.value()));
    }
    if (commit) {
      producer.commitTransaction();
    } else {
      producer.abortTransaction();
    }
  }

  /** A record to send: its partition, key and value. */
  public record Record(int partition, String key, String value) {
  }

  @Override public void close() throws Exception {
    for (KafkaProducer<String, String> producer : producers) {
      producer.close();
    }
    admin.close();
    cluster.close();
  }
}
