package dev.freshet.spark;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.when;

import dev.freshet.planner.WindowedQuery;
import dev.freshet.planner.catalog.ReferenceTable;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.rel.EventTimeWatermark;
import dev.freshet.planner.rel.SessionWindow;
import dev.freshet.planner.rel.StreamDeduplicate;
import dev.freshet.planner.rel.StreamTopN;
import dev.freshet.planner.rel.StreamingJoin;
import dev.freshet.planner.rel.TimeWindow;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * Translates Freshet's windowed logical plan ({@code FreshetPlanner.planWindowed}) into Spark
 * Dataset operations: scans of streams (with their watermark), filters, projections, TUMBLE and
 * HOP windows and aggregations with COUNT, SUM, MIN, MAX and AVG. Anything else is refused with
 * SQLSTATE 0A000 while translating, before Spark runs a job.
 *
 * <pre>{@code
 * SparkPlanTranslator translator = new SparkPlanTranslator(Map.of("CLICKS", clicksDataset));
 * SparkQuery query = translator.translate(planner.planWindowed(sqlNode, EmitMode.UPDATE, 10_000));
 * }</pre>
 *
 * <p>Spark plans its own state (StateStoreRestore/Save), which is why the translation starts from
 * the plan before Freshet's stateful rules.
 */
public final class SparkPlanTranslator {
  /** The name of a keyed result's column that says whether the group is in the view. */
  public static final String ADMITTED = "_ADMITTED";
  /** The prefix of a keyed result's key columns' names, then the key's position. */
  public static final String KEY = "_KEY";

  private final Map<String, Dataset<Row>> sources;
  private int names;

  /**
   * @param sources a streaming Dataset per stream name ({@link StreamTable#name()}), with the
   *     stream's columns by name
   */
  public SparkPlanTranslator(Map<String, Dataset<Row>> sources) {
    this.sources = Map.copyOf(sources);
  }

  /** The query as a Spark streaming Dataset with the query's column names and types. */
  public SparkQuery translate(WindowedQuery query) throws SQLException {
    return translate(query, false);
  }

  /**
   * The query as a Spark streaming Dataset with the query's column names and types, then, if
   * {@code keyed}, the rows a view upserts by group: the top aggregate's group key (one column
   * per key of its group set, in order, each of the key's type; a window's start and end are
   * TIMESTAMP columns as the query groups by them) and a BOOLEAN column, {@value #ADMITTED},
   * true iff every filter above the aggregate (HAVING) holds, NULL counting as false. Those
   * filters then drop no rows: in UPDATE mode a group that stops passing HAVING must reach the
   * view, which deletes its row.
   *
   * <pre>{@code
   * // SELECT COUNT(*) AS n FROM s GROUP BY k HAVING SUM(v) > 5: rows [n, k, admitted]
   * SparkQuery q = translator.translate(plan, true);   // q.keyColumns() == 1
   * }</pre>
   *
   * @throws IllegalArgumentException if keyed and the query does not aggregate under its
   *     projections and filters (only an aggregation has keyed rows)
   */
  public SparkQuery translate(WindowedQuery query, boolean keyed) throws SQLException {
    if (keyed) {
      return keyed(query);
    }
    Frame frame = translate(query.rel());
    return new SparkQuery(frame.dataset().select(resultColumns(query, frame, List.of())),
        query.outputMode());
  }

