package dev.freshet.spark.source;

import org.apache.spark.sql.SparkSession;

/**
 * The local SparkSession of a test class: two executor threads in this JVM, no UI, loopback
 * only, two shuffle partitions; java.time values in collected rows, UTC.
 */
final class LocalSpark {
  private LocalSpark() {
  }

  static SparkSession start(Class<?> testClass) {
    return SparkSession.builder()
        .master("local[2]")
        .appName(testClass.getSimpleName())
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.datetime.java8API.enabled", "true")
        .getOrCreate();
  }
}
