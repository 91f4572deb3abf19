package dev.freshet.connectors.sink;

/**
 * Where a sink writes, as its {@code WITH} options say: each connector's spec (the JDBC
 * connector's {@code JdbcSinkSpec}, the Kafka connector's {@code KafkaSinkSpec}).
 *
 * <pre>{@code
 * SinkSpec spec = SinkOptions.parse("OUT", options, engine.security().connectors());   // engine
 * spec.connector();   // "jdbc"
 * spec.target();      // the table or topic
 * }</pre>
 */
public interface SinkSpec {
  /** The connector's name, as {@code connector = '...'} gives it. */
  String connector();

  /** The table or topic written. */
  String target();
}