  private SparkQuery keyed(WindowedQuery query) throws SQLException {
    // The projections and filters above the top aggregate, the lowest first.
    ArrayDeque<RelNode> above = new ArrayDeque<>();
    RelNode rel = query.rel();
    while (rel instanceof Project || rel instanceof Filter) {
      above.push(rel);
      rel = rel.getInput(0);
    }
    if (!(rel instanceof Aggregate aggregate)) {
      if (!(rel instanceof TableScan || rel instanceof EventTimeWatermark
          || rel instanceof TimeWindow)) {
        throw SparkErrors.notYetOnSpark(describe(rel));
      }
      throw new IllegalArgumentException("Keyed rows are an aggregation's, and the query does"
          + " not aggregate under its projections and filters: " + RelOptUtil.toString(query.rel()));
    }
    Frame frame = aggregate(aggregate, translate(aggregate.getInput()));
    // The aggregate's first columns are its group key; the frames above compose columns over
    // the same Dataset, so these stay valid up to the result.
    List<Column> keys = new ArrayList<>();
    for (RelDataTypeField key : aggregate.getRowType().getFieldList()
        .subList(0, aggregate.getGroupCount())) {
      keys.add(frame.columns().get(key.getIndex()).cast(SparkTypes.of(key.getType()))
          .as(KEY + key.getIndex()));
    }
    Column admitted = lit(true);
    for (RelNode node : above) {
      if (node instanceof Filter filter) {
        Column condition = columns(filter, frame).translate(filter.getCondition());
        admitted = admitted.and(coalesce(condition, lit(false)));
      } else {
        frame = project((Project) node, frame);
      }
    }
    List<Column> extra = new ArrayList<>(keys);
    extra.add(admitted.as(ADMITTED));
    return new SparkQuery(frame.dataset().select(resultColumns(query, frame, extra)),
        query.outputMode(), true, keys.size());
  }

  /** The query's columns, named and typed as the query has them, then {@code extra}. */
  private static Column[] resultColumns(WindowedQuery query, Frame frame, List<Column> extra)
      throws SQLException {
    List<Column> result = new ArrayList<>();
    for (RelDataTypeField field : query.rowType().getFieldList()) {
      result.add(frame.columns().get(field.getIndex())
          .cast(SparkTypes.of(field.getType())).as(field.getName()));
    }
    result.addAll(extra);
    return result.toArray(new Column[0]);
  }

  private Frame translate(RelNode rel) throws SQLException {
    if (rel instanceof TableScan scan) {
      return scan(scan);
    }
    if (rel instanceof EventTimeWatermark watermark) {
      if (watermark.idleTimeoutMs() > 0) {
        // Spark's watermark moves only with rows: the option would be silently ignored.
        throw SparkErrors.notYetOnSpark("A stream's 'watermark.idle-timeout'");
      }
      return watermark(watermark, translate(watermark.getInput()));
    }
    if (rel instanceof Filter filter) {
      Frame input = translate(filter.getInput());
      Column condition = columns(filter, input).translate(filter.getCondition());
      return new Frame(input.dataset().filter(condition), input.columns(), input.windowParts(),
          input.window());
    }
    if (rel instanceof Project project) {
      return project(project, translate(project.getInput()));
    }
    if (rel instanceof TimeWindow window) {
      return window(window, translate(window.getInput()));
    }
    if (rel instanceof Aggregate aggregate) {
      return aggregate(aggregate, translate(aggregate.getInput()));
    }
    if (rel instanceof StreamDeduplicate dedup) {
      return DeduplicationTranslator.translate(dedup, translate(dedup.getInput()), this::freshName);
    }
    if (rel instanceof StreamingJoin join) {
      return JoinTranslator.join(join, translate(join.getLeft()), translate(join.getRight()),
          this::freshName);
    }
    if (rel instanceof Join join && TableJoinTranslator.joinsATable(join)) {
      return TableJoinTranslator.join(join, translate(join.getLeft()),
          translate(join.getRight()), this::freshName);
    }
    throw SparkErrors.notYetOnSpark(describe(rel));
  }

  /** What the query wrote that became {@code rel}, for the error that refuses it. */
  private static String describe(RelNode rel) {
    if (rel instanceof Join) {
      return "A join";
    }
    if (rel instanceof SessionWindow) {
      return "A SESSION window";
    }
    if (rel instanceof StreamTopN) {
      return "A top-N (ROW_NUMBER() ... <= n)";
    }
    if (rel instanceof Sort) {
      return "ORDER BY, LIMIT or OFFSET";
    }
    if (rel instanceof SetOp) {
      return "UNION, INTERSECT or EXCEPT";
    }
    if (rel instanceof Values) {
      return "VALUES";
    }
    return "The relational operator " + rel.getRelTypeName();
  }

