package dev.freshet.connectors.kafka;

import static java.util.Objects.requireNonNull;

import dev.freshet.connectors.format.RecordFormat;
import dev.freshet.connectors.format.SourceColumn;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * What a Kafka stream reads and how: the topic, the client's properties, where a new query
 * starts, the most records one batch takes, and how a record becomes a row.
 *
 * <pre>{@code
 * new KafkaSourceSpec("ORDERS", "orders", Map.of("bootstrap.servers", "localhost:9092"),
 *     StartupMode.EARLIEST, Map.of(), OptionalLong.empty(), RecordFormat.JSON, columns, false,
 *     Duration.ofSeconds(1));
 * }</pre>
 *
 * @param stream the stream's name, for descriptions
 * @param topic the topic
 * @param properties Kafka client properties ({@code bootstrap.servers}, security settings);
 *     the source sets those that reading exactly once needs itself
 * @param startup where a query with no checkpoint starts
 * @param specificOffsets partition to offset, for {@link StartupMode#SPECIFIC}
 * @param maxRecordsPerBatch the most offsets one batch reads over all partitions, if limited
 * @param format how a record's value becomes a row
 * @param columns the stream's columns
 * @param ignoreParseErrors whether a record that cannot be read is skipped and counted rather
 *     than failing the query
 * @param partitionDiscoveryInterval how often the topic is checked for new partitions
 */
public record KafkaSourceSpec(String stream, String topic, Map<String, String> properties,
    StartupMode startup, Map<Integer, Long> specificOffsets, OptionalLong maxRecordsPerBatch,
    RecordFormat format, List<SourceColumn> columns, boolean ignoreParseErrors,
    Duration partitionDiscoveryInterval) {
  public KafkaSourceSpec {
    requireNonNull(stream, "stream");
    requireNonNull(topic, "topic");
    properties = Map.copyOf(properties);
    requireNonNull(startup, "startup");
    specificOffsets = Map.copyOf(specificOffsets);
    requireNonNull(maxRecordsPerBatch, "maxRecordsPerBatch");
    requireNonNull(format, "format");
    columns = List.copyOf(columns);
    requireNonNull(partitionDiscoveryInterval, "partitionDiscoveryInterval");
  }

  /** Where a query without a checkpoint starts reading, as Flink's {@code scan.startup.mode}. */
  public enum StartupMode {
    /** From the first record each partition still has ({@code earliest-offset}). */
    EARLIEST("earliest-offset"),
    /** From the records written after the query starts ({@code latest-offset}). */
    LATEST("latest-offset"),
    /** From given offsets ({@code specific-offsets}); other partitions from their first. */
    SPECIFIC("specific-offsets");

    private final String text;

    StartupMode(String text) {
      this.text = text;
    }

    /** The mode as {@code 'scan.startup.mode'} names it. */
    public String text() {
      return text;
    }
  }
}
