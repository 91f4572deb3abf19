package dev.freshet.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.operators.OutputMode;
import dev.freshet.executor.source.MemoryStream;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.WatermarkSpec;
import dev.freshet.planner.errors.PlanningException;
import dev.freshet.sql.parser.EmitMode;
import dev.freshet.sql.FreshetSqlParser;
import dev.freshet.sql.parser.SqlEmit;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeImpl;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.RelBuilder;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The output mode that {@link OutputModeChecker} decides for queries that pass it, planned by
 * {@link FreshetPlanner#planQuery}; the end-to-end test of each rejection, with its message, is
 * the JDBC driver's {@code OutputModeCheckerTest}.
 */
class OutputModeCheckerTest {
  private final Catalog catalog = new Catalog();
  private final FreshetPlanner planner = new FreshetPlanner(catalog);

  OutputModeCheckerTest() {
    addStream("S", Optional.of(new WatermarkSpec("TS", 5000)));
    addStream("NO_WATERMARK", Optional.empty());
  }

  private void addStream(String name, Optional<WatermarkSpec> watermark) {
    RelDataTypeFactory f = planner.typeFactory();
    catalog.addStream(new StreamTable(name, RelDataTypeImpl.proto(f.builder()
        .add("K", SqlTypeName.VARCHAR).nullable(true)
        .add("V", SqlTypeName.INTEGER).nullable(true)
        .add("TS", SqlTypeName.TIMESTAMP, 3).nullable(true)
        .build()), watermark, Map.of("connector", "memory"), new MemoryStream(name, 3)));
  }

  /** Plans {@code sql}, a query with an optional trailing {@code EMIT}, and returns its mode. */
  private OutputMode mode(String sql) throws Exception {
    SqlNode node = FreshetSqlParser.parse(sql);
    @Nullable EmitMode emit = null;
    if (node instanceof SqlEmit) {
      emit = ((SqlEmit) node).mode();
      node = ((SqlEmit) node).query();
    }
    return planner.planQuery(node, emit, 1).outputMode();
  }

  private void assertRejected(String sql, String sqlState) {
    PlanningException e = assertThrows(PlanningException.class, () -> mode(sql), sql);
    assertEquals(sqlState, e.state().code(), () -> sql + ": " + e.getMessage());
  }

  @Test void shouldDefaultToUpdateWhenAggregatingAndToAppendOtherwise() throws Exception {
    assertEquals(OutputMode.UPDATE, mode("SELECT STREAM k, COUNT(*) FROM s GROUP BY k"));
    assertEquals(OutputMode.UPDATE, mode("SELECT STREAM DISTINCT k FROM s"));
    assertEquals(OutputMode.APPEND, mode("SELECT STREAM k, v FROM s WHERE v > 0"));
  }

  @Test void shouldAllowUpdateModeWithoutAggregation() throws Exception {
    assertEquals(OutputMode.UPDATE, mode("SELECT STREAM k, v FROM s EMIT UPDATE"));
  }

  @Test void shouldAllowAppendModeWhenGroupingByTheWatermarkColumn() throws Exception {
    assertEquals(OutputMode.APPEND, mode("SELECT STREAM k, ts, COUNT(*) FROM s"
        + " GROUP BY k, ts EMIT APPEND"));
  }

  @Test void shouldAllowAppendModeWhenGroupingByAWindowOfTheWatermarkColumn() throws Exception {
    assertEquals(OutputMode.APPEND, mode("SELECT STREAM k, COUNT(*) FROM s"
        + " GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE) EMIT APPEND"));
    assertEquals(OutputMode.APPEND, mode("SELECT STREAM k,"
        + " TUMBLE_END(ts, INTERVAL '1' MINUTE) AS window_end, COUNT(*) FROM s WHERE v > 0"
        + " GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE) EMIT APPEND"));
    assertEquals(OutputMode.APPEND, mode("SELECT STREAM COUNT(*) FROM s"
        + " GROUP BY HOP(ts, INTERVAL '1' MINUTE, INTERVAL '5' MINUTE) EMIT APPEND"));
    assertEquals(OutputMode.APPEND, mode("SELECT STREAM k, COUNT(*) FROM s"
        + " GROUP BY k, SESSION(ts, INTERVAL '1' MINUTE) EMIT APPEND"));
  }

  @Test void shouldAllowAppendModeWhenGroupingByTheBoundsOfAWindowTableFunction()
      throws Exception {
    assertEquals(OutputMode.APPEND, mode("SELECT STREAM k, \"window_start\", COUNT(*)"
        + " FROM TABLE(TUMBLE(TABLE s, DESCRIPTOR(ts), INTERVAL '1' MINUTE))"
        + " GROUP BY k, \"window_start\", \"window_end\" EMIT APPEND"));
    assertEquals(OutputMode.APPEND, mode("SELECT STREAM \"window_end\", SUM(v)"
        + " FROM TABLE(HOP(TABLE s, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '5' MINUTE))"
        + " WHERE v > 0 GROUP BY \"window_end\" EMIT APPEND"));
    assertEquals(OutputMode.APPEND, mode("SELECT STREAM k, \"window_start\", COUNT(*)"
        + " FROM TABLE(SESSION(TABLE s, DESCRIPTOR(ts), DESCRIPTOR(k), INTERVAL '1' MINUTE))"
        + " GROUP BY k, \"window_start\" EMIT APPEND"));
  }

  @Test void shouldRejectAppendModeWhenTheWindowedColumnHasNoWatermark() {
    assertRejected("SELECT STREAM k, COUNT(*) FROM no_watermark"
        + " GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE) EMIT APPEND", "42KDE");
    assertRejected("SELECT STREAM k, \"window_start\", COUNT(*)"
        + " FROM TABLE(TUMBLE(TABLE no_watermark, DESCRIPTOR(ts), INTERVAL '1' MINUTE))"
        + " GROUP BY k, \"window_start\" EMIT APPEND", "42KDE");
    // The window table function passes the watermark column through, not the other columns.
    assertRejected("SELECT STREAM k, COUNT(*)"
        + " FROM TABLE(TUMBLE(TABLE s, DESCRIPTOR(ts), INTERVAL '1' MINUTE))"
        + " GROUP BY k EMIT APPEND", "42KDE");
  }

  @Test void shouldAllowSessionWindowsInAppendAndCompleteModeOnly() throws Exception {
    String query = "SELECT STREAM k, COUNT(*) FROM s"
        + " GROUP BY k, SESSION(ts, INTERVAL '1' MINUTE)";
    assertEquals(OutputMode.COMPLETE, mode(query + " EMIT COMPLETE"));
    assertEquals(OutputMode.APPEND, mode(query + " EMIT APPEND"));
    assertRejected(query + " EMIT UPDATE", "42KDE");
    // A tumbling window is no session window.
    assertEquals(OutputMode.UPDATE, mode("SELECT STREAM k, COUNT(*) FROM s"
        + " GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE) EMIT UPDATE"));
    assertEquals(OutputMode.UPDATE, mode("SELECT STREAM k, \"window_end\", COUNT(*)"
        + " FROM TABLE(HOP(TABLE s, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '5' MINUTE))"
        + " GROUP BY k, \"window_end\""));
  }

  @Test void shouldAllowOrderByAndLimitOnAnAggregationInCompleteMode() throws Exception {
    assertEquals(OutputMode.COMPLETE, mode("SELECT STREAM k, COUNT(*) AS n FROM s GROUP BY k"
        + " ORDER BY n DESC LIMIT 3 EMIT COMPLETE"));
    assertEquals(OutputMode.COMPLETE, mode("SELECT STREAM k, COUNT(*) AS n FROM s GROUP BY k"
        + " ORDER BY k EMIT COMPLETE"));
    assertEquals(OutputMode.COMPLETE, mode("SELECT STREAM k, COUNT(*) AS n FROM s GROUP BY k"
        + " FETCH FIRST 3 ROWS ONLY EMIT COMPLETE"));
  }

  /** Calcite's column origins follow a window function of the watermark column as derived. */
  @Test void shouldTakeAWindowOfTheWatermarkColumnForAWatermarkKey() {
    RelBuilder builder = RelBuilder.create(Frameworks.newConfigBuilder()
        .defaultSchema(Frameworks.createRootSchema(false).add("FRESHET", catalog))
        .typeSystem(FreshetTypeSystem.INSTANCE).build());
    builder.scan("S");
    Aggregate aggregate = (Aggregate) builder
        .project(builder.field("K"), builder.call(SqlStdOperatorTable.TUMBLE_OLD,
            builder.field("TS"), builder.getRexBuilder().makeIntervalLiteral(
                BigDecimal.valueOf(60_000),
                new SqlIntervalQualifier(TimeUnit.MINUTE, null, SqlParserPos.ZERO))))
        .aggregate(builder.groupKey(0, 1), builder.countStar("N"))
        .build();
    assertFalse(FreshetPlanner.isWatermarkKey(aggregate, 0));
    assertTrue(FreshetPlanner.isWatermarkKey(aggregate, 1));
  }
}
