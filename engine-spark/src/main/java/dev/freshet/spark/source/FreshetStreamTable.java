package dev.freshet.spark.source;

import java.util.Locale;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
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
   * default parallelism), {@value FreshetSource#MIN_ROWS_PER_PARTITION_OPTION} and
   * {@value FreshetSource#READ_FROM_OPTION}.
   */
  @Override public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    int maxPartitions = options.containsKey(FreshetSource.MAX_PARTITIONS_OPTION)
        ? positive(options, FreshetSource.MAX_PARTITIONS_OPTION)
        : SparkSession.active().sparkContext().defaultParallelism();
    int minRows = options.containsKey(FreshetSource.MIN_ROWS_PER_PARTITION_OPTION)
        ? positive(options, FreshetSource.MIN_ROWS_PER_PARTITION_OPTION)
        : FreshetSource.DEFAULT_MIN_ROWS_PER_PARTITION;
    return new FreshetScan(entry.id(), entry.schema(), new RowSlicer(maxPartitions, minRows),
        readers(options));
  }

  /**
   * Where executors read the rows: the driver's memory when they share its JVM (local mode),
   * otherwise the stream's log in its data directory, unless the option says which.
   */
  private PartitionReaderFactory readers(CaseInsensitiveStringMap options) {
    String readFrom = options.containsKey(FreshetSource.READ_FROM_OPTION)
        ? options.get(FreshetSource.READ_FROM_OPTION).strip().toLowerCase(Locale.ROOT)
        : SparkSession.active().sparkContext().isLocal() ? FreshetSource.READ_FROM_MEMORY
        : FreshetSource.READ_FROM_LOG;
    switch (readFrom) {
    case FreshetSource.READ_FROM_MEMORY:
      return new RowSliceReaderFactory(entry.schema());
    case FreshetSource.READ_FROM_LOG:
      String directory = entry.stream().directory()
          .orElseThrow(() -> SourceErrors.notDurable(entry.name()))
          .toAbsolutePath().toString();
      return new StreamLogReaderFactory(entry.name(), directory, entry.schema());
    default:
      throw SourceErrors.badChoice(FreshetSource.READ_FROM_OPTION,
          options.get(FreshetSource.READ_FROM_OPTION),
          "'" + FreshetSource.READ_FROM_MEMORY + "' or '" + FreshetSource.READ_FROM_LOG + "'");
    }
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
