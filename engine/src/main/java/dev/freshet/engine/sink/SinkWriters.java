package dev.freshet.engine.sink;

import dev.freshet.connectors.jdbc.JdbcSinkSpec;
import dev.freshet.connectors.jdbc.JdbcSinkWriter;
import dev.freshet.connectors.kafka.KafkaSinkSpec;
import dev.freshet.connectors.kafka.KafkaSinkWriter;
import dev.freshet.connectors.sink.SinkLayout;
import dev.freshet.connectors.sink.SinkSpec;
import dev.freshet.connectors.sink.SinkWriter;
import java.sql.SQLException;

/**
 * Opens the writer of a sink's target, by its connector: the JDBC connector's
 * {@link JdbcSinkWriter} or the Kafka connector's {@link KafkaSinkWriter}.
 *
 * <pre>{@code
 * SinkWriter writer = SinkWriters.open("OUT", queryId, spec, layout);
 * }</pre>
 */
public final class SinkWriters {
  private SinkWriters() {
  }

  /**
   * Connects to the target of {@code spec} and prepares it (tables, the batch record).
   *
   * @throws SQLException if it cannot be reached or cannot take the result
   */
  public static SinkWriter open(String sink, String queryId, SinkSpec spec, SinkLayout layout)
      throws SQLException {
    if (spec instanceof JdbcSinkSpec jdbc) {
      return JdbcSinkWriter.open(sink, queryId, jdbc, layout);
    }
    return KafkaSinkWriter.open(sink, queryId, (KafkaSinkSpec) spec, layout);
  }
}
