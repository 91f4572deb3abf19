package dev.freshet.planner.logical.conversion;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.common.types.SqlType;
import dev.freshet.executor.operators.OutputMode;
import dev.freshet.executor.source.MemoryStream;
import dev.freshet.executor.source.ReferenceData;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.ReferenceTable;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.WatermarkSpec;
import dev.freshet.planner.logical.Expression;
import dev.freshet.planner.logical.LogicalField;
import dev.freshet.planner.logical.LogicalPlan;
import dev.freshet.planner.logical.LogicalQuery;
import dev.freshet.planner.logical.LogicalStream;
import dev.freshet.planner.logical.LogicalType;
import dev.freshet.sql.FreshetSqlParser;
import dev.freshet.sql.parser.EmitMode;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/**
 * The logical plan another engine runs, as the converter makes it of the windowed plan: each node
 * and expression in Freshet's terms, and what the plan cannot express as an unsupported node or
 * expression that says what the query wrote.
 */
class LogicalPlanConverterTest {
  private static final ReferenceData NO_ROWS = new ReferenceData() {
    @Override public String description() {
      return "no rows";
    }

    @Override public void scan(Consumer<Object[]> rows) {
    }
  };

  private final Catalog catalog = new Catalog();
  private final FreshetPlanner planner = new FreshetPlanner(catalog);
  private final MemoryStream clicks = new MemoryStream("CLICKS", 3);

  LogicalPlanConverterTest() {
    RelDataTypeFactory f = planner.typeFactory();
    catalog.addStream(new StreamTable("CLICKS", RelDataTypeImpl.proto(f.builder()
        .add("K", SqlTypeName.VARCHAR, 20).nullable(true)
        .add("TS", SqlTypeName.TIMESTAMP, 3)
        .add("V", SqlTypeName.INTEGER).nullable(true)
        .build()), Optional.of(new WatermarkSpec("TS", 5000)), Map.of("connector", "memory"),
        clicks));
    catalog.addStream(new StreamTable("VIEWS", RelDataTypeImpl.proto(f.builder()
        .add("K", SqlTypeName.VARCHAR, 20).nullable(true)
        .add("TS", SqlTypeName.TIMESTAMP, 3)
        .build()), Optional.of(new WatermarkSpec("TS", 1000)), Map.of("connector", "memory"),
        new MemoryStream("VIEWS", 2)));
    catalog.addTable(new ReferenceTable("USERS", RelDataTypeImpl.proto(f.builder()
        .add("ID", SqlTypeName.VARCHAR, 20)
        .add("TIER", SqlTypeName.DECIMAL, 10, 2).nullable(true)
        .build()), List.of("ID"), Map.of("connector", "jdbc", "url", "jdbc:h2:mem:users"), false,
        NO_ROWS));
  }

  @Test void shouldConvertAScanWithItsWatermarkFilterAndProjection() throws Exception {
    LogicalQuery query = convert("SELECT STREAM k, v + 1 AS w FROM clicks"
        + " WHERE v > 10 AND k LIKE 'a%' AND UPPER(k) <> 'B'", EmitMode.APPEND);
    assertEquals(""
        + "Project[$0, PLUS($1, 1:INTEGER)]\n"
        + "  Filter[AND(GREATER_THAN($1, 10:INTEGER), LIKE($0, 'a%':CHAR(2)),"
        + " NOT_EQUALS(UPPER($0), 'B':VARCHAR(20)))]\n"
        + "    Project[$0, $2]\n"
        + "      EventTimeWatermark[eventTime=$1, delay=5000 ms]\n"
        + "        StreamScan[CLICKS, [K VARCHAR(20), TS TIMESTAMP(3), V INTEGER]]\n",
        query.plan().explain());
    assertEquals(OutputMode.APPEND, query.outputMode());
    assertEquals(false, query.aggregating());
    assertEquals(List.of(new LogicalField("K", varchar(20, true)),
        new LogicalField("W", new LogicalType(SqlType.INTEGER, 10, 0, true, "INTEGER"))),
        query.columns());
  }

