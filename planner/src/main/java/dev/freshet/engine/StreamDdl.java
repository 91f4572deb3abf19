package dev.freshet.engine;

import dev.freshet.executor.source.MemoryStream;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.PlannerErrors;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.ViewTable;
import dev.freshet.planner.catalog.WatermarkSpec;
import dev.freshet.sql.parser.SqlCreateStream;
import dev.freshet.sql.parser.SqlDropStream;
import dev.freshet.sql.parser.SqlWatermark;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeImpl;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.calcite.sql.parser.SqlParserUtil;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Executes {@code CREATE STREAM} and {@code DROP STREAM}; callers hold the engine's DDL lock.
 *
 * <p>A stream's name must not be taken by a materialized view, and a stream that a view reads
 * cannot be dropped (SQLSTATE {@code 2BP01}) until the view is.
 */
final class StreamDdl {
  /** Options a memory stream accepts. */
  private static final Set<String> MEMORY_OPTIONS = Set.of("connector");

  private StreamDdl() {
  }

  static void create(FreshetPlanner planner, SqlCreateStream create) throws SQLException {
    String name = simpleName(create.name());
    Map<String, String> options = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : create.options().entrySet()) {
      options.put(e.getKey().toLowerCase(Locale.ROOT), e.getValue());
    }
    String connector = options.getOrDefault("connector", "memory");
    if (!connector.equalsIgnoreCase("memory")) {
      throw PlannerErrors.notSupported("Connector '" + connector + "' of stream " + name
          + " is not supported yet. Use WITH (connector = 'memory') and INSERT rows");
    }
    for (String key : options.keySet()) {
      if (!MEMORY_OPTIONS.contains(key)) {
        throw PlannerErrors.invalidDefinition("Unknown option '" + key + "' for connector 'memory'"
            + " of stream " + name + ". Valid options: " + MEMORY_OPTIONS);
      }
    }
    if (create.columns().isEmpty()) {
      throw PlannerErrors.invalidDefinition("Stream " + name + " has no columns. A memory stream"
          + " needs its columns declared: CREATE STREAM " + name + " (id BIGINT, ...)");
    }

    RelDataTypeFactory.Builder fields = planner.typeFactory().builder();
    Set<String> names = new HashSet<>();
    for (SqlNode node : create.columns()) {
      SqlColumnDeclaration column = (SqlColumnDeclaration) node;
      String columnName = simpleName(column.name);
      if (!names.add(columnName)) {
        throw PlannerErrors.invalidDefinition("Column " + columnName + " is declared twice in"
            + " stream " + name + ". Give each column a distinct name");
      }
      Boolean nullable = column.dataType.getNullable();
      fields.add(columnName, planner.columnType(column.dataType, nullable == null || nullable));
    }
    RelDataType rowType = fields.build();
    Optional<WatermarkSpec> watermark = create.watermark() == null
        ? Optional.empty() : Optional.of(watermark(name, create.watermark(), rowType));

    StreamTable table = new StreamTable(name, RelDataTypeImpl.proto(rowType), watermark, options,
        new MemoryStream(name, rowType.getFieldCount()));
    Catalog catalog = planner.catalog();
    if (!catalog.addStream(table)) {
      if (catalog.view(name).isPresent()) {
        // Even with IF NOT EXISTS: the statement asked for a stream, and there is none.
        throw PlannerErrors.nameTaken("stream", name, "materialized view",
            "DROP MATERIALIZED VIEW " + name);
      }
      if (!create.ifNotExists()) {
        throw PlannerErrors.streamExists(name);
      }
    }
  }

  /** Drops a stream; the caller holds the engine's DDL lock, so no view starts reading it. */
  static void drop(FreshetPlanner planner, SqlDropStream drop) throws SQLException {
    String name = simpleName(drop.name());
    Catalog catalog = planner.catalog();
    if (catalog.view(name).isPresent()) {
      throw PlannerErrors.wrongObjectType(name, "materialized view", "stream",
          "DROP MATERIALIZED VIEW " + name);
    }
    List<String> readers = new ArrayList<>();
    for (ViewTable view : catalog.views()) {
      if (view.sources().contains(name)) {
        readers.add(view.name());
      }
    }
    if (!readers.isEmpty()) {
      // A view that lost its stream could never change again, nor be told apart from one whose
      // stream merely has no new rows; the user decides what goes first.
      throw PlannerErrors.streamInUse(name, readers);
    }
    if (!catalog.dropStream(name) && !drop.ifExists()) {
      throw PlannerErrors.streamNotFound(name);
    }
  }

  /** Checks {@code WATERMARK FOR col AS col - INTERVAL ...} and returns its column and delay. */
  private static WatermarkSpec watermark(String stream, SqlWatermark declaration,
      RelDataType rowType) throws SQLException {
    String column = simpleName(declaration.column());
    var field = rowType.getField(column, true, false);
    if (field == null) {
      throw PlannerErrors.invalidDefinition("WATERMARK FOR " + column + " of stream " + stream
          + " names an unknown column. Declare it first: " + column + " TIMESTAMP(3)");
    }
    if (field.getType().getSqlTypeName() != SqlTypeName.TIMESTAMP) {
      throw PlannerErrors.invalidDefinition("WATERMARK FOR " + column + " of stream " + stream
          + " needs a TIMESTAMP column, but " + column + " is "
          + field.getType().getFullTypeString() + ". Declare the event time as TIMESTAMP(3)");
    }
    SqlNode expression = declaration.delayExpression();
    String shape = "The watermark of stream " + stream + " must read WATERMARK FOR " + column
        + " AS " + column + " - INTERVAL '5' SECOND (any non-negative interval)";
    if (!(expression instanceof SqlBasicCall call) || call.getKind() != SqlKind.MINUS
        || !(call.operand(0) instanceof SqlIdentifier id) || !simpleName(id).equals(column)
        || !(call.operand(1) instanceof SqlIntervalLiteral interval)) {
      throw PlannerErrors.invalidDefinition(shape + "; found " + expression);
    }
    SqlIntervalLiteral.IntervalValue value =
        (SqlIntervalLiteral.IntervalValue) interval.getValue();
    long delayMs = value.getIntervalQualifier().isYearMonth()
        // As Spark: a month counts as 31 days.
        ? SqlParserUtil.intervalToMonths(value) * 31L * 24 * 3600 * 1000
        : SqlParserUtil.intervalToMillis(value);
    if (delayMs < 0 || value.getSign() < 0) {
      throw PlannerErrors.invalidDefinition("The watermark delay of stream " + stream
          + " must not be negative, but is " + interval + ". Use a delay such as INTERVAL '5'"
          + " SECOND");
    }
    return new WatermarkSpec(column, delayMs);
  }

  static String simpleName(SqlIdentifier id) {
    return id.names.get(id.names.size() - 1);
  }
}
