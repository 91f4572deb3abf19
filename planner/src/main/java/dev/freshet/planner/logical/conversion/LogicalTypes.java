package dev.freshet.planner.logical.conversion;

import dev.freshet.planner.FreshetTypeSystem;
import dev.freshet.planner.SqlTypes;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.logical.LogicalField;
import dev.freshet.planner.logical.LogicalStream;
import dev.freshet.planner.logical.LogicalType;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;

/**
 * Calcite's types and the catalog's streams as a {@link dev.freshet.planner.logical.LogicalPlan}
 * has them.
 *
 * <pre>{@code
 * LogicalTypes.of(typeFactory.createSqlType(SqlTypeName.DECIMAL, 10, 2));
 * // LogicalType[sqlType=DECIMAL, precision=10, scale=2, nullable=false, name=DECIMAL(10, 2)]
 * }</pre>
 */
public final class LogicalTypes {
  private LogicalTypes() {
  }

  /**
   * The type {@code type}, spelled as Calcite spells it (without NOT NULL); a precision or scale
   * it does not specify is -1.
   */
  public static LogicalType of(RelDataType type) {
    int scale = type.getScale() == RelDataType.SCALE_NOT_SPECIFIED ? -1 : type.getScale();
    return new LogicalType(SqlTypes.of(type), type.getPrecision(), scale, type.isNullable(),
        type.toString());
  }

  /** The fields of the row type {@code rowType}, in order. */
  public static List<LogicalField> fields(RelDataType rowType) {
    List<LogicalField> fields = new ArrayList<>();
    for (RelDataTypeField field : rowType.getFieldList()) {
      fields.add(new LogicalField(field.getName(), of(field.getType())));
    }
    return fields;
  }

  /** The catalog's stream {@code table}, with its declared columns. */
  public static LogicalStream stream(StreamTable table) {
    RelDataType rowType = table.getRowType(new JavaTypeFactoryImpl(FreshetTypeSystem.INSTANCE));
    return new LogicalStream(table.name(), table.connector(), fields(rowType), table.source());
  }
}