  @Test void shouldGiveTheStreamsWithTheirColumnsAndSource() throws Exception {
    LogicalQuery query = convert("SELECT STREAM * FROM clicks", EmitMode.APPEND);
    assertEquals(List.of(new LogicalStream("CLICKS", "memory", List.of(
        new LogicalField("K", varchar(20, true)),
        new LogicalField("TS", new LogicalType(SqlType.TIMESTAMP, 3, -1, false, "TIMESTAMP(3)")),
        new LogicalField("V", new LogicalType(SqlType.INTEGER, 10, 0, true, "INTEGER"))),
        clicks)), query.sources());
    assertEquals(clicks, query.sources().get(0).memoryStream().orElseThrow());
  }

  @Test void shouldConvertATumblingWindowAggregateWithFilter() throws Exception {
    LogicalQuery query = convert("SELECT STREAM TUMBLE_START(ts, INTERVAL '10' SECOND) AS w,"
        + " k, COUNT(*) FILTER (WHERE v > 0) AS n, SUM(v) AS s, AVG(DISTINCT v) AS a"
        + " FROM clicks GROUP BY TUMBLE(ts, INTERVAL '10' SECOND), k", EmitMode.APPEND);
    // FILTER (WHERE v > 0) is a BOOLEAN column ($2) that the planner projects below.
    assertEquals(""
        + "Aggregate[groupKeys=[0, 1], calls=[COUNT() FILTER $2:BIGINT, SUM($3):BIGINT,"
        + " AVG(DISTINCT $3):DOUBLE]]\n"
        + "  Project[CAST($3 AS TIMESTAMP(3)), $0, IS_TRUE(GREATER_THAN($2, 0:INTEGER)), $2]\n"
        + "    TimeWindow[TUMBLE, eventTime=$1, size=10000 ms, slide=10000 ms]\n"
        + "      EventTimeWatermark[eventTime=$1, delay=5000 ms]\n"
        + "        StreamScan[CLICKS, [K VARCHAR(20), TS TIMESTAMP(3), V INTEGER]]\n",
        query.plan().explain());
    assertEquals(true, query.aggregating());
  }

  @Test void shouldConvertAHoppingWindow() throws Exception {
    // HOP_END: the window's start plus its size.
    assertEquals(""
        + "Project[PLUS($0, PT10S:INTERVAL SECOND), $1]\n"
        + "  Aggregate[groupKeys=[0], calls=[COUNT():BIGINT]]\n"
        + "    Project[CAST($3 AS TIMESTAMP(3))]\n"
        + "      TimeWindow[HOP, eventTime=$1, size=10000 ms, slide=5000 ms]\n"
        + "        EventTimeWatermark[eventTime=$1, delay=5000 ms]\n"
        + "          StreamScan[CLICKS, [K VARCHAR(20), TS TIMESTAMP(3), V INTEGER]]\n",
        convert("SELECT STREAM HOP_END(ts, INTERVAL '5' SECOND,"
        + " INTERVAL '10' SECOND) AS e, COUNT(*) AS n FROM clicks"
        + " GROUP BY HOP(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND)", EmitMode.APPEND)
        .plan().explain());
  }

  @Test void shouldConvertHavingAsAFilterAboveTheAggregateWithTheKeysTypes() throws Exception {
    LogicalQuery query = convert("SELECT STREAM k, COUNT(*) AS n FROM clicks GROUP BY k"
        + " HAVING SUM(v) > 5", EmitMode.UPDATE);
    assertEquals(""
        + "Project[$0, $1]\n"
        + "  Filter[GREATER_THAN($2, 5:BIGINT)]\n"
        + "    Aggregate[groupKeys=[0], calls=[COUNT():BIGINT, SUM($2):BIGINT]]\n"
        + "      EventTimeWatermark[eventTime=$1, delay=5000 ms]\n"
        + "        StreamScan[CLICKS, [K VARCHAR(20), TS TIMESTAMP(3), V INTEGER]]\n",
        query.plan().explain());
    LogicalPlan.Aggregate aggregate = (LogicalPlan.Aggregate)
        query.plan().inputs().get(0).inputs().get(0);
    assertEquals(List.of(varchar(20, true)), aggregate.keyTypes());
    assertEquals(OutputMode.UPDATE, query.outputMode());
  }

