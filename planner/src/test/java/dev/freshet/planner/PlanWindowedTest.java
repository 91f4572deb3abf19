package dev.freshet.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.executor.operators.OutputMode;
import dev.freshet.executor.source.MemoryStream;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.WatermarkSpec;
import dev.freshet.sql.FreshetSqlParser;
import dev.freshet.sql.parser.EmitMode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/**
 * The plan another engine translates: watermarks and windows in, Freshet's own stateful
 * operators not yet.
 */
class PlanWindowedTest {
  private final Catalog catalog = new Catalog();
  private final FreshetPlanner planner = new FreshetPlanner(catalog);

  PlanWindowedTest() {
    RelDataTypeFactory f = planner.typeFactory();
    catalog.addStream(new StreamTable("M", RelDataTypeImpl.proto(f.builder()
        .add("K", SqlTypeName.VARCHAR).nullable(true)
        .add("TS", SqlTypeName.TIMESTAMP, 3).nullable(true)
        .build()), Optional.of(new WatermarkSpec("TS", 5000)), Map.of("connector", "memory"),
        new MemoryStream("M", 2)));
  }

  @Test void shouldPlanWatermarkAndWindowButNoStateStore() throws Exception {
    WindowedQuery query = planner.planWindowed(FreshetSqlParser.parse("SELECT STREAM"
        + " TUMBLE_START(ts, INTERVAL '10' SECOND) AS w, k, COUNT(*) AS n FROM m"
        + " GROUP BY TUMBLE(ts, INTERVAL '10' SECOND), k"), EmitMode.APPEND,
        FreshetPlanner.DEFAULT_MAX_WINDOWS_PER_ROW);
    assertEquals(""
        + "LogicalAggregate(group=[{0, 1}], N=[COUNT()])\n"
        + "  LogicalProject($f0=[CAST($2):TIMESTAMP(3)], K=[$0])\n"
        + "    LogicalTimeWindow(eventTime=[TS], sizeMs=[10000])\n"
        + "      LogicalEventTimeWatermark(eventTime=[TS], delayMs=[5000])\n"
        + "        LogicalTableScan(table=[[FRESHET, M]])\n",
        RelOptUtil.toString(query.rel()));
    assertEquals(OutputMode.APPEND, query.outputMode());
    assertEquals(List.of("W", "K", "N"), query.rowType().getFieldNames());
    assertEquals(List.of("M"), query.sources().stream().map(StreamTable::name).toList());
    assertEquals(true, query.aggregating());
  }
}
