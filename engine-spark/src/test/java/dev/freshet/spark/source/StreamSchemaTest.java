package dev.freshet.spark.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.executor.source.MemoryStream;
import dev.freshet.executor.source.SequenceSource;
import dev.freshet.executor.source.SequenceSpec;
import dev.freshet.executor.source.StreamColumn;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.logical.conversion.LogicalTypes;
import dev.freshet.testkit.SparkTest;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLSyntaxErrorException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.apache.calcite.rel.type.RelProtoDataType;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/** Spark schemas of Freshet streams, and the streams and types the source refuses. */
@SparkTest
class StreamSchemaTest {
  @Test void shouldMapEachSqlTypeToSparks() throws SQLException {
    StructType schema = StreamSchema.of("ALL", List.of(
        new StreamColumn("A", "CHAR(3)"), new StreamColumn("B", "VARCHAR NOT NULL"),
        new StreamColumn("C", "TINYINT"), new StreamColumn("D", "SMALLINT"),
        new StreamColumn("E", "INTEGER"), new StreamColumn("F", "BIGINT NOT NULL"),
        new StreamColumn("G", "REAL"), new StreamColumn("H", "FLOAT"),
        new StreamColumn("I", "DOUBLE"), new StreamColumn("J", "DECIMAL(38, 10)"),
        new StreamColumn("K", "DECIMAL(5)"), new StreamColumn("L", "BOOLEAN"),
        new StreamColumn("M", "DATE"), new StreamColumn("N", "TIMESTAMP(3) NOT NULL"),
        new StreamColumn("O", "TIMESTAMP_WITH_LOCAL_TIME_ZONE(3)")));
    assertEquals(new StructType()
        .add("A", DataTypes.StringType, true).add("B", DataTypes.StringType, false)
        .add("C", DataTypes.ByteType, true).add("D", DataTypes.ShortType, true)
        .add("E", DataTypes.IntegerType, true).add("F", DataTypes.LongType, false)
        .add("G", DataTypes.FloatType, true).add("H", DataTypes.DoubleType, true)
        .add("I", DataTypes.DoubleType, true)
        .add("J", DataTypes.createDecimalType(38, 10), true)
        .add("K", DataTypes.createDecimalType(5, 0), true)
        .add("L", DataTypes.BooleanType, true).add("M", DataTypes.DateType, true)
        .add("N", DataTypes.TimestampType, false).add("O", DataTypes.TimestampType, true),
        schema);
  }

  @Test void shouldRefuseATypeSparkCannotReadHere() {
    for (String type : List.of("TIME(0)", "DECIMAL(40, 2)", "VARBINARY", "INTERVAL SECOND")) {
      SQLException e = assertThrows(SQLException.class, () -> StreamSchema.of("TIMES",
          List.of(new StreamColumn("ID", "INTEGER"), new StreamColumn("AT", type))), type);
      assertInstanceOf(SQLFeatureNotSupportedException.class, e);
      assertEquals("0A000", e.getSQLState());
      assertEquals("Column AT of stream 'TIMES' is " + type + ", which the Spark source cannot"
          + " read yet. Use a character, integer, BIGINT, DOUBLE, DECIMAL, BOOLEAN, DATE or"
          + " TIMESTAMP column", e.getMessage());
    }
  }

  @Test void shouldTakeTheSchemaOfACatalogStream() throws SQLException {
    RelProtoDataType rowType = types -> types.builder()
        .add("USER_ID", SqlTypeName.VARCHAR, 20).nullable(true)
        .add("AMOUNT", SqlTypeName.DECIMAL, 10, 2).nullable(true)
        .add("TS", SqlTypeName.TIMESTAMP, 3)
        .add("SEEN", SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 3).nullable(true)
        .add("DAY", SqlTypeName.DATE).nullable(true)
        .build();
    StreamTable clicks = new StreamTable("CLICKS", rowType, Optional.empty(), Map.of(),
        new MemoryStream("CLICKS", 5));
    try (StreamRegistration registration = FreshetSource.register(LogicalTypes.stream(clicks))) {
      assertEquals("CLICKS", registration.name());
      assertEquals(new StructType().add("USER_ID", DataTypes.StringType, true)
          .add("AMOUNT", DataTypes.createDecimalType(10, 2), true)
          .add("TS", DataTypes.TimestampType, false)
          .add("SEEN", DataTypes.TimestampType, true)
          .add("DAY", DataTypes.DateType, true), registration.schema());
    }
  }

  @Test void shouldRefuseAStreamThatIsNotAMemoryStream() {
    RelProtoDataType rowType = types -> types.builder().add("N", SqlTypeName.BIGINT).build();
    StreamTable nums = new StreamTable("NUMS", rowType, Optional.empty(),
        Map.of(StreamTable.CONNECTOR_OPTION, "sequence"),
        new SequenceSource(new SequenceSpec("NUMS", 0, OptionalInt.empty(), OptionalLong.of(100),
            OptionalLong.empty(), 10, 0)));
    SQLException e = assertThrows(SQLException.class,
        () -> FreshetSource.register(LogicalTypes.stream(nums)));
    assertInstanceOf(SQLSyntaxErrorException.class, e);
    assertEquals("42809", e.getSQLState());
    assertEquals("Stream 'NUMS' cannot be read on Spark: its rows come from connector"
        + " 'sequence', and only a stream declared WITH (connector = 'memory') has a Spark"
        + " source. Run the query on Freshet's own executor, or read a memory stream",
        e.getMessage());
  }
}
