package dev.freshet.spark.source;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import dev.freshet.executor.source.StreamLogException;
import java.nio.file.Path;
import java.sql.SQLException;

/**
 * The errors of the Freshet source: what is wrong, naming the stream, and how to fix it.
 *
 * <pre>{@code
 * throw SourceErrors.notAMemoryStream("NUMS", "sequence");   // SQLSTATE 42809
 * }</pre>
 */
final class SourceErrors {
  private SourceErrors() {
  }

  /** A stream whose rows do not come by INSERT: it has no Spark source yet. */
  static SQLException notAMemoryStream(String stream, String connector) {
    return Errors.of(SqlState.WRONG_OBJECT_TYPE, "Stream '" + stream + "' cannot be read on"
        + " Spark: its rows come from connector '" + connector + "', and only a stream declared"
        + " WITH (connector = 'memory') has a Spark source. Run the query on Freshet's own"
        + " executor, or read a memory stream");
  }

  /** A column whose type has no Spark counterpart in this source. */
  static SQLException unsupportedType(String stream, String column, String type) {
    return Errors.of(SqlState.FEATURE_NOT_SUPPORTED, "Column " + column + " of stream '"
        + stream + "' is " + type + ", which the Spark source cannot read yet. Use a character,"
        + " integer, BIGINT, DOUBLE, DECIMAL, BOOLEAN, DATE or TIMESTAMP column");
  }

  /** A {@code readStream} whose options do not name a registered stream. */
  static FreshetSourceException missingOption(String option) {
    return new FreshetSourceException(Errors.of(SqlState.SYNTAX_ERROR, "The Freshet source"
        + " needs option '" + option + "': read it with FreshetSource.register(stream)"
        + ".readStream(spark), or pass option '" + option + "' = the registration's id()"));
  }

  /** A registration id that this JVM does not hold (closed, or read from another JVM). */
  static FreshetSourceException notRegistered(String id) {
    return new FreshetSourceException(Errors.of(SqlState.OBJECT_NOT_FOUND, "No Freshet stream"
        + " is registered as '" + id + "' in this JVM. Register the stream in the driver with"
        + " FreshetSource.register(...) and keep the registration open while the query runs;"
        + " the registry is per JVM, so the source runs with a local master (local[n]) only"));
  }

  /** A batch that ends beyond the stream's rows: the checkpoint is not this stream's. */
  static FreshetSourceException offsetBeyondStream(String stream, long offset, long latest) {
    return new FreshetSourceException(Errors.of(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
        "The checkpoint asks stream '" + stream + "' for its rows up to offset " + offset
        + ", but the stream's latest offset is " + latest + ": the stream was dropped and"
        + " created again, or lost rows it kept in memory only. Start the query with a new"
        + " checkpoint location"));
  }

  /** An offset in Spark's offset log that this source did not write. */
  static FreshetSourceException badOffset(String stream, String json) {
    return new FreshetSourceException(Errors.of(SqlState.DATA_CORRUPTED, "The checkpoint's"
        + " offset for stream '" + stream + "' is " + json + ", not {\"offset\":<n>} with n >= 0:"
        + " the checkpoint location belongs to another query or source. Start the query with a"
        + " new checkpoint location"));
  }

  /** An option whose value is not a positive integer. */
  static FreshetSourceException badOption(String option, String value) {
    return new FreshetSourceException(Errors.of(SqlState.INVALID_PARAMETER_VALUE, "Option '"
        + option + "' of the Freshet source is '" + value + "'; it must be a positive integer,"
        + " e.g. '4'"));
  }

  /** A stream kept in memory only, which a cluster's executors cannot read. */
  static FreshetSourceException notDurable(String stream) {
    return new FreshetSourceException(Errors.of(SqlState.FEATURE_NOT_SUPPORTED, "Stream '"
        + stream + "' keeps its rows in the driver's memory only, so executors outside the"
        + " driver's JVM cannot read it. Start Freshet with a data directory on storage that"
        + " the executors share, or run Spark with a local master (local[n])"));
  }

  /** A value of option {@code option} that is none of {@code valid}. */
  static FreshetSourceException badChoice(String option, String value, String valid) {
    return new FreshetSourceException(Errors.of(SqlState.INVALID_PARAMETER_VALUE, "Option '"
        + option + "' of the Freshet source is '" + value + "'; it must be one of " + valid));
  }

  /**
   * A read of a stream's log up to {@code end} that failed: a log that is not acknowledged up
   * to it (storage not shared, 58030), offsets retention deleted (58030), a damaged record
   * (XX001) or a file system failure (58030).
   */
  static FreshetSourceException logFailed(String stream, long end, StreamLogException e) {
    switch (e.code()) {
    case NOT_ACKNOWLEDGED:
      return logTooShort(stream, e.file(), end, e);
    case DELETED:
      return new FreshetSourceException(Errors.of(SqlState.IO_ERROR, "Stream '" + stream
          + "' on Spark: " + e.getMessage() + ". On Spark, start the query with a new"
          + " checkpoint location", e));
    case CORRUPT:
    case UNSUPPORTED_VERSION:
      return new FreshetSourceException(Errors.of(SqlState.DATA_CORRUPTED, "The log of stream '"
          + stream + "' cannot be read: " + e.getMessage(), e));
    default:
      return new FreshetSourceException(Errors.of(SqlState.IO_ERROR, "Cannot read the log "
          + e.file() + " of stream '" + stream + "': " + e.getMessage() + ". Check that the"
          + " executors can read the driver's data directory", e));
    }
  }

  /** A stream's log that ends before an offset the driver planned (storage not shared?). */
  private static FreshetSourceException logTooShort(String stream, Path file, long offset,
      Throwable cause) {
    return new FreshetSourceException(Errors.of(SqlState.IO_ERROR, "The log " + file + " of"
        + " stream '" + stream + "' ends before offset " + offset + ", which the driver has"
        + " acknowledged: the executor does not see the driver's data directory. Put the data"
        + " directory on storage that the driver and the executors share", cause));
  }
}
