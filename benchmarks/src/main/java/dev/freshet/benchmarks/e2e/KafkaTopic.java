package dev.freshet.benchmarks.e2e;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * W8's topic: one real KRaft broker (Kafka's own test kit, one combined node) in the harness's
 * JVM, and a topic filled once with JSON rows, read by both engines' JVMs in turn.
 *
 * <p>Row {@code n} (from 0) is {@code {"id":n,"k":n % 100000,"v":n % 1000}}, in partition
 * {@code n % partitions}. The producer batches (256 KB batches, 20 ms linger, {@code acks=1}) and
 * compresses with lz4, as a throughput-minded producer would: both engines' consumers pay for
 * decompressing it alike. Filling is not timed with the engines.
 *
 * <pre>{@code
 * try (KafkaTopic topic = KafkaTopic.start("w8", 4)) {
 *   topic.fill(2_000_000);
 *   ... topic.bootstrapServers() ...
 * }
 * }</pre>
 */
final class KafkaTopic implements AutoCloseable {
  /** The keys of W8's rows ({@code k = n % KEYS}). */
  static final long KEYS = 100_000;
  /** The values of W8's rows ({@code v = n % VALUES}). */
  static final long VALUES = 1_000;

  private final KafkaClusterTestKit cluster;
  private final String topic;
  private final int partitions;

  private KafkaTopic(KafkaClusterTestKit cluster, String topic, int partitions) {
    this.cluster = cluster;
    this.topic = topic;
    this.partitions = partitions;
  }

  /** Starts the broker and creates {@code topic} with {@code partitions} partitions. */
  static KafkaTopic start(String topic, int partitions) throws Exception {
    KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
        .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build())
        .setConfigProp("offsets.topic.replication.factor", "1")
        .setConfigProp("transaction.state.log.replication.factor", "1")
        .setConfigProp("transaction.state.log.min.isr", "1")
        .build();
    try {
      cluster.format();
      cluster.startup();
      cluster.waitForReadyBrokers();
      try (Admin admin = cluster.admin()) {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
      }
    } catch (Exception e) {
      cluster.close();
      throw e;
    }
    return new KafkaTopic(cluster, topic, partitions);
  }

  String bootstrapServers() {
    return cluster.bootstrapServers();
  }

  String topic() {
    return topic;
  }

  /** Sends rows 0 to {@code rows - 1} and waits until the broker has them all. */
  void fill(long rows) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.ACKS_CONFIG, "1");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(256 * 1024));
    p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
    p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Long.toString(128L * 1024 * 1024));
    AtomicReference<Exception> failed = new AtomicReference<>();
    Callback callback = (metadata, e) -> {
      if (e != null) {
        failed.compareAndSet(null, e);
      }
    };
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
      for (long n = 0; n < rows && failed.get() == null; n++) {
        producer.send(new ProducerRecord<>(topic, (int) (n % partitions), null, row(n)), callback);
      }
      producer.flush();
    }
    if (failed.get() != null) {
      throw new IllegalStateException("Filling topic " + topic + " failed", failed.get());
    }
  }

  /** Row {@code n} as JSON bytes. */
  static byte[] row(long n) {
    // Three whole numbers, 20 million times: concatenated, about 4x faster here than Jackson's
    // writer (0.1 against 0.4 us a row), which would show in topic_fill_s. HarnessTest checks
    // the text.
    return ("{\"id\":" + n + ",\"k\":" + n % KEYS + ",\"v\":" + n % VALUES + "}")
        .getBytes(StandardCharsets.US_ASCII);
  }

  /** The sum of {@code v} over rows 0 to {@code rows - 1}: what both views must end with. */
  static long sumOfV(long rows) {
    long full = rows / VALUES;
    long rest = rows % VALUES;
    return full * (VALUES * (VALUES - 1) / 2) + rest * (rest - 1) / 2;
  }

  @Override public void close() throws Exception {
    cluster.close();
  }
}
