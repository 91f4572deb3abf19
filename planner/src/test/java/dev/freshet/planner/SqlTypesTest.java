package dev.freshet.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.freshet.common.types.SqlType;
import java.sql.Types;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/** Calcite's types find their descriptors, with the JDBC codes Calcite gives them. */
class SqlTypesTest {
  @Test void shouldFindADescriptorWithCalcitesJdbcCodeForEachTypeFreshetKeeps() {
    for (SqlTypeName name : SqlTypeName.values()) {
      SqlType type = SqlTypes.of(name);
      if (type == null || type.jdbcType() == Types.OTHER || name == SqlTypeName.FLOAT) {
        // Intervals: Calcite's own codes; FLOAT: Freshet keeps it as a DOUBLE.
        continue;
      }
      assertEquals(name.getJdbcOrdinal(), type.jdbcType(), name.name());
    }
  }

  @Test void shouldMapEachKeptTypeAsTheRowsHoldIt() {
    assertEquals(SqlType.DOUBLE, SqlTypes.of(SqlTypeName.FLOAT));
    assertEquals(SqlType.CHAR, SqlTypes.of(SqlTypeName.CHAR));
    assertEquals(SqlType.INTERVAL_YEAR_MONTH, SqlTypes.of(SqlTypeName.INTERVAL_MONTH));
    assertEquals(SqlType.INTERVAL_DAY_SECOND, SqlTypes.of(SqlTypeName.INTERVAL_SECOND));
    assertEquals(SqlType.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
        SqlTypes.of(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE));
    assertNull(SqlTypes.of(SqlTypeName.GEOMETRY));
    assertNull(SqlTypes.of(SqlTypeName.ARRAY));
  }
}