  private Frame scan(TableScan scan) throws SQLException {
    ReferenceTable table = scan.getTable().unwrap(ReferenceTable.class);
    if (table != null) {
      SparkSession spark = sources.isEmpty() ? SparkSession.active()
          : sources.values().iterator().next().sparkSession();
      return TableJoinTranslator.scan(scan, table, spark, this::freshName);
    }
    StreamTable stream = scan.getTable().unwrap(StreamTable.class);
    if (stream == null) {
      throw SparkErrors.notYetOnSpark("Reading the table "
          + String.join(".", scan.getTable().getQualifiedName()));
    }
    Dataset<Row> source = sources.get(stream.name());
    if (source == null) {
      throw new IllegalArgumentException("no Spark Dataset for the stream " + stream.name()
          + "; given: " + sources.keySet());
    }
    // Fresh names: the columns are then found by name whatever the query renames.
    List<Column> columns = new ArrayList<>();
    for (String field : scan.getRowType().getFieldNames()) {
      columns.add(col(field));
    }
    return Frame.plain(source, columns).materialized(this::freshName);
  }

  private Frame watermark(EventTimeWatermark watermark, Frame input) throws SQLException {
    if (!(watermark.getInput() instanceof TableScan)) {
      // Freshet puts it right above the scan; Spark needs a column by name, as the scan has.
      throw SparkErrors.notYetOnSpark("A watermark on a computed column");
    }

    String column = input.dataset().columns()[watermark.eventTimeIndex()];
    return new Frame(input.dataset().withWatermark(column, watermark.delayMs() + " milliseconds"),
        input.columns(), input.windowParts(), input.window());
  }

  private Frame project(Project project, Frame input) throws SQLException {
    ColumnTranslator translator = columns(project, input);
    List<Column> columns = new ArrayList<>();
    List<Frame.WindowPart> parts = new ArrayList<>();
    for (RexNode e : project.getProjects()) {
      columns.add(translator.translate(e));
      parts.add(windowPart(e, input));
    }
    return new Frame(input.dataset(), columns, parts, input.window());
  }

  /** Whether {@code e} is a window's start or end, as such or cast (as GROUP BY TUMBLE has it). */
  private static Frame.WindowPart windowPart(RexNode e, Frame input) {
    RexNode bare = e.getKind() == SqlKind.CAST ? ((RexCall) e).getOperands().get(0) : e;
    return bare instanceof RexInputRef ref ? input.windowParts().get(ref.getIndex())
        : Frame.WindowPart.NONE;
  }

  private Frame window(TimeWindow window, Frame input) throws SQLException {
    if (input.window() != null) {
      throw SparkErrors.notYetOnSpark("A window over a window");
    }
    Column eventTime = input.columns().get(window.eventTimeIndex());
    // HOP(ts, slide, size) in SQL; window(ts, size, slide) in Spark.
    Column windowColumn = window.slideMs() == window.sizeMs()
        ? functions.window(eventTime, window.sizeMs() + " milliseconds")
        : functions.window(eventTime, window.sizeMs() + " milliseconds",
            window.slideMs() + " milliseconds");
    String name = freshName();
    List<Column> columns = new ArrayList<>(input.columns());
    columns.add(col(name).getField("start"));
    columns.add(col(name).getField("end"));
    List<Frame.WindowPart> parts = new ArrayList<>(input.windowParts());
    parts.add(Frame.WindowPart.START);
    parts.add(Frame.WindowPart.END);
    return new Frame(input.dataset().withColumn(name, windowColumn), columns, parts, name);
  }

