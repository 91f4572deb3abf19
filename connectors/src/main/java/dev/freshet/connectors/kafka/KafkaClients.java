package dev.freshet.connectors.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The settings of the source's Kafka consumers, and the topic's partitions.
 *
 * <pre>{@code
 * new KafkaConsumer<byte[], byte[]>(KafkaClients.consumerProperties(spec, "reader"));
 * }</pre>
 */
final class KafkaClients {
  /** How long a metadata request waits. */
  private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(10);

  private KafkaClients() {
  }

  /**
   * The user's properties, then what exactly-once reading needs, which the user cannot change:
   * committed records only, no consumer group, no offset commits, no reset past lost records.
   */
  static Properties consumerProperties(KafkaSourceSpec spec, String role) {
    Properties properties = new Properties();
    properties.putAll(spec.properties());
    properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "freshet-" + spec.stream() + "-" + role);
    properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
        ByteArrayDeserializer.class.getName());
    properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
        ByteArrayDeserializer.class.getName());
    properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    properties.remove(ConsumerConfig.GROUP_ID_CONFIG);
    properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
    // New partitions must show within seconds.
    properties.putIfAbsent(ConsumerConfig.METADATA_MAX_AGE_CONFIG, "1000");
    if (role.equals("reader")) {
      // A batch reads many records: fewer, larger polls.
      properties.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "10000");
    }
    if (role.equals("poller")) {
      // The poller's fetch only tells that something came: a little of it is enough.
      properties.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, "1024");
      properties.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, "1024");
      properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "1");
    }
    return properties;
  }

  /** The topic's partitions now; empty if the topic does not exist. */
  static List<TopicPartition> partitions(KafkaConsumer<?, ?> consumer, String topic) {
    List<PartitionInfo> infos = consumer.partitionsFor(topic, METADATA_TIMEOUT);
    List<TopicPartition> partitions = new ArrayList<>();
    if (infos != null) {
      for (PartitionInfo info : infos) {
        partitions.add(new TopicPartition(topic, info.partition()));
      }
    }
    partitions.sort((a, b) -> Integer.compare(a.partition(), b.partition()));
    return List.copyOf(partitions);
  }
}
