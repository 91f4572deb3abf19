package dev.freshet.connectors.sink;

import dev.freshet.executor.runtime.Sink;
import java.sql.SQLException;
import java.util.List;

/**
 * The sink a {@code CREATE SINK}'s query writes into: each batch's rows go to the target through
 * its {@link SinkWriter}, exactly once; a failure of the target fails the batch, which is not
 * committed, so that the next run writes it again. When the query restarts after a recoverable
 * error the writer is opened anew, since its connections (or a Kafka producer after an error)
 * may be unusable.
 *
 * <pre>{@code
 * MicroBatchExecution.builder(id, name, pipeline, new ExternalSink("JdbcSink[totals]", writer,
 *     () -> JdbcSinkWriter.open("OUT", queryId, spec, layout))).build();
 * }</pre>
 */
public final class ExternalSink implements Sink {
  /** Opens a sink's writer again, as when it was created. */
  @FunctionalInterface
  public interface Reopen {
    /** A new writer of the same target; fails as the writer's own {@code open} does. */
    SinkWriter open() throws SQLException;
  }

  private final String description;
  /** Null for a sink whose writer is kept across restarts. */
  private final Reopen reopen;
  /** The current writer; null between a restart's close and a successful open. */
  private SinkWriter writer;

  /** A sink of {@code writer}, described as {@code description} in progress; never reopened. */
  public ExternalSink(String description, SinkWriter writer) {
    this(description, writer, null);
  }

  /**
   * A sink of {@code writer}, described as {@code description} in progress, that
   * {@link #restart()} replaces with one {@code reopen} opens (null: kept across restarts).
   */
  public ExternalSink(String description, SinkWriter writer, Reopen reopen) {
    this.description = description;
    this.writer = writer;
    this.reopen = reopen;
  }

  @Override public void addBatch(long batchId, List<Object[]> rows) {
    writer.write(batchId, rows);
  }

  @Override public String description() {
    return description;
  }

  /**
   * Closes the writer and opens a new one.
   *
   * @throws SinkException if the target cannot be reached or refuses the connection: the
   *     restart attempt failed
   */
  @Override public void restart() {
    if (reopen == null) {
      return;
    }
    SinkWriter old = writer;
    writer = null;
    if (old != null) {
      old.close();
    }
    try {
      writer = reopen.open();
    } catch (SQLException e) {
      throw new SinkException(description + " cannot connect again: " + e.getMessage()
          + ". Check that the target is up and the sink's options ('url', 'username',"
          + " 'password'); the query retries by itself up to 'restart.max-attempts' times", e);
    }
  }

  @Override public void queryTerminated(Throwable error) {
    if (writer != null) {
      writer.close();
    }
  }
}
