package dev.freshet.engine.sink;

import java.sql.SQLException;

/**
 * Opens the writer of a sink's target.
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
