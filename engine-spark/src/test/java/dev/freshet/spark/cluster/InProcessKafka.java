package dev.freshet.spark.cluster;

import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.common.utils.Exit;

/**
 * A real one-node KRaft Kafka broker in the test JVM (Kafka's own test kit), reachable from the
 * Spark executors in other JVMs through {@link #bootstrapServers()}. It is the JVM's one, started
 * by the first class that asks and stopped when the JVM exits, since a start costs seconds: a
 * class stays apart from the others by its topic names.
 *
 * <pre>{@code
 * InProcessKafka kafka = InProcessKafka.shared();
 * kafka.createTopic("clicks", 2);
 * kafka.producer().send(new ProducerRecord<>("clicks", "u1", "1"));
 * }</pre>
 */
public final class InProcessKafka {
  private static InProcessKafka shared;

  private final KafkaClusterTestKit cluster;
  private final Admin admin;
  private KafkaProducer<String, String> producer;

  private InProcessKafka(KafkaClusterTestKit cluster) {
    this.cluster = cluster;
    this.admin = cluster.admin();
  }

  /**
   * The test JVM's broker, started on the first call. Not JUnit's root store: surefire runs each
   * class of a reused fork as a launch of its own, which would stop it after every class.
   */
  public static synchronized InProcessKafka shared() throws Exception {
    if (shared == null) {
      shared = start();
      InProcessKafka started = shared;
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        // The test kit's own exit hook deletes the broker's directories while this one stops
        // it; a broker that then finds its log directory gone halts the JVM with status 1
        // (ReplicaManager.handleLogDirFailure), which surefire reports as a crashed fork. The
        // test JVM's exit status is its tests', so the broker may no longer halt it.
        Exit.setHaltProcedure((status, message) -> { });
        started.close();
      }, "kafka-broker-stop"));
    }
    return shared;
  }

  /** Starts a combined broker and controller whose internal topics need one replica. */
  private static InProcessKafka start() throws Exception {
    KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
        .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build())
        .setConfigProp("offsets.topic.replication.factor", "1")
        .setConfigProp("transaction.state.log.replication.factor", "1")
        .setConfigProp("transaction.state.log.min.isr", "1")
        .build();
    cluster.format();
    cluster.startup();
    cluster.waitForReadyBrokers();
    return new InProcessKafka(cluster);
  }

  public String bootstrapServers() {
    return cluster.bootstrapServers();
  }

  public void createTopic(String topic, int partitions)
      throws ExecutionException, InterruptedException {
    admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
  }

  /** One idempotent producer (acks=all) for the whole test JVM, closed with the broker. */
  public synchronized KafkaProducer<String, String> producer() {
    if (producer == null) {
      Properties p = new Properties();
      p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
      p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
      p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
      p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
      p.put(ProducerConfig.ACKS_CONFIG, "all");
      producer = new KafkaProducer<>(p);
    }
    return producer;
  }

  /**
   * Sends {@code values} to partition 0 of {@code topic}, keyed by {@code key} (null: none), and
   * waits until Kafka has each.
   */
  public void send(String topic, String key, List<String> values) throws Exception {
    for (String value : values) {
      producer().send(new ProducerRecord<>(topic, 0, key, value)).get();
    }
  }

  private synchronized void close() {
    if (producer != null) {
      producer.close();
    }
    admin.close();
    try {
      cluster.close();
    } catch (Exception e) {
      // The JVM is exiting: nothing to tell but the reason.
      e.printStackTrace();
    }
  }
}
