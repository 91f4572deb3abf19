package dev.freshet.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import dev.freshet.planner.logical.LogicalPlan.Deduplicate;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * Translates a {@link Deduplicate} ({@code ROW_NUMBER() OVER (PARTITION BY keys [ORDER BY
 * col]) ... = 1}) into Spark's streaming deduplication, as docs/sql.md "Deduplication" maps it:
 * ordered by the stream's watermark column, {@code dropDuplicatesWithinWatermark(keys)}, whose
 * keys expire at their first row's event time plus the watermark's delay; otherwise
 * {@code dropDuplicates(keys)}, whose state the watermark evicts if a key is the watermark column,
 * and which keeps every key forever if none is.
 *
 * <pre>{@code
 * // PARTITION BY id ORDER BY ts (ts the watermark column): rows.dropDuplicatesWithinWatermark(id)
 * Frame deduplicated = DeduplicationTranslator.translate(dedup, input, names);
 * }</pre>
 *
 * <p>One difference stays, by Spark's design: among one batch's rows of a new key Spark keeps the
 * first its shuffle delivers (the first to arrive, in local mode), where Freshet's own executor
 * keeps the least {@code ORDER BY} value. Spark has no per-batch operator that could pick that row
 * before its deduplication (a streaming aggregation keeps state across batches, and Spark
 * refuses a sort, even {@code sortWithinPartitions}, on a stream), so the difference is
 * documented in docs/sql.md rather than emulated.
 */
final class DeduplicationTranslator {
  private DeduplicationTranslator() {
  }

  /**
   * The rows of {@code input} that {@code dedup} keeps.
   *
   * @param names gives column names not yet used in the translation
   */
  static Frame translate(Deduplicate dedup, Frame input, Supplier<String> names)
      throws SQLException {
    if (input.window() != null) {
      // Spark would deduplicate the window's start or end without the struct's watermark.
      throw SparkErrors.notYetOnSpark("Deduplication of a window's rows",
          "deduplicate the stream's rows before the window, or run the query on Freshet's own"
              + " executor");
    }
    // Spark deduplicates by column name: each column gets one, computed once (an alias keeps
    // Spark's watermark mark, by which it finds the event time whose late rows it drops and whose
    // watermark evicts keys).
    Frame named = input.materialized(names);
    String[] columnNames = named.dataset().columns();
    List<String> keys = new ArrayList<>();
    for (int key : dedup.keys()) {
      keys.add(columnNames[key]);
    }
    Dataset<Row> rows = named.dataset();
    if (keys.isEmpty()) {
      // PARTITION BY nothing: the stream's first row. Spark's streaming deduplication without
      // keys fails its batch ("expressions for hash of a StatefulOpClusteredDistribution should
      // not be Nil"), so one constant key stands for them.
      String constant = names.get();
      rows = rows.withColumn(constant, lit(0));
      keys.add(constant);
    }
    String[] keyArray = keys.toArray(new String[0]);
    boolean withinWatermark = dedup.orderIndex() >= 0
        && dedup.expiryIndex() == dedup.orderIndex();
    Dataset<Row> deduplicated = withinWatermark
        ? rows.dropDuplicatesWithinWatermark(keyArray)
        : rows.dropDuplicates(keyArray);
    return new Frame(deduplicated, named.columns(), named.windowParts(), null);
  }
}
