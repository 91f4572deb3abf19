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
import org.apache.kafka.common.utils.Exit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real Kafka broker (Kafka's own KRaft test kit, one combined node) for a test class: topics,
 * transactional producers, partitions added. The broker is the test JVM's one, started by the
 * first class that asks for it and stopped when the JVM exits, since a start costs seconds; a
 * class stays apart from the others by its topic names (make them unique, e.g. with a UUID) and
 * its transactional ids. The producers a class makes are closed after the class.
 *
 * <pre>{@code
 * @RegisterExtension static final KafkaBroker kafka = new KafkaBroker();
 *
 * @Test void readsATopic() throws Exception {
 *   String topic = "orders-" + UUID.randomUUID();
 *   kafka.createTopic(topic, 3);
 *   ... 'properties.bootstrap.servers' = '" + kafka.bootstrapServers() + "' ...
 * }
 * }</pre>
 */
public final class KafkaBroker implements BeforeAllCallback, AfterAllCallback {
  private final List<KafkaProducer<String, String>> producers = new ArrayList<>();
  private Broker broker;

  @Override public void beforeAll(ExtensionContext context) throws Exception {
    broker = Broker.get();
  }

  @Override public void afterAll(ExtensionContext context) {
    for (KafkaProducer<String, String> producer : producers) {
      producer.close();
    }
    producers.clear();
  }

  /** Where clients connect, e.g. {@code localhost:40123}. */
  public String bootstrapServers() {
    return broker().cluster.bootstrapServers();
  }

  /** Creates a topic of {@code partitions} partitions and waits until it exists. */
  public void createTopic(String topic, int partitions) throws ExecutionException,
      InterruptedException {
    broker().admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
  }

  /** Grows the topic to {@code partitions} partitions. */
  public void addPartitions(String topic, int partitions) throws ExecutionException,
      InterruptedException {
    broker().admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(partitions))).all()
        .get();
  }

  /**
   * A transactional producer with id {@code transactionalId}, initialized; closed after the
   * class. The id is the broker's, shared by every class: make it unique (e.g. name the topic).
   */
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

  private Broker broker() {
    if (broker == null) {
      throw new IllegalStateException("KafkaBroker is used before the class started it:"
          + " register it as a static @RegisterExtension field");
    }
    return broker;
  }

  /**
   * The test JVM's broker. Not JUnit's root store: surefire runs each class of a reused fork
   * as a launch of its own, which would close the broker after every class.
   */
  private static final class Broker {
    private static Broker instance;

    private final KafkaClusterTestKit cluster;
    private final Admin admin;

    private Broker(KafkaClusterTestKit cluster) {
      this.cluster = cluster;
      this.admin = cluster.admin();
    }

    static synchronized Broker get() throws Exception {
      if (instance == null) {
        instance = start();
        Broker started = instance;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
          // The test kit's own exit hook deletes the broker's directories while this one stops
          // it; a broker that then finds its log directory gone halts the JVM with status 1
          // (ReplicaManager.handleLogDirFailure), which surefire reports as a crashed fork. The
          // test JVM's exit status is its tests', so the broker may no longer halt it.
          Exit.setHaltProcedure((status, message) -> { });
          started.close();
        }, "kafka-broker-stop"));
      }
      return instance;
    }

    /** Starts a one-node cluster whose internal topics need one replica. */
    private static Broker start() throws Exception {
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
      return new Broker(cluster);
    }

    private void close() {
      admin.close();
      try {
        cluster.close();
      } catch (Exception e) {
        // The JVM is exiting: nothing to tell but the reason.
        e.printStackTrace();
      }
    }
  }
}