  private Frame aggregate(Aggregate aggregate, Frame input) throws SQLException {
    if (aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
      throw SparkErrors.notOnSpark("GROUPING SETS, ROLLUP or CUBE",
          "Run one query per grouping, or run it on Freshet's own executor");
    }
    // Spark keeps the watermark of a window only on the window struct: group by it, not by
    // its start or end, and take those from it afterwards.
    List<Column> keys = new ArrayList<>();
    boolean byWindow = false;
    for (int key : aggregate.getGroupSet()) {
      if (input.windowParts().get(key) != Frame.WindowPart.NONE) {
        byWindow = true;
      } else {
        String name = freshName();
        keys.add(input.columns().get(key).as(name));
      }
    }
    if (byWindow) {
      keys.add(0, col(input.window()));
    }
    List<Column> aggregates = new ArrayList<>();
    List<String> aggregateNames = new ArrayList<>();
    for (AggregateCall call : aggregate.getAggCallList()) {
      String name = freshName();
      // Calcite's type (SUM of INTEGER is an INTEGER, Spark's a BIGINT), so that expressions
      // above the aggregation compute as Freshet's do.
      aggregates.add(aggregateFunction(call, input).cast(SparkTypes.of(call.getType())).as(name));
      aggregateNames.add(name);
    }
    Dataset<Row> grouped = aggregate(input.dataset(), keys, aggregates);

    List<Column> columns = new ArrayList<>();
    List<Frame.WindowPart> parts = new ArrayList<>();
    int next = byWindow ? 1 : 0;
    for (int key : aggregate.getGroupSet()) {
      Frame.WindowPart part = input.windowParts().get(key);
      if (part == Frame.WindowPart.NONE) {
        columns.add(col(grouped.columns()[next++]));
      } else {
        columns.add(col(input.window()).getField(part.field()));
      }
      parts.add(part);
    }
    for (String name : aggregateNames) {
      columns.add(col(name));
      parts.add(Frame.WindowPart.NONE);
    }
    return new Frame(grouped, columns, parts, byWindow ? input.window() : null);
  }

  private static Dataset<Row> aggregate(Dataset<Row> input, List<Column> keys,
      List<Column> aggregates) {
    Column[] keyArray = keys.toArray(new Column[0]);
    if (aggregates.isEmpty()) {
      // GROUP BY without aggregates: Spark's agg needs one, which is then left out.
      String count = "__count";
      Dataset<Row> counted = input.groupBy(keyArray).agg(functions.count(lit(1)).as(count));
      return counted.drop(count);
    }
    return input.groupBy(keyArray).agg(aggregates.get(0),
        aggregates.subList(1, aggregates.size()).toArray(new Column[0]));
  }

  private static Column aggregateFunction(AggregateCall call, Frame input) throws SQLException {
    String name = call.getAggregation().getName();
    if (call.isDistinct()) {
      throw SparkErrors.notOnSpark(name + "(DISTINCT ...)", "Spark refuses distinct aggregates"
          + " on streams: run the query on Freshet's own executor, or aggregate the distinct"
          + " values in two steps outside the stream");
    }
    if (call.getArgList().size() > 1) {
      throw SparkErrors.notYetOnSpark(name + " with " + call.getArgList().size() + " arguments",
          "aggregate one column at a time, or run the query on Freshet's own executor");
    }
    Column argument = call.getArgList().isEmpty() ? lit(1)
        : input.columns().get(call.getArgList().get(0));
    if (call.filterArg >= 0) {
      // FILTER (WHERE c): only rows where c is TRUE count; NULL elsewhere, which every one of
      // these aggregate functions skips.
      argument = when(input.columns().get(call.filterArg).equalTo(lit(true)), argument);
    }
    switch (call.getAggregation().getKind()) {
      case COUNT: return functions.count(argument);
      case SUM: return functions.sum(argument);
      case SUM0: return functions.coalesce(functions.sum(argument), lit(0));
      case MIN: return functions.min(argument);
      case MAX: return functions.max(argument);
      case AVG: return functions.avg(argument);
      default:
        throw SparkErrors.notYetOnSpark("The aggregate function " + name,
            "use COUNT, SUM, MIN, MAX or AVG, or run the query on Freshet's own executor");
    }
  }

  private static ColumnTranslator columns(RelNode rel, Frame input) {
    return new ColumnTranslator(rel.getCluster().getRexBuilder(), input.columns());
  }


  /**
   * A column name not yet used in this translation. Every Dataset the translation makes has only
   * such names (the scan renames the stream's columns), and Spark parses them in
   * {@code withWatermark}: letters, digits and '_' only.
   */
  private String freshName() {
    return "f_" + names++;
  }
}
