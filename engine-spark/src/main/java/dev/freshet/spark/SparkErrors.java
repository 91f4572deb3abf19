package dev.freshet.spark;

import dev.freshet.engine.errors.Errors;
import dev.freshet.planner.errors.SqlState;
import java.sql.SQLException;

/**
 * The errors of running a continuous query on Spark, each with Freshet's SQLSTATE, what is wrong
 * and how to fix it.
 *
 * <pre>{@code
 * throw SparkErrors.notYetOnSpark("A join of two streams");
 * }</pre>
 */
final class SparkErrors {
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

  /** Spark refused a translated query when it started it; its reason is the cause (42KDE). */
  static SQLException refusedBySpark(Throwable cause) {
    return Errors.of(SqlState.NOT_VALID_ON_STREAM, "Spark cannot run this continuous query: "
        + cause.getMessage() + ". Run it on Freshet's own executor", cause);
  }
}
