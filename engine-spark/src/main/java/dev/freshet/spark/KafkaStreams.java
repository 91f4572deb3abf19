package dev.freshet.spark;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.freshet.connectors.kafka.KafkaSourceSpec;
import dev.freshet.connectors.kafka.KafkaTopicSource;
import dev.freshet.planner.logical.LogicalStream;
import java.sql.SQLException;
import java.util.Set;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.DataStreamReader;
import org.apache.spark.sql.types.StructType;

/**
 * A stream with {@code connector = 'kafka'} read by Spark's Kafka source, with the options the
 * engine checked when the stream was declared ({@link KafkaSourceSpec}): the topic,
 * {@code properties.*} as Spark's {@code kafka.*} (but those Freshet's reader overrides), where a
 * new query starts and the most offsets of a batch; each record's value parsed into the stream's
 * columns ({@link KafkaRecordColumns}).
 *
 * <pre>{@code
 * CREATE STREAM orders (...) WITH (connector = 'kafka', 'topic' = 'orders',
 *     'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json')
 * Dataset<Row> rows = KafkaStreams.read(spark, query.sources().get(0));   // ORDERS
 * }</pre>
 */
final class KafkaStreams {
  /** The connector's name in {@code CREATE STREAM ... WITH (connector = 'kafka')}. */
  static final String CONNECTOR = "kafka";
  /** Spark's prefix of the Kafka consumer's properties. */
  private static final String KAFKA_PREFIX = "kafka.";
  /**
   * Consumer properties that Freshet's reader overrides (no group, no commits, bytes,
   * read_committed) and Spark's source sets itself, refusing most of them if given.
   */
  private static final Set<String> SET_BY_THE_SOURCE = Set.of("group.id", "auto.offset.reset",
      "enable.auto.commit", "key.deserializer", "value.deserializer", "isolation.level");
  /** A consumer property Freshet's reader takes and Spark's source refuses. */
  private static final String INTERCEPTORS = "interceptor.classes";

  private KafkaStreams() {
  }

  /**
   * The records of the stream's topic as rows of the stream.
   *
   * @throws SQLException 0A000 if a column's type has no Spark counterpart here, or for
   *     {@code 'format.ignore-parse-errors'}
   */
  static Dataset<Row> read(SparkSession spark, LogicalStream stream) throws SQLException {
    if (!(stream.source() instanceof KafkaTopicSource topic)) {
      throw new IllegalArgumentException("stream " + stream.name() + " does not read a Kafka"
          + " topic: " + stream.source().description());
    }
    KafkaSourceSpec spec = topic.spec();
    if (spec.ignoreParseErrors()) {
      // Freshet counts what it skips (rows_dropped_by_error); a Spark query would not say.
      throw SparkErrors.notYetOnSpark("Skipping records that are not rows"
          + " ('format.ignore-parse-errors' = 'true', stream " + stream.name() + ")",
          "leave the option out, so that such a record fails the query, or run the query on"
          + " Freshet's own executor");
    }
    if (spec.properties().containsKey(INTERCEPTORS)) {
      throw SparkErrors.notOnSpark("Consumer interceptors ('properties." + INTERCEPTORS
          + "', stream " + stream.name() + ")", "Leave the option out, or run the query on"
          + " Freshet's own executor");
    }
    DataStreamReader reader = spark.readStream().format(CONNECTOR);
    spec.properties().forEach((key, value) -> {
      if (!SET_BY_THE_SOURCE.contains(key)) {
        reader.option(KAFKA_PREFIX + key, value);
      }
    });
    // As Freshet's reader: records of aborted transactions are never seen.
    reader.option(KAFKA_PREFIX + "isolation.level", "read_committed")
        .option("subscribe", spec.topic())
        .option("startingOffsets", startingOffsets(spec))
        // Records deleted before the query read them fail it, as on Freshet (08001 there).
        .option("failOnDataLoss", "true");
    spec.maxRecordsPerBatch().ifPresent(max -> reader.option("maxOffsetsPerTrigger", max));
    StructType schema = SparkTypes.schemaOf(stream.columns());
    return new KafkaRecordColumns(spec, schema).rowsOf(reader.load());
  }

  /**
   * Spark's {@code startingOffsets} for the stream's {@code scan.startup.mode}. Specific offsets
   * become Spark's JSON form, {@code {"orders":{"0":42}}}; Spark then wants every partition of
   * the topic named (-2 for the earliest offset), where Freshet reads the others from their first.
   */
  static String startingOffsets(KafkaSourceSpec spec) {
    return switch (spec.startup()) {
      case EARLIEST -> "earliest";
      case LATEST -> "latest";
      case SPECIFIC -> specificOffsets(spec);
    };
  }

  private static String specificOffsets(KafkaSourceSpec spec) {
    ObjectNode root = JsonNodeFactory.instance.objectNode();
    ObjectNode partitions = root.putObject(spec.topic());
    new TreeMap<>(spec.specificOffsets()).forEach(
        (partition, offset) -> partitions.put(Integer.toString(partition), offset));
    return root.toString();
  }
}
