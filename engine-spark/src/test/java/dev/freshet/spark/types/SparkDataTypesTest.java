package dev.freshet.spark.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.freshet.common.types.SqlType;
import dev.freshet.testkit.SparkTest;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/** Each descriptor's Spark type, and its values' way into Spark's rows and back. */
@SparkTest
class SparkDataTypesTest {
  @Test void shouldMapEveryTypeThatNamesASparkTypeAndNoOther() {
    for (SqlType type : SqlType.values()) {
      DataType dataType = SparkDataTypes.of(type, 10, 2);
      if (type.sparkTypeName() == null) {
        assertNull(dataType, type.name());
      } else {
        assertNotNull(dataType, type.name());
        assertEquals(type.sparkTypeName(), dataType.typeName().replaceAll("\\(.*", "")
            .replace("integer", "int").replace("long", "bigint").replace("short", "smallint")
            .replace("byte", "tinyint"), type.name());
        assertNotNull(SparkValues.of(dataType), type.name());
      }
    }
    assertEquals(DataTypes.createDecimalType(10, 2), SparkDataTypes.of(SqlType.DECIMAL, 10, 2));
    assertNull(SparkDataTypes.of(SqlType.DECIMAL, 39, 2));
    assertNull(SparkDataTypes.of(SqlType.DECIMAL, -1, 0));
    assertEquals(DataTypes.DoubleType, SparkDataTypes.of(SqlType.forName("FLOAT"), 0, 0));
  }

  @Test void shouldCarryValuesIntoSparkAndBack() {
    SparkValues timestamps = SparkValues.of(DataTypes.TimestampType);
    assertEquals(1_700_000_000_123_000L, timestamps.toSpark(1_700_000_000_123L));
    assertEquals(1_700_000_000_123L,
        timestamps.toFreshet(Instant.ofEpochMilli(1_700_000_000_123L)));
    assertEquals(-1L, timestamps.toFreshet(Timestamp.from(Instant.ofEpochMilli(-1))));
    SparkValues dates = SparkValues.of(DataTypes.DateType);
    assertEquals(20_423, dates.toSpark(20_423));
    assertEquals(20_423, dates.toFreshet(LocalDate.ofEpochDay(20_423)));
    assertEquals(7L, SparkValues.of(DataTypes.LongType).toSpark(7));
    assertEquals(UTF8String.fromString("a"), SparkValues.of(DataTypes.StringType).toSpark("a"));
    assertEquals(Decimal.apply(new BigDecimal("1.25"), 10, 2),
        SparkValues.of(DataTypes.createDecimalType(10, 2)).toSpark(new BigDecimal("1.245")));
    assertNull(SparkValues.of(DataTypes.BinaryType));
  }
}
