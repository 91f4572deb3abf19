package dev.freshet.engine;

import dev.freshet.engine.errors.StreamErrors;
import dev.freshet.planner.catalog.StreamTable;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The connectors of {@code CREATE STREAM ... WITH (connector = '...')}: where a stream's rows
 * come from, and the options each accepts.
 *
 * <pre>{@code
 * StreamConnector.of("NUMS", Map.of("connector", "sequence"));   // SEQUENCE
 * StreamConnector.of("CLICKS", Map.of());                        // MEMORY, the default
 * }</pre>
 */
enum StreamConnector {
  /** Rows come by INSERT; the default. */
  MEMORY(List.of(StreamTable.CONNECTOR_OPTION, StreamRetentionOptions.RETENTION,
      StreamRetentionOptions.MEMORY_MAX, StreamRetentionOptions.SEGMENT_SIZE)),
  /** Rows are generated from their offset ({@link SequenceConnector}). */
  SEQUENCE(SequenceConnector.OPTIONS),
  /** Rows are a Kafka topic's records ({@link KafkaConnector}). */
  KAFKA(KafkaConnector.OPTIONS),
  /** Rows are the lines of the files that appear in a directory ({@link FileSystemConnector}). */
  FILESYSTEM(FileSystemConnector.OPTIONS),
  /** Rows are Nexmark events, generated from their offset ({@link NexmarkConnector}). */
  NEXMARK(NexmarkConnector.OPTIONS);

  private final List<String> options;

  StreamConnector(List<String> options) {
    this.options = options;
  }

  /**
   * Whether the connector reaches outside the server (a broker, the server's files), so that
   * creating a stream with it needs the administrator role or {@code GRANT CREATE CONNECTOR}.
   */
  boolean external() {
    return this == KAFKA || this == FILESYSTEM;
  }

  /** The connector as {@code WITH (connector = ...)} names it, e.g. {@code memory}. */
  String text() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Every option the connector accepts, {@code connector} first, as messages list them. */
  List<String> options() {
    return options;
  }

  /**
   * The connector that stream {@code stream}'s options name, {@link #MEMORY} if none.
   *
   * @param options the {@code WITH} options, keys in lower case
   * @throws SQLException (0A000) if no connector has the name
   */
  static StreamConnector of(String stream, Map<String, String> options) throws SQLException {
    String text = options.getOrDefault(StreamTable.CONNECTOR_OPTION, StreamTable.DEFAULT_CONNECTOR)
        .toLowerCase(Locale.ROOT);
    for (StreamConnector connector : values()) {
      if (connector.text().equals(text)) {
        return connector;
      }
    }
    throw StreamErrors.unknownConnector(stream, text);
  }

  /**
   * Fails on the first of {@code options} this connector does not accept.
   *
   * @throws SQLException (42000) naming the option and listing those the connector accepts
   */
  void checkOptions(String stream, Map<String, String> options) throws SQLException {
    for (String key : options.keySet()) {
      if (!this.options.contains(key)) {
        throw StreamErrors.unknownStreamOption(stream, text(), key, this.options);
      }
    }
  }
}
