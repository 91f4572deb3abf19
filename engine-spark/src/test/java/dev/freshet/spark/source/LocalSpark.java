package dev.freshet.spark.source;

import dev.freshet.spark.LocalSparkSession;
import org.apache.spark.sql.SparkSession;

/**
 * The SparkSession of a test class: the JVM's shared local one ({@link LocalSparkSession}: two
 * executor threads in this JVM, no UI, loopback only, two shuffle partitions, UTC), with java.time
 * values in collected rows until the class {@link #release releases} it.
 */
final class LocalSpark {
  /** Read by the encoder of collected rows from the thread's active session, not the query's. */
  private static final String JAVA_TIME = "spark.sql.datetime.java8API.enabled";

  private LocalSpark() {
  }

  static SparkSession start() {
    SparkSession spark = LocalSparkSession.get();
    spark.conf().set(JAVA_TIME, "true");
    return spark;
  }

  /** Gives the shared session back as the class found it. */
  static void release(SparkSession spark) {
    spark.conf().unset(JAVA_TIME);
  }
}
