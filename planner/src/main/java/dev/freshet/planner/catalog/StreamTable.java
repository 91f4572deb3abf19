package dev.freshet.planner.catalog;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.source.MemoryStream;
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
 */
public final class StreamTable extends AbstractTable {
  private final String name;
  private final RelProtoDataType rowType;
  private final Optional<WatermarkSpec> watermark;
  private final Map<String, String> options;
  private final MemoryStream source;

  /**
   * Creates a stream table.
   *
   * @param name stream name as stored in the catalog
   * @param rowType column names and types
   * @param watermark the declared watermark, if any
   * @param options the {@code WITH (...)} options
   * @param source where its rows are kept
   */
  public StreamTable(String name, RelProtoDataType rowType, Optional<WatermarkSpec> watermark,
      Map<String, String> options, MemoryStream source) {
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

  /** The rows of the stream. */
  public MemoryStream source() {
    return source;
  }
}
