package dev.freshet.connectors.kafka;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.freshet.common.errors.SqlErrors;
import dev.freshet.common.errors.SqlState;
import dev.freshet.connectors.sink.SinkException;
import dev.freshet.connectors.sink.SinkLayout;
import dev.freshet.connectors.sink.SinkValues;
import dev.freshet.connectors.sink.SinkWriter;
import dev.freshet.executor.operators.OutputMode;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Writes a sink's batches to a Kafka topic exactly once, with a transactional producer whose
 * {@code transactional.id} is the sink's: per batch, one transaction holds the batch's records
 * and a marker record (sink name to batch id) in the compacted topic
 * {@value #BATCH_TOPIC}; a batch run again after a crash finds its marker and sends nothing,
 * and {@code initTransactions} fences an older producer of the sink and aborts what it left
 * open. Readers with {@code isolation.level=read_committed} see each batch once, whole.
 *
 * <p>UPDATE and COMPLETE results go out as an upsert topic: the key is the group key's columns
 * as a JSON object, the value the row as a JSON object; APPEND rows have no key. Every record
 * carries the header {@code freshet.batch} with its batch id.
 *
 * <pre>{@code
 * KafkaSinkWriter writer = KafkaSinkWriter.open("OUT", queryId, spec, layout);
 * writer.write(0, rows);
 * }</pre>
 */
public final class KafkaSinkWriter implements SinkWriter {
  /** The compacted topic of the last batch each sink wrote. */
  static final String BATCH_TOPIC = "__freshet_sink_batches";
  /** The header of every record: its batch id. */
  static final String BATCH_HEADER = "freshet.batch";
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String sink;
  private final String queryId;
  private final KafkaSinkSpec spec;
  private final SinkLayout layout;
  private final KafkaProducer<String, String> producer;
  /** The last batch of this query the topic has, or -1. */
  private long lastBatch;

  private KafkaSinkWriter(String sink, String queryId, KafkaSinkSpec spec, SinkLayout layout,
      KafkaProducer<String, String> producer, long lastBatch) {
    this.sink = sink;
    this.queryId = queryId;
    this.spec = spec;
    this.layout = layout;
    this.producer = producer;
    this.lastBatch = lastBatch;
  }

  /**
   * Connects, creates the batch topic if missing, fences older producers of the sink and reads
   * the last batch it committed.
   *
   * @throws SQLException 08001 if the brokers cannot be reached
   */
  public static KafkaSinkWriter open(String sink, String queryId, KafkaSinkSpec spec,
      SinkLayout layout) throws SQLException {
    KafkaProducer<String, String> producer = null;
    try {
      createBatchTopic(spec);
      Properties p = new Properties();
      p.putAll(spec.properties());
      p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
      p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
      p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "freshet-sink-" + sink);
      p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
      p.put(ProducerConfig.ACKS_CONFIG, "all");
      p.put(ProducerConfig.CLIENT_ID_CONFIG, "freshet-sink-" + sink);
      p.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(TIMEOUT.toMillis()));
      producer = new KafkaProducer<>(p);
      // Fences a zombie of this sink and aborts its open transaction, so that the marker read
      // next is final.
      producer.initTransactions();
      long last = lastBatch(spec, sink, queryId);
      return new KafkaSinkWriter(sink, queryId, spec, layout, producer, last);
    } catch (KafkaException | ExecutionException | TimeoutException | InterruptedException e) {
      if (producer != null) {
        producer.close(Duration.ZERO);
      }
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw SqlErrors.of(SqlState.UNABLE_TO_CONNECT, "Sink " + sink + " cannot use Kafka at "
          + spec.properties().get("bootstrap.servers") + ": " + e.getMessage() + ". Check"
          + " 'properties.bootstrap.servers' and that the brokers are up", e);
    }
  }

  private static void createBatchTopic(KafkaSinkSpec spec) throws ExecutionException,
      InterruptedException, TimeoutException {
    Properties p = new Properties();
    p.putAll(spec.properties());
    try (Admin admin = Admin.create(p)) {
      try {
        admin.createTopics(List.of(new NewTopic(BATCH_TOPIC, Optional.of(1), Optional.empty())
            .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT))))
            .all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof TopicExistsException)) {
          throw e;
        }
      }
    }
  }

  /** The last batch of query {@code queryId} that sink {@code sink} committed, or -1. */
  private static long lastBatch(KafkaSinkSpec spec, String sink, String queryId) {
    Properties p = new Properties();
    p.putAll(spec.properties());
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.remove(ConsumerConfig.GROUP_ID_CONFIG);
    TopicPartition partition = new TopicPartition(BATCH_TOPIC, 0);
    long last = -1;
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
      consumer.assign(List.of(partition));
      consumer.seekToBeginning(List.of(partition));
      long end = consumer.endOffsets(List.of(partition), TIMEOUT).get(partition);
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      while (consumer.position(partition, TIMEOUT) < end) {
        if (System.nanoTime() > deadline) {
          throw new KafkaException("the batch topic " + BATCH_TOPIC + " was not read to its"
              + " end within " + TIMEOUT.toSeconds() + " s");
        }
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          if (r.key() != null && new String(r.key(), StandardCharsets.UTF_8).equals(sink)
              && r.value() != null) {
            JsonNode marker = JSON.readTree(r.value());
            last = marker.path("queryId").asText().equals(queryId)
                ? marker.path("batchId").asLong(-1) : -1;
          }
        }
      }
    } catch (java.io.IOException e) {
      throw new KafkaException("a marker of sink " + sink + " in " + BATCH_TOPIC
          + " is not JSON", e);
    }
    return last;
  }

  @Override public boolean write(long batchId, List<Object[]> rows) {
    if (batchId <= lastBatch) {
      return false;
    }
    try {
      producer.beginTransaction();
      String header = Long.toString(batchId);
      for (Object[] row : rows) {
        boolean admitted = layout.admits(row);
        if (!admitted && layout.mode() != OutputMode.UPDATE) {
          continue;
        }
        // A group HAVING no longer admits: a tombstone, which compaction removes it by.
        ProducerRecord<String, String> record = new ProducerRecord<>(spec.topic(), null,
            layout.keyed() ? keyJson(row) : null, admitted ? valueJson(row) : null);
        record.headers().add(BATCH_HEADER, header.getBytes(StandardCharsets.UTF_8));
        producer.send(record);
      }
      ObjectNode marker = JSON.createObjectNode().put("queryId", queryId).put("batchId", batchId);
      producer.send(new ProducerRecord<>(BATCH_TOPIC, 0, sink, JSON.writeValueAsString(marker)));
      producer.commitTransaction();
      lastBatch = batchId;
      return true;
    } catch (KafkaException | JsonProcessingException e) {
      try {
        producer.abortTransaction();
      } catch (KafkaException ignored) {
        // Fenced or broken: the next run's initTransactions aborts it.
      }
      throw new SinkException("Sink " + sink + " cannot write batch " + batchId + " to topic "
          + spec.topic() + ": " + e.getMessage(), e);
    }
  }

  private String keyJson(Object[] row) throws JsonProcessingException {
    ObjectNode key = JSON.createObjectNode();
    for (int k : layout.keyColumns()) {
      key.putPOJO(layout.names().get(k), SinkValues.forJson(layout.sqlType(k), row[k]));
    }
    return JSON.writeValueAsString(key);
  }

  private String valueJson(Object[] row) throws JsonProcessingException {
    ObjectNode value = JSON.createObjectNode();
    for (int i = 0; i < layout.width(); i++) {
      value.putPOJO(layout.names().get(i), SinkValues.forJson(layout.sqlType(i), row[i]));
    }
    return JSON.writeValueAsString(value);
  }

  @Override public void close() {
    producer.close(Duration.ofSeconds(5));
  }
}
