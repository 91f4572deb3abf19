package dev.freshet.spark;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.operators.OutputMode;
import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * A continuous query translated for Spark: its result as a streaming Dataset whose columns are
 * the query's (names and types), and the output mode it runs in. A keyed result
 * ({@code SparkPlanTranslator.translate(query, true)}) has {@link #keyColumns()} group-key
 * columns and a BOOLEAN "admitted" column after the query's columns.
 *
 * <pre>{@code
 * SparkQuery q = new SparkPlanTranslator(sources).translate(job.query());
 * q.result().writeStream().outputMode(q.sparkOutputMode()) ...
 * }</pre>
 *
 * @param result the query's rows
 * @param outputMode what each batch emits
 * @param keyed whether each row ends with the group's key and whether the group is admitted
 * @param keyColumns how many key columns follow the query's columns (0 unless keyed)
 */
public record SparkQuery(Dataset<Row> result, OutputMode outputMode, boolean keyed,
    int keyColumns) {
  public SparkQuery {
    requireNonNull(result, "result");
    requireNonNull(outputMode, "outputMode");
    if (keyColumns < 0 || (!keyed && keyColumns != 0)) {
      throw new IllegalArgumentException("keyed " + keyed + " with " + keyColumns
          + " key columns");
    }
  }

  /** A result that is not keyed: the query's columns only. */
  public SparkQuery(Dataset<Row> result, OutputMode outputMode) {
    this(result, outputMode, false, 0);
  }

  /** The output mode as {@code DataStreamWriter.outputMode} names it: update, append, complete. */
  public String sparkOutputMode() {
    return outputMode.name().toLowerCase(Locale.ROOT);
  }
}