  @Test void shouldConvertADeduplication() throws Exception {
    assertEquals(""
        + "Project[$0, $1]\n"
        + "  Deduplicate[keys=[0], order=1, expiry=1]\n"
        + "    EventTimeWatermark[eventTime=$1, delay=5000 ms]\n"
        + "      StreamScan[CLICKS, [K VARCHAR(20), TS TIMESTAMP(3), V INTEGER]]\n",
        convert("SELECT STREAM k, ts FROM (SELECT k, ts, ROW_NUMBER() OVER"
        + " (PARTITION BY k ORDER BY ts) AS r FROM clicks) WHERE r = 1", EmitMode.APPEND)
        .plan().explain());
  }

  @Test void shouldConvertAJoinOfTwoStreams() throws Exception {
    assertEquals(""
        + "Project[$0, $3]\n"
        + "  StreamStreamJoin[LEFT, keys=[0]=[0], AND(EQUALS($0, $2),"
        + " GREATER_THAN_OR_EQUAL($3, $1),"
        + " LESS_THAN_OR_EQUAL($3, PLUS($1, PT10S:INTERVAL SECOND)))]\n"
        + "    Project[$0, $1]\n"
        + "      EventTimeWatermark[eventTime=$1, delay=5000 ms]\n"
        + "        StreamScan[CLICKS, [K VARCHAR(20), TS TIMESTAMP(3), V INTEGER]]\n"
        + "    EventTimeWatermark[eventTime=$1, delay=1000 ms]\n"
        + "      StreamScan[VIEWS, [K VARCHAR(20), TS TIMESTAMP(3)]]\n",
        convert("SELECT STREAM c.k, v.ts FROM clicks c LEFT JOIN views v"
        + " ON c.k = v.k AND v.ts BETWEEN c.ts AND c.ts + INTERVAL '10' SECOND",
        EmitMode.APPEND).plan().explain());
  }

  @Test void shouldConvertAJoinOfAStreamWithATable() throws Exception {
    LogicalQuery query = convert("SELECT STREAM c.k, u.tier FROM users u RIGHT JOIN clicks c"
        + " ON c.k = u.id", EmitMode.APPEND);
    assertEquals(""
        + "Project[$2, $1]\n"
        + "  StreamTableJoin[RIGHT, stream right, EQUALS($2, $0)]\n"
        + "    TableScan[USERS, [ID VARCHAR(20), TIER DECIMAL(10, 2)]]\n"
        + "    Project[$0]\n"
        + "      EventTimeWatermark[eventTime=$1, delay=5000 ms]\n"
        + "        StreamScan[CLICKS, [K VARCHAR(20), TS TIMESTAMP(3), V INTEGER]]\n",
        query.plan().explain());
    LogicalPlan.TableScan users = (LogicalPlan.TableScan) query.plan().inputs().get(0)
        .inputs().get(0);
    assertEquals(Map.of("connector", "jdbc", "url", "jdbc:h2:mem:users"), users.options());
    assertEquals(NO_ROWS, users.data());
  }

