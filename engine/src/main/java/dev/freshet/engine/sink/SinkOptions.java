package dev.freshet.engine.sink;

import dev.freshet.connectors.jdbc.JdbcSinkSpec;
import dev.freshet.connectors.kafka.KafkaSinkSpec;
import dev.freshet.connectors.sink.SinkSpec;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.errors.StreamErrors;
import dev.freshet.engine.security.ConnectorPolicy;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a {@code CREATE SINK}'s {@code WITH} options (Flink SQL's names) into a
 * {@link SinkSpec}, refusing unknown or missing ones with 42000 naming the option, and on a
 * server what the engine's {@link ConnectorPolicy} does not allow with 42501.
 *
 * <pre>{@code
 * SinkOptions.parse("OUT", Map.of("connector", "jdbc", "url", "jdbc:h2:mem:t",
 *     "table-name", "totals"), ConnectorPolicy.unrestricted());   // JdbcSinkSpec
 * SinkOptions.parse("OUT", Map.of("connector", "jdbc", "url", "jdbc:h2:mem:t",
 *     "table-name", "totals"), ConnectorPolicy.restricted(List.of()));   // SQLException 42501
 * }</pre>
 */
public final class SinkOptions {
  private static final List<String> JDBC_OPTIONS = List.of("connector", "url", "table-name",
      "username", "password");
  private static final List<String> KAFKA_OPTIONS = List.of("connector", "topic",
      "properties.bootstrap.servers", "format", "properties.<any Kafka producer property>");

  private SinkOptions() {
  }

  /**
   * The target the options describe, if {@code policy} allows it: checked before anything is
   * connected.
   *
   * @param options keys as written; they are compared in lower case
   * @throws SQLException 42000 for an unknown, missing or wrong option; 0A000 for an unknown
   *     connector; 42501 for a URL or Kafka property the policy refuses
   */
  public static SinkSpec parse(String sink, Map<String, String> options, ConnectorPolicy policy)
      throws SQLException {
    Map<String, String> lower = new LinkedHashMap<>();
    options.forEach((k, v) -> lower.put(k.toLowerCase(Locale.ROOT), v));
    String connector = lower.get("connector");
    if (connector == null) {
      throw Errors.invalidDefinition("Sink " + sink + " needs option 'connector': 'jdbc' or"
          + " 'kafka'");
    }
    switch (connector.trim().toLowerCase(Locale.ROOT)) {
      case "jdbc":
        for (String key : lower.keySet()) {
          if (!JDBC_OPTIONS.contains(key)) {
            throw StreamErrors.unknownSinkOption(sink, "jdbc", key, JDBC_OPTIONS);
          }
        }
        String url = required(sink, lower, "url", "the database's JDBC URL");
        policy.checkJdbcUrl("Sink " + sink, url);
        return new JdbcSinkSpec(url, required(sink, lower, "table-name", "the table to write"),
            Optional.ofNullable(lower.get("username")),
            policy.jdbcPassword(Optional.ofNullable(lower.get("password"))));
      case "kafka":
        Map<String, String> properties = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : lower.entrySet()) {
          if (e.getKey().startsWith("properties.") && e.getKey().length() > 11) {
            properties.put(e.getKey().substring(11), e.getValue());
          } else if (!KAFKA_OPTIONS.contains(e.getKey())) {
            throw StreamErrors.unknownSinkOption(sink, "kafka", e.getKey(), KAFKA_OPTIONS);
          }
        }
        policy.checkKafkaProperties("Sink " + sink, properties);
        required(sink, lower, "properties.bootstrap.servers", "the brokers, such as"
            + " 'localhost:9092'");
        String format = lower.getOrDefault("format", "json");
        if (!format.trim().equalsIgnoreCase("json")) {
          throw StreamErrors.badSinkOption(sink, "format", format, "'json' (a Kafka sink"
              + " writes JSON)");
        }
        return new KafkaSinkSpec(required(sink, lower, "topic", "the topic to write"),
            properties);
      default:
        throw Errors.notSupported("Connector '" + connector + "' of sink " + sink + " is not"
            + " supported. Use 'jdbc' (a table of H2 or PostgreSQL) or 'kafka' (a topic)");
    }
  }

  private static String required(String sink, Map<String, String> options, String key,
      String what) throws SQLException {
    String value = options.get(key);
    if (value == null || value.isBlank()) {
      throw Errors.invalidDefinition("Sink " + sink + " needs option '" + key + "': " + what);
    }
    return value.trim();
  }
}
