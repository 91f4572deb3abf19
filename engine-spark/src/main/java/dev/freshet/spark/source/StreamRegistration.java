package dev.freshet.spark.source;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * A Freshet stream registered for Spark to read, until closed; its {@link #id} is the value of
 * the source's {@value FreshetSource#STREAM_OPTION} option.
 *
 * <pre>{@code
 * try (StreamRegistration clicks = FreshetSource.register(streamTable)) {
 *   Dataset<Row> rows = clicks.readStream(spark);   // format("freshet").option("stream", id)
 *   StreamingQuery query = rows.groupBy("USER_ID").count().writeStream()...start();
 *   ...
 *   query.stop();
 * }
 * }</pre>
 *
 * <p>Keep it open while a query reads it: a batch planned or read after {@link #close} fails
 * with SQLSTATE 42S02. Closing does not touch the stream itself. A query restarted from its
 * checkpoint may read the stream through a new registration: Spark's offset log holds the
 * stream's offsets, not the registration.
 */
public final class StreamRegistration implements AutoCloseable {
  private final RegisteredStreams.Entry entry;

  StreamRegistration(RegisteredStreams.Entry entry) {
    this.entry = entry;
  }

  /** The registration's id, e.g. {@code CLICKS#3}, unique in this JVM. */
  public String id() {
    return entry.id();
  }

  /** The stream's name. */
  public String name() {
    return entry.name();
  }

  /** The stream's columns as Spark sees them. */
  public StructType schema() {
    return entry.schema();
  }

  /** The stream as a streaming Dataset of {@code spark}. */
  public Dataset<Row> readStream(SparkSession spark) {
    return spark.readStream().format(FreshetSource.FORMAT)
        .option(FreshetSource.STREAM_OPTION, id()).load();
  }

  /** Unregisters the stream; idempotent. */
  @Override public void close() {
    RegisteredStreams.remove(entry.id());
  }

  @Override public String toString() {
    return "StreamRegistration[" + id() + "]";
  }
}
