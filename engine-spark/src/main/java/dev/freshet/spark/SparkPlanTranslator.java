package dev.freshet.spark;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.when;

import dev.freshet.planner.logical.Expression;
import dev.freshet.planner.logical.LogicalField;
import dev.freshet.planner.logical.LogicalPlan;
import dev.freshet.planner.logical.LogicalPlan.AggregateCall;
import dev.freshet.planner.logical.LogicalPlan.EventTimeWatermark;
import dev.freshet.planner.logical.LogicalQuery;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * Translates a continuous query's logical plan ({@link LogicalQuery}, which the planner makes of
 * its windowed plan) into Spark Dataset operations: scans of streams (with their watermark),
 * filters, projections, TUMBLE and HOP windows and aggregations with COUNT, SUM, MIN, MAX and
 * AVG. Anything else is refused with SQLSTATE 0A000 while translating, before Spark runs a job.
 *
 * <pre>{@code
 * SparkPlanTranslator translator = new SparkPlanTranslator(Map.of("CLICKS", clicksDataset));
 * SparkQuery query = translator.translate(LogicalPlanConverter.convert(
 *     planner.planWindowed(sqlNode, EmitMode.UPDATE, 10_000)));
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
   * @param sources a streaming Dataset per stream name ({@code LogicalStream.name()}), with the
   *     stream's columns by name
   */
  public SparkPlanTranslator(Map<String, Dataset<Row>> sources) {
    this.sources = Map.copyOf(sources);
  }

  /** The query as a Spark streaming Dataset with the query's column names and types. */
  public SparkQuery translate(LogicalQuery query) throws SQLException {
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
  public SparkQuery translate(LogicalQuery query, boolean keyed) throws SQLException {
    if (keyed) {
      return keyed(query);
    }
    Frame frame = translate(query.plan());
    return new SparkQuery(frame.dataset().select(resultColumns(query, frame, List.of())),
        query.outputMode());
  }

  private SparkQuery keyed(LogicalQuery query) throws SQLException {
    // The projections and filters above the top aggregate, the lowest first.
    ArrayDeque<LogicalPlan> above = new ArrayDeque<>();
    LogicalPlan node = query.plan();
    while (node instanceof LogicalPlan.Project || node instanceof LogicalPlan.Filter) {
      above.push(node);
      node = node.inputs().get(0);
    }
    if (!(node instanceof LogicalPlan.Aggregate aggregate)) {
      if (!(node instanceof LogicalPlan.StreamScan || node instanceof LogicalPlan.TableScan
          || node instanceof EventTimeWatermark || node instanceof LogicalPlan.TimeWindow)) {
        throw SparkErrors.notYetOnSpark(describe(node));
      }
      throw new IllegalArgumentException("Keyed rows are an aggregation's, and the query does"
          + " not aggregate under its projections and filters: " + query.plan().explain());
    }
    Frame frame = aggregate(aggregate, translate(aggregate.input()));
    // The aggregate's first columns are its group key; the frames above compose columns over
    // the same Dataset, so these stay valid up to the result.
    List<Column> keys = new ArrayList<>();
    for (int key = 0; key < aggregate.keyTypes().size(); key++) {
      keys.add(frame.columns().get(key).cast(SparkTypes.of(aggregate.keyTypes().get(key)))
          .as(KEY + key));
    }
    Column admitted = lit(true);
    for (LogicalPlan step : above) {
      if (step instanceof LogicalPlan.Filter filter) {
        Column condition = columns(frame).translate(filter.condition());
        admitted = admitted.and(coalesce(condition, lit(false)));
      } else {
        frame = project((LogicalPlan.Project) step, frame);
      }
    }
    List<Column> extra = new ArrayList<>(keys);
    extra.add(admitted.as(ADMITTED));
    return new SparkQuery(frame.dataset().select(resultColumns(query, frame, extra)),
        query.outputMode(), true, keys.size());
  }

  /** The query's columns, named and typed as the query has them, then {@code extra}. */
  private static Column[] resultColumns(LogicalQuery query, Frame frame, List<Column> extra)
      throws SQLException {
    List<Column> result = new ArrayList<>();
    for (int i = 0; i < query.columns().size(); i++) {
      LogicalField field = query.columns().get(i);
      result.add(frame.columns().get(i).cast(SparkTypes.of(field.type())).as(field.name()));
    }
    result.addAll(extra);
    return result.toArray(new Column[0]);
  }

  private Frame translate(LogicalPlan node) throws SQLException {
    if (node instanceof LogicalPlan.StreamScan scan) {
      return scan(scan);
    }
    if (node instanceof LogicalPlan.TableScan scan) {
      SparkSession spark = sources.isEmpty() ? SparkSession.active()
          : sources.values().iterator().next().sparkSession();
      return TableJoinTranslator.scan(scan, spark, this::freshName);
    }
    if (node instanceof EventTimeWatermark watermark) {
      if (watermark.idleTimeoutMs() > 0) {
        // Spark's watermark moves only with rows: the option would be silently ignored.
        throw SparkErrors.notYetOnSpark("A stream's 'watermark.idle-timeout'");
      }
      return watermark(watermark, translate(watermark.input()));
    }
    if (node instanceof LogicalPlan.Filter filter) {
      Frame input = translate(filter.input());
      Column condition = columns(input).translate(filter.condition());
      return new Frame(input.dataset().filter(condition), input.columns(), input.windowParts(),
          input.window());
    }
    if (node instanceof LogicalPlan.Project project) {
      return project(project, translate(project.input()));
    }
    if (node instanceof LogicalPlan.TimeWindow window) {
      return window(window, translate(window.input()));
    }
    if (node instanceof LogicalPlan.Aggregate aggregate) {
      return aggregate(aggregate, translate(aggregate.input()));
    }
    if (node instanceof LogicalPlan.Deduplicate dedup) {
      return DeduplicationTranslator.translate(dedup, translate(dedup.input()), this::freshName);
    }
    if (node instanceof LogicalPlan.StreamStreamJoin join) {
      return JoinTranslator.join(join, translate(join.left()), translate(join.right()),
          this::freshName);
    }
    if (node instanceof LogicalPlan.StreamTableJoin join) {
      return TableJoinTranslator.join(join, translate(join.left()), translate(join.right()),
          this::freshName);
    }
    throw SparkErrors.notYetOnSpark(describe(node));
  }

  /** What the query wrote that became {@code node}, for the error that refuses it. */
  private static String describe(LogicalPlan node) {
    if (node instanceof LogicalPlan.Unsupported unsupported) {
      return unsupported.description();
    }
    if (node instanceof LogicalPlan.StreamStreamJoin
        || node instanceof LogicalPlan.StreamTableJoin) {
      return "A join";
    }
    // As the planner names its deduplication (what the message said before the logical plan).
    return node instanceof LogicalPlan.Deduplicate
        ? "The relational operator LogicalStreamDeduplicate"
        : "The relational operator " + node.getClass().getSimpleName();
  }

  private Frame scan(LogicalPlan.StreamScan scan) {
    Dataset<Row> source = sources.get(scan.stream());
    if (source == null) {
      throw new IllegalArgumentException("no Spark Dataset for the stream " + scan.stream()
          + "; given: " + sources.keySet());
    }
    // Fresh names: the columns are then found by name whatever the query renames.
    List<Column> columns = new ArrayList<>();
    for (LogicalField field : scan.columns()) {
      columns.add(col(field.name()));
    }
    return Frame.plain(source, columns).materialized(this::freshName);
  }

  private Frame watermark(EventTimeWatermark watermark, Frame input) throws SQLException {
    if (!(watermark.input() instanceof LogicalPlan.StreamScan
        || watermark.input() instanceof LogicalPlan.TableScan)) {
      // Freshet puts it right above the scan; Spark needs a column by name, as the scan has.
      throw SparkErrors.notYetOnSpark("A watermark on a computed column");
    }

    String column = input.dataset().columns()[watermark.eventTimeIndex()];
    return new Frame(input.dataset().withWatermark(column, watermark.delayMs() + " milliseconds"),
        input.columns(), input.windowParts(), input.window());
  }

  private Frame project(LogicalPlan.Project project, Frame input) throws SQLException {
    ColumnTranslator translator = columns(input);
    List<Column> columns = new ArrayList<>();
    List<Frame.WindowPart> parts = new ArrayList<>();
    for (Expression e : project.projections()) {
      columns.add(translator.translate(e));
      parts.add(windowPart(e, input));
    }
    return new Frame(input.dataset(), columns, parts, input.window());
  }

  /** Whether {@code e} is a window's start or end, as such or cast (as GROUP BY TUMBLE has it). */
  private static Frame.WindowPart windowPart(Expression e, Frame input) {
    Expression bare = e instanceof Expression.Call call
        && call.operator() == Expression.Operator.CAST ? call.operands().get(0) : e;
    return bare instanceof Expression.ColumnRef ref ? input.windowParts().get(ref.index())
        : Frame.WindowPart.NONE;
  }

  private Frame window(LogicalPlan.TimeWindow window, Frame input) throws SQLException {
    if (input.window() != null) {
      throw SparkErrors.notYetOnSpark("A window over a window");
    }
    Column eventTime = input.columns().get(window.eventTimeIndex());
    // HOP(ts, slide, size) in SQL; window(ts, size, slide) in Spark.
    Column windowColumn = window.tumbling()
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

  private Frame aggregate(LogicalPlan.Aggregate aggregate, Frame input) throws SQLException {
    if (aggregate.grouping() != LogicalPlan.Grouping.SIMPLE) {
      throw SparkErrors.notOnSpark("GROUPING SETS, ROLLUP or CUBE",
          "Run one query per grouping, or run it on Freshet's own executor");
    }
    // Spark keeps the watermark of a window only on the window struct: group by it, not by
    // its start or end, and take those from it afterwards.
    List<Column> keys = new ArrayList<>();
    boolean byWindow = false;
    for (int key : aggregate.groupKeys()) {
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
    for (AggregateCall call : aggregate.calls()) {
      String name = freshName();
      // The planner's type (SUM of INTEGER is an INTEGER, Spark's a BIGINT), so that expressions
      // above the aggregation compute as Freshet's do.
      aggregates.add(aggregateFunction(call, input).cast(SparkTypes.of(call.type())).as(name));
      aggregateNames.add(name);
    }
    Dataset<Row> grouped = aggregate(input.dataset(), keys, aggregates);

    List<Column> columns = new ArrayList<>();
    List<Frame.WindowPart> parts = new ArrayList<>();
    int next = byWindow ? 1 : 0;
    for (int key : aggregate.groupKeys()) {
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
    String name = call.name();
    if (call.distinct()) {
      throw SparkErrors.notOnSpark(name + "(DISTINCT ...)", "Spark refuses distinct aggregates"
          + " on streams: run the query on Freshet's own executor, or aggregate the distinct"
          + " values in two steps outside the stream");
    }
    if (call.args().size() > 1) {
      throw SparkErrors.notYetOnSpark(name + " with " + call.args().size() + " arguments",
          "aggregate one column at a time, or run the query on Freshet's own executor");
    }
    Column argument = call.args().isEmpty() ? lit(1)
        : input.columns().get(call.args().get(0));
    if (call.filterArg() >= 0) {
      // FILTER (WHERE c): only rows where c is TRUE count; NULL elsewhere, which every one of
      // these aggregate functions skips.
      argument = when(input.columns().get(call.filterArg()).equalTo(lit(true)), argument);
    }
    switch (call.kind()) {
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

  private static ColumnTranslator columns(Frame input) {
    return new ColumnTranslator(input.columns());
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
