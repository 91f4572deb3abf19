package dev.freshet.engine.sink;

/**
 * Where a sink writes, as its {@code WITH} options say: a {@link JdbcSinkSpec} or a
 * {@link KafkaSinkSpec}.
 *
 * <pre>{@code
 * SinkSpec spec = SinkOptions.parse("OUT", options, engine.security().connectors());
 * spec.connector();   // "jdbc"
 * spec.target();      // the table or topic
 * }</pre>
 */
public sealed interface SinkSpec permits JdbcSinkSpec, KafkaSinkSpec {
  /** The connector's name, as {@code connector = '...'} gives it. */
  String connector();

  /** The table or topic written. */
  String target();
}
