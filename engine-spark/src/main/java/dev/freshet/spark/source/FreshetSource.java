package dev.freshet.spark.source;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.source.MemoryStream;
import dev.freshet.executor.source.StreamColumn;
import dev.freshet.planner.logical.LogicalField;
import dev.freshet.planner.logical.LogicalStream;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Entry point of the Freshet source: registers a stream whose rows arrive by INSERT so that
 * Spark reads it as {@code spark.readStream().format("freshet").option("stream", id)}.
 *
 * <pre>{@code
 * StreamRegistration clicks = FreshetSource.register(query.sources().get(0));   // CLICKS
 * Dataset<Row> rows = clicks.readStream(spark);
 * }</pre>
 *
 * <p>Spark's offsets are the stream's offsets (one per INSERT statement), fixed in the query's
 * offset log before each batch runs, so a batch replayed after a crash reads the same rows.
 * The driver always reads the offsets from its registered stream. Executors read the rows from
 * the driver's memory ({@link RegisteredStreams}) when they run in its JVM (local mode), or
 * from a durable stream's log in its data directory, which must then be on storage that they
 * share ({@value #READ_FROM_OPTION}).
 */
public final class FreshetSource {
  /** The connector of the streams it reads: rows by INSERT. */
  public static final String CONNECTOR = "memory";
  /** The source's short name, for {@code readStream().format(...)}. */
  public static final String FORMAT = "freshet";
  /** The option naming the stream: a {@link StreamRegistration#id()}. */
  public static final String STREAM_OPTION = "stream";
  /**
   * The option bounding the input partitions of one batch; by default Spark's default
   * parallelism.
   */
  public static final String MAX_PARTITIONS_OPTION = "maxPartitions";
  /**
   * The option giving the fewest rows worth a partition of their own; by default
   * {@value #DEFAULT_MIN_ROWS_PER_PARTITION}.
   */
  public static final String MIN_ROWS_PER_PARTITION_OPTION = "minRowsPerPartition";
  /**
   * The option saying where executors read the rows: {@value #READ_FROM_MEMORY} (the driver's
   * stream; local mode only) or {@value #READ_FROM_LOG} (a durable stream's log in its data
   * directory, which the executors must share). By default memory with a local master, the
   * log otherwise.
   */
  public static final String READ_FROM_OPTION = "readFrom";
  /** {@value #READ_FROM_OPTION}: the driver's memory. */
  public static final String READ_FROM_MEMORY = "memory";
  /** {@value #READ_FROM_OPTION}: the stream's log in its data directory. */
  public static final String READ_FROM_LOG = "log";
  /** Below this many rows a task costs more than it reads. */
  public static final int DEFAULT_MIN_ROWS_PER_PARTITION = 4096;

  private FreshetSource() {
  }

  /**
   * Registers the query's stream {@code table}.
   *
   * @throws SQLException 42809 if its rows do not arrive by INSERT (connector other than
   *     {@code memory}), 0A000 if a column's type has no Spark counterpart here
   */
  public static StreamRegistration register(LogicalStream table) throws SQLException {
    Optional<MemoryStream> memory = table.memoryStream();
    if (memory.isEmpty()) {
      throw SourceErrors.notAMemoryStream(table.name(), table.connector());
    }
    List<StreamColumn> columns = new ArrayList<>();
    for (LogicalField field : table.columns()) {
      // Spelled as a stream's metadata file records it (StreamDdl.typeName).
      columns.add(new StreamColumn(field.name(),
          field.type().name() + (field.type().nullable() ? "" : " NOT NULL")));
    }
    return register(table.name(), memory.get(), columns);
  }

  /**
   * Registers {@code stream}, whose rows have {@code columns}.
   *
   * @throws SQLException 0A000 if a column's type has no Spark counterpart here
   */
  public static StreamRegistration register(String name, MemoryStream stream,
      List<StreamColumn> columns) throws SQLException {
    requireNonNull(name, "name");
    requireNonNull(stream, "stream");
    return new StreamRegistration(RegisteredStreams.add(name, stream,
        StreamSchema.of(name, columns)));
  }
}
