package dev.freshet.spark;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.operators.OutputMode;
import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * A continuous query translated for Spark: its result as a streaming Dataset whose columns are
 * the query's (names and types), and the output mode it runs in.
 *
 * <pre>{@code
 * SparkQuery q = new SparkPlanTranslator(sources).translate(planner.planWindowed(sql, null, n));
 * q.result().writeStream().outputMode(q.sparkOutputMode()) ...
 * }</pre>
 *
 * @param result the query's rows
 * @param outputMode what each batch emits
 */
public record SparkQuery(Dataset<Row> result, OutputMode outputMode) {
  public SparkQuery {
    requireNonNull(result, "result");
    requireNonNull(outputMode, "outputMode");
  }

  /** The output mode as {@code DataStreamWriter.outputMode} names it: update, append, complete. */
  public String sparkOutputMode() {
    return outputMode.name().toLowerCase(Locale.ROOT);
  }
}
