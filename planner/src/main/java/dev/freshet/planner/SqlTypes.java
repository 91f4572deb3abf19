package dev.freshet.planner;

import dev.freshet.common.types.SqlType;
import java.util.EnumMap;
import java.util.Map;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The one lookup from Calcite's types to Freshet's type descriptors: the planner keeps
 * Calcite's {@link SqlTypeName}, and every part that handles values asks the {@link SqlType}.
 *
 * <pre>{@code
 * SqlType t = SqlTypes.of(field.getType());   // SqlType.TIMESTAMP for TIMESTAMP(3)
 * }</pre>
 */
public final class SqlTypes {
  /** Each Calcite type's descriptor, looked up once: sinks ask for every value they write. */
  private static final Map<SqlTypeName, SqlType> BY_CALCITE_TYPE = byCalciteType();

  private SqlTypes() {
  }

  private static Map<SqlTypeName, SqlType> byCalciteType() {
    Map<SqlTypeName, SqlType> map = new EnumMap<>(SqlTypeName.class);
    for (SqlTypeName name : SqlTypeName.values()) {
      SqlType type = SqlType.forName(name.name());
      if (type != null) {
        map.put(name, type);
      }
    }
    return map;
  }

  /** The descriptor of {@code type}, or null if Freshet keeps no values of it in a row. */
  public static @Nullable SqlType of(RelDataType type) {
    return of(type.getSqlTypeName());
  }

  /** The descriptor of {@code name}, or null if Freshet keeps no values of it in a row. */
  public static @Nullable SqlType of(SqlTypeName name) {
    return BY_CALCITE_TYPE.get(name);
  }
}
