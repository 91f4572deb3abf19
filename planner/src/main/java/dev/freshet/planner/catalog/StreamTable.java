package dev.freshet.planner.catalog;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.source.MemoryStream;
import dev.freshet.executor.source.Source;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelProtoDataType;
import org.apache.calcite.schema.impl.AbstractTable;

/**
 * A declared stream as Calcite sees it: a table whose scan the streaming rules plan as an
 * unbounded, replayable source.
 *
 * <p>Streams are not Calcite {@code StreamableTable}s on purpose: that route makes the validator
 * demand a monotonic GROUP BY key, which update-mode aggregation does not need. The planner
 * recognizes a stream by {@code scan.getTable().unwrap(StreamTable.class)}.
 *
 * <p>Its rows come from a {@link Source}: a {@link MemoryStream} for {@code connector = 'memory'}
 * (rows arrive by INSERT, and may be kept in the data directory), a
 * {@link dev.freshet.executor.source.SequenceSource} for {@code connector = 'sequence'}. Code that
 * needs a memory stream (INSERT, closing and deleting its files) asks {@link #memoryStream()}.
 *
 * <pre>{@code
 * StreamTable clicks = catalog.stream("CLICKS").orElseThrow();
 * clicks.source().latestOffset();                           // any stream
 * clicks.memoryStream().ifPresent(m -> m.addData(rows));   // only one that takes INSERTs
 * }</pre>
 *
 * <p>A continuous query that reads a materialized view reads the view's changes as a stream of
 * this kind too: a {@link ViewChangelog}.
 */
public class StreamTable extends AbstractTable {
  /** The {@code WITH} option that names the stream's connector. */
  public static final String CONNECTOR_OPTION = "connector";
  /** The connector of a stream whose options name none: rows come by INSERT. */
  public static final String DEFAULT_CONNECTOR = "memory";

  private final String name;
  private final RelProtoDataType rowType;
  private final Optional<WatermarkSpec> watermark;
  private final Map<String, String> options;
  private final Source source;

  /**
   * Creates a stream table.
   *
   * @param name stream name as stored in the catalog
   * @param rowType column names and types
   * @param watermark the declared watermark, if any
   * @param options the {@code WITH (...)} options
   * @param source where its rows come from
   */
  public StreamTable(String name, RelProtoDataType rowType, Optional<WatermarkSpec> watermark,
      Map<String, String> options, Source source) {
    this.name = requireNonNull(name, "name");
    this.rowType = requireNonNull(rowType, "rowType");
    this.watermark = requireNonNull(watermark, "watermark");
    this.options = Map.copyOf(options);
    this.source = requireNonNull(source, "source");
  }

  @Override public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    return rowType.apply(typeFactory);
  }

  /** The stream's name. */
  public String name() {
    return name;
  }

  /** The declared watermark. */
  public Optional<WatermarkSpec> watermark() {
    return watermark;
  }

  /** The {@code WITH} options, e.g. {@code connector -> memory}. */
  public Map<String, String> options() {
    return options;
  }

  /** The connector the stream was declared with, in lower case, e.g. {@code memory}. */
  public String connector() {
    return options.getOrDefault(CONNECTOR_OPTION, DEFAULT_CONNECTOR)
        .toLowerCase(java.util.Locale.ROOT);
  }

  /** The rows of the stream. */
  public Source source() {
    return source;
  }

  /**
   * The memory stream that holds the rows, for a stream whose rows arrive by INSERT; empty for a
   * stream that generates its rows. The one place that tells the two apart.
   */
  public Optional<MemoryStream> memoryStream() {
    return source instanceof MemoryStream memory ? Optional.of(memory) : Optional.empty();
  }
}
