package dev.freshet.spark;

import java.util.List;
import org.apache.spark.sql.Row;

/**
 * Receives each micro-batch's output of a continuous query on Spark, in the driver (Freshet's
 * JVM). A batch Spark retries after a failure arrives again with the same id: apply a batch only
 * if its id is above the last one applied.
 *
 * <pre>{@code
 * BatchConsumer toView = (batchId, rows) -> view.apply(batchId, rows);
 * }</pre>
 */
@FunctionalInterface
public interface BatchConsumer {
  /** Takes the rows batch {@code batchId} emitted (in the query's output mode). */
  void accept(long batchId, List<Row> rows) throws Exception;
}