  @Test void shouldNameTheOperatorsItDoesNotExpress() throws Exception {
    // Nothing below an unsupported operator is converted: the engine refuses it first.
    assertEquals(""
        + "Aggregate[groupKeys=[0], calls=[COUNT():BIGINT]]\n"
        + "  Project[CAST($3 AS TIMESTAMP(3))]\n"
        + "    Unsupported[A SESSION window]\n",
        convert("SELECT STREAM SESSION_START(ts, INTERVAL '5' SECOND) AS s,"
        + " COUNT(*) AS n FROM clicks GROUP BY SESSION(ts, INTERVAL '5' SECOND)",
        EmitMode.APPEND).plan().explain());
    assertEquals(""
        + "Project[$0, $2]\n"
        + "  Unsupported[A top-N (ROW_NUMBER() ... <= n)]\n",
        convert("SELECT STREAM k, v FROM (SELECT k, v, ROW_NUMBER() OVER"
        + " (PARTITION BY k ORDER BY v DESC) AS r FROM clicks) WHERE r <= 2", EmitMode.UPDATE)
        .plan().explain());
    assertEquals("Unsupported[UNION, INTERSECT or EXCEPT]\n",
        convert("SELECT STREAM k FROM clicks UNION ALL SELECT STREAM k FROM views",
        EmitMode.APPEND).plan().explain());
  }

  @Test void shouldNameTheExpressionsItDoesNotExpressAndWriteOutInLists() throws Exception {
    // IN is Calcite's SEARCH, written out; TRIM's flag is the operator.
    assertEquals(""
        + "Project[Unsupported[SIMILAR TO], Unsupported[a literal of type DATE],"
        + " Unsupported[LIKE with ESCAPE or a pattern that is not a literal],"
        + " OR(EQUALS($2, 1:INTEGER), EQUALS($2, 2:INTEGER), EQUALS($2, 3:INTEGER)),"
        + " TRIM_LEADING('x':CHAR(1), $0), CAST(CAST($2 AS DECIMAL(10, 2)) AS DECIMAL(10, 2))]\n"
        + "  EventTimeWatermark[eventTime=$1, delay=5000 ms]\n"
        + "    StreamScan[CLICKS, [K VARCHAR(20), TS TIMESTAMP(3), V INTEGER]]\n",
        convert("SELECT STREAM k SIMILAR TO 'a.*' AS s, DATE '2026-12-01' AS d,"
        + " k LIKE 'a!%' ESCAPE '!' AS e, v IN (1, 2, 3) AS i,"
        + " TRIM(LEADING 'x' FROM k) AS t, CAST(v AS DECIMAL(10, 2)) AS c FROM clicks",
        EmitMode.APPEND).plan().explain());
  }

  @Test void shouldGiveLiteralsInTheJavaValuesAnEngineTakes() throws Exception {
    LogicalPlan.Project project = (LogicalPlan.Project) convert("SELECT STREAM"
        + " TIMESTAMP '1970-01-01 00:00:01' AS t, TRUE AS b, 1.5 AS d, CAST(NULL AS INTEGER) AS n,"
        + " ts + INTERVAL '2' SECOND AS i FROM clicks", EmitMode.APPEND).plan();
    List<Expression> e = project.projections();
    assertEquals(1000L, literal(e.get(0)).value());
    assertEquals(SqlType.TIMESTAMP, literal(e.get(0)).type().sqlType());
    assertEquals(true, literal(e.get(1)).value());
    assertEquals(new BigDecimal("1.5"), literal(e.get(2)).value());
    assertEquals(new Expression.Literal(null,
        new LogicalType(SqlType.INTEGER, 10, 0, true, "INTEGER")), e.get(3));
    Expression.Call plus = (Expression.Call) e.get(4);
    assertEquals(Expression.Operator.PLUS, plus.operator());
    assertEquals(Duration.ofSeconds(2), literal(plus.operands().get(1)).value());
  }

  private static Expression.Literal literal(Expression e) {
    return (Expression.Literal) e;
  }

  private LogicalQuery convert(String sql, EmitMode emit) throws Exception {
    return LogicalPlanConverter.convert(planner.planWindowed(FreshetSqlParser.parse(sql), emit,
        FreshetPlanner.DEFAULT_MAX_WINDOWS_PER_ROW));
  }

  private static LogicalType varchar(int precision, boolean nullable) {
    return new LogicalType(SqlType.VARCHAR, precision, -1, nullable, "VARCHAR(" + precision + ")");
  }
}
