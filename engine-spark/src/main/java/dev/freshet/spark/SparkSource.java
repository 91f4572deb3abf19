package dev.freshet.spark;

import static java.util.Objects.requireNonNull;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * A Freshet stream as a Spark streaming Dataset with the stream's columns by name, as
 * {@link SparkPlanTranslator} reads it, until closed.
 *
 * <pre>{@code
 * try (SparkSource clicks = SparkSources.of(spark, catalog.stream("CLICKS").orElseThrow())) {
 *   SparkQuery query = new SparkPlanTranslator(Map.of("CLICKS", clicks.rows())).translate(plan);
 *   ...
 * }
 * }</pre>
 *
 * <p>Close it when no query reads the stream any more: a stream fed by INSERT stays registered
 * for Spark's readers until then; a Kafka stream holds nothing.
 */
public final class SparkSource implements AutoCloseable {
  private final String name;
  private final Dataset<Row> rows;
  private final Runnable release;

  SparkSource(String name, Dataset<Row> rows, Runnable release) {
    this.name = requireNonNull(name, "name");
    this.rows = requireNonNull(rows, "rows");
    this.release = requireNonNull(release, "release");
  }

  /** The stream's name, the key of the translator's sources. */
  public String name() {
    return name;
  }

  /** The stream's rows as a streaming Dataset. */
  public Dataset<Row> rows() {
    return rows;
  }

  /** Releases what reading the stream holds; idempotent. */
  @Override public void close() {
    release.run();
  }

  @Override public String toString() {
    return "SparkSource[" + name + "]";
  }
}
