package dev.freshet.spark.source;

import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A registered Freshet stream as Spark's table: readable in micro-batches only.
 *
 * <pre>{@code
 * ScanBuilder scan = new FreshetStreamTable(entry).newScanBuilder(options);
 * }</pre>
 */
final class FreshetStreamTable implements SupportsRead {
  private final RegisteredStreams.Entry entry;

  FreshetStreamTable(RegisteredStreams.Entry entry) {
    this.entry = entry;
  }

  @Override public String name() {
    return entry.id();
  }

  @Override @SuppressWarnings("deprecation") public StructType schema() {
    return entry.schema();
  }

  @Override public Set<TableCapability> capabilities() {
    return Set.of(TableCapability.MICRO_BATCH_READ);
  }

  /**
   * The scan, with options {@value FreshetSource#MAX_PARTITIONS_OPTION} (default: Spark's
   * default parallelism) and {@value FreshetSource#MIN_ROWS_PER_PARTITION_OPTION}.
   */
  @Override public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    int maxPartitions = options.containsKey(FreshetSource.MAX_PARTITIONS_OPTION)
        ? positive(options, FreshetSource.MAX_PARTITIONS_OPTION)
        : SparkSession.active().sparkContext().defaultParallelism();
    int minRows = options.containsKey(FreshetSource.MIN_ROWS_PER_PARTITION_OPTION)
        ? positive(options, FreshetSource.MIN_ROWS_PER_PARTITION_OPTION)
        : FreshetSource.DEFAULT_MIN_ROWS_PER_PARTITION;
    return new FreshetScan(entry.id(), entry.schema(), new RowSlicer(maxPartitions, minRows));
  }

  private static int positive(CaseInsensitiveStringMap options, String option) {
    String value = options.get(option);
    try {
      int number = Integer.parseInt(value.strip());
      if (number > 0) {
        return number;
      }
    } catch (NumberFormatException e) {
      // Reported below, with the option's name.
    }
    throw SourceErrors.badOption(option, value);
  }
}
