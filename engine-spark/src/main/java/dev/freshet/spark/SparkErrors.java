package dev.freshet.spark;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import java.sql.SQLException;
import org.apache.spark.SparkThrowable;

/**
 * The errors of running a continuous query on Spark, each with Freshet's SQLSTATE, what is wrong
 * and how to fix it.
 *
 * <pre>{@code
 * throw SparkErrors.notYetOnSpark("A join of two streams");
 * }</pre>
 */
final class SparkErrors {
  /** Spark's error condition of {@code raise_error}. */
  private static final String RAISED = "USER_RAISED_EXCEPTION";

  private SparkErrors() {
  }

  /** A construct Freshet runs on its own executor and not yet on Spark (0A000). */
  static SQLException notYetOnSpark(String construct) {
    return Errors.of(SqlState.FEATURE_NOT_SUPPORTED, construct + " is not yet on Spark: run it on"
        + " Freshet's own executor");
  }

  /** A construct not yet on Spark; {@code fix} says what to write instead (0A000). */
  static SQLException notYetOnSpark(String construct, String fix) {
    return Errors.of(SqlState.FEATURE_NOT_SUPPORTED, construct + " is not yet on Spark: " + fix);
  }

  /** A construct that Spark does not run on a stream; {@code fix} says what to write (0A000). */
  static SQLException notOnSpark(String construct, String fix) {
    return Errors.of(SqlState.FEATURE_NOT_SUPPORTED, construct + " is not supported on a stream"
        + " by Spark. " + fix);
  }

  /**
   * A batch failed on Spark: the SQLSTATE is Spark's where Freshet has the same (22012 for a
   * division by zero, 22003 for an overflow), else its class's (22000 for data), else HY000. A
   * Kafka record that is not a row is 22000 with the message that names it.
   */
  static SQLException batchFailed(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SQLException freshet) {
        // Freshet's own error, e.g. a view's result that could not take the batch.
        return freshet;
      }
    }
    String notARow = recordNotARow(failure);
    if (notARow != null) {
      return Errors.of(SqlState.DATA_EXCEPTION, notARow + ". Fix or remove the record (on Spark"
          + " the query cannot skip it), then start the query again", failure);
    }
    // The failure wraps Spark's error of the task (StreamingQueryException has its own state):
    // the first state along the causes that Freshet knows wins.
    SqlState state = null;
    boolean data = false;
    for (Throwable t = failure; t != null && state == null; t = t.getCause()) {
      String sparkState = t instanceof SparkThrowable spark ? spark.getSqlState() : null;
      for (SqlState candidate : SqlState.values()) {
        if (candidate.code().equals(sparkState)) {
          state = candidate;
        }
      }
      data |= sparkState != null && sparkState.startsWith("22");
    }
    if (state == null) {
      state = data ? SqlState.DATA_EXCEPTION : SqlState.GENERAL_ERROR;
    }
    Throwable reason = failure.getCause() != null ? failure.getCause() : failure;
    return Errors.of(state, "The continuous query failed on Spark: " + reason.getMessage()
        + ". Fix the data or the query and start it again", failure);
  }

  /**
   * The message of {@code raise_error} along the causes of {@code failure}, which the translation
   * raises only for a Kafka record that is not a row ({@link KafkaRecordColumns}); else null.
   */
  private static String recordNotARow(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SparkThrowable spark && RAISED.equals(spark.getCondition())) {
        return spark.getMessageParameters().get("errorMessage");
      }
    }
    return null;
  }

  /** Spark refused a translated query when it started it; its reason is the cause (42KDE). */
  static SQLException refusedBySpark(Throwable cause) {
    return Errors.of(SqlState.NOT_VALID_ON_STREAM, "Spark cannot run this continuous query: "
        + cause.getMessage() + ". Run it on Freshet's own executor", cause);
  }
}
