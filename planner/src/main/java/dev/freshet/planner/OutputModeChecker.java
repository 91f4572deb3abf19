package dev.freshet.planner;

import dev.freshet.executor.operators.OutputMode;
import dev.freshet.planner.errors.PlannerErrors;
import dev.freshet.planner.errors.PlanningException;
import dev.freshet.planner.rel.StreamDeduplicate;
import dev.freshet.planner.rel.StreamTopN;
import dev.freshet.planner.rel.StreamingRels;
import dev.freshet.planner.rules.StreamingAggregateRule;
import dev.freshet.sql.parser.EmitMode;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Intersect;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Minus;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sample;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlSessionTableFunction;
import org.apache.calcite.sql.SqlWindowTableFunction;
import org.apache.calcite.util.Util;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Decides a continuous query's output mode and rejects queries that cannot run in it, following
 * Spark's {@code UnsupportedOperationChecker.checkForStreaming}.
 *
 * <p>Every rejection is a {@link PlanningException} whose message names the rule that failed and
 * how to change the query. Its SQLSTATE is {@code 42KDE} (Spark's code for an operation that a
 * streaming query cannot have) for Spark's rules, and {@code 0A000} for what Spark runs but
 * Freshet does not yet. Each rule is one method, documented with the Spark rule it mirrors.
 *
 * <p>The rules run in Spark's order: the query must read a stream; the output mode must suit the
 * outermost streaming aggregation; every operator must be valid on a stream, checked bottom up;
 * last, no streaming aggregation may read another.
 *
 * <p>Spark's rules that Freshet's SQL cannot express are left out: commands inside a query,
 * {@code monotonically_increasing_id()}, and the {@code [flat]MapGroupsWithState} rules.
 * Non-deterministic functions such as {@code RAND()} are allowed, as in Spark.
 */
final class OutputModeChecker {
  private OutputModeChecker() {
  }

  /**
   * Returns the output mode of {@code rel} given its {@code EMIT} clause (null if none), or throws
   * if the query cannot run in that mode.
   *
   * @param rel the logical plan of a query, before the streaming rules
   * @param emit the mode of the query's {@code EMIT} clause, or null for the default: UPDATE if
   *     the query aggregates a stream, APPEND otherwise
   */
  static OutputMode check(RelNode rel, @Nullable EmitMode emit) throws PlanningException {
    checkReadsStream(rel);
    List<Aggregate> aggregates = new ArrayList<>();
    collectStreamingAggregates(rel, aggregates);
    boolean topN = StreamTopN.in(rel);
    OutputMode mode = emit == null
        ? (aggregates.isEmpty() && !topN ? OutputMode.APPEND : OutputMode.UPDATE)
        : OutputMode.valueOf(emit.name());

    if (topN) {
      checkTopNIsLast(rel);
      checkTopNNotAppend(mode);
    }
    if (aggregates.isEmpty()) {
      if (!topN) {
        checkCompleteHasAggregation(mode);
      }
    } else {
      // As in Spark, the output mode is checked against the outermost aggregation; an
      // aggregation below it fails checkNoChainedAggregation.
      Aggregate outermost = aggregates.get(0);
      checkAppendHasWatermarkKey(outermost, mode);
      checkUpdateHasNoSessionWindow(outermost, mode, emit);
    }
    checkOperators(rel, mode, emit);
    for (Aggregate aggregate : aggregates) {
      checkNoChainedAggregation(aggregate, mode, emit);
      // In APPEND every aggregation emits a group only once it is final: each needs a watermark.
      checkAppendHasWatermarkKey(aggregate, mode);
    }
    return mode;
  }

  /**
   * The checks of single operators, bottom up as Spark's {@code plan.foreachUp}, so that the
   * operator nearest the stream is reported first.
   */
  private static void checkOperators(RelNode rel, OutputMode mode, @Nullable EmitMode emit)
      throws PlanningException {
    for (RelNode input : rel.getInputs()) {
      checkOperators(input, mode, emit);
    }
    if (rel instanceof Aggregate && isStreaming(((Aggregate) rel).getInput())) {
      Aggregate aggregate = (Aggregate) rel;
      checkNoGroupingSets(aggregate);
      for (AggregateCall call : aggregate.getAggCallList()) {
        checkCall(call);
      }
    } else if (rel instanceof Join join && isStreaming(join.getLeft())
        && isStreaming(join.getRight())) {
      checkStreamStreamJoin(join, mode, emit);
    } else if (rel instanceof Join join && StreamTableJoinCheck.isStreamTableJoin(join)) {
      StreamTableJoinCheck.check(join);
    } else if (rel instanceof Join || rel instanceof Correlate) {
      checkNoJoin(rel);
    } else if (rel instanceof Union) {
      checkUnion((Union) rel);
    } else if (rel instanceof Minus) {
      checkExcept((Minus) rel);
    } else if (rel instanceof Intersect) {
      checkNoIntersect((Intersect) rel);
    } else if (rel instanceof Sort) {
      checkSort((Sort) rel, mode);
      checkNoOffset((Sort) rel);
      checkLimit((Sort) rel, mode, emit);
    } else if (rel instanceof Sample) {
      checkNoSample((Sample) rel);
    } else if (rel instanceof StreamDeduplicate dedup) {
      checkDeduplicateReadsRows(dedup);
    } else if (rel instanceof StreamTopN topN) {
      checkTopNReadsRows(topN);
    }
    checkNoOverWindow(rel);
    checkNoSubquery(rel);
  }

  /**
   * A top-N's ranks change when better rows come, so it emits an upsert of its ranks (UPDATE)
   * or all of them (COMPLETE), never rows that stay as they are (APPEND). Freshet-specific;
   * Spark has no top-N on a stream.
   */
  private static void checkTopNNotAppend(OutputMode mode) throws PlanningException {
    if (mode == OutputMode.APPEND) {
      throw PlannerErrors.outputModeNotSupported("EMIT APPEND is not supported for a top-N per"
              + " group (ROW_NUMBER() OVER (...) with rn <= N, or rn = 1 in descending order),"
              + " because a better row that comes later changes the row at a rank",
          "Use EMIT UPDATE (only the ranks that changed) or EMIT COMPLETE (every rank)");
    }
  }

  /**
   * Nothing but projections and filters may read a top-N's rows: an aggregation, join,
   * deduplication or union above it would need the rows a rank no longer has taken back, which
   * Freshet cannot do yet.
   */
  private static void checkTopNIsLast(RelNode rel) throws PlanningException {
    if (rel instanceof StreamTopN) {
      return;
    }
    if (rel instanceof Project || rel instanceof Filter) {
      checkTopNIsLast(rel.getInput(0));
      return;
    }
    if (StreamTopN.in(rel)) {
      throw PlannerErrors.notSupported("A top-N per group (ROW_NUMBER() OVER (...) with"
              + " rn <= N) must be the last step of a continuous query, but its rows are read by "
              + rel.getRelTypeName().replace("Logical", "") + ", which would need the rows a"
              + " rank no longer has taken back",
          "Query the top-N's result as it is, e.g. from a materialized view with EMIT"
              + " COMPLETE");
    }
  }

  /**
   * A continuous query must read a stream.
   *
   * <p>Spark: "Queries without streaming sources cannot be executed with writeStream.start()".
   */
  private static void checkReadsStream(RelNode rel) throws PlanningException {
    if (!isStreaming(rel)) {
      throw PlannerErrors.notValidOnStream(
          "A continuous query needs a stream to read, and this query reads none",
          "Select FROM a stream (SHOW STREAMS lists them), or INSERT the rows INTO a stream and"
              + " query that");
    }
  }

  /**
   * APPEND emits a group once it is final, which only a watermark on a grouping column can tell:
   * the watermark column itself, an expression of it such as {@code TUMBLE(ts, ...)}, or the
   * {@code window_start} or {@code window_end} of a window table function over it.
   *
   * <p>Spark: "Append output mode not supported when there are streaming aggregations on streaming
   * DataFrames/DataSets without watermark" (4.x: {@code STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION},
   * SQLSTATE 42KDE), checked on the outermost aggregation.
   */
  private static void checkAppendHasWatermarkKey(Aggregate aggregate, OutputMode mode)
      throws PlanningException {
    if (mode != OutputMode.APPEND) {
      return;
    }
    for (int key : aggregate.getGroupSet()) {
      if (derives(aggregate.getInput(), key, FreshetPlanner::isWatermarkColumn)) {
        return;
      }
    }
    // A session already groups by a window of ts: it lacks the watermark, and UPDATE is no way
    // out (a merged-away session could not be withdrawn).
    String fix = readsSessions(aggregate.getInput())
        ? "Add WATERMARK FOR ts AS ts - INTERVAL '5' SECOND to the stream, ts being the"
            + " session's time column; or use EMIT COMPLETE"
        : "Add WATERMARK FOR ts AS ts - INTERVAL '5' SECOND to the stream and group by a"
            + " window of ts, e.g. GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE); or use EMIT"
            + " UPDATE or EMIT COMPLETE";
    throw PlannerErrors.outputModeNotSupported(
        "EMIT APPEND is not supported for a streaming aggregation without a watermark on a"
            + " grouping column, because no group could ever be final", fix);
  }

  /**
   * Whether {@code rel}'s rows are put in SESSION windows right below an aggregation: by the
   * group function in a projection, or by the table function.
   */
  private static boolean readsSessions(RelNode rel) {
    if (rel instanceof Project project) {
      return RexUtil.find(SqlKind.SESSION).anyContain(project.getProjects())
          || readsSessions(project.getInput());
    }
    if (rel instanceof Filter filter) {
      return readsSessions(filter.getInput());
    }
    return rel instanceof TableFunctionScan scan && scan.getCall() instanceof RexCall call
        && call.getOperator() instanceof SqlSessionTableFunction;
  }

  /**
   * COMPLETE emits the whole result after every batch, which only an aggregation keeps bounded.
   *
   * <p>Spark: "Complete output mode not supported when there are no streaming aggregations on
   * streaming DataFrames/Datasets".
   */
  private static void checkCompleteHasAggregation(OutputMode mode) throws PlanningException {
    if (mode == OutputMode.COMPLETE) {
      throw PlannerErrors.outputModeNotSupported(
          "EMIT COMPLETE is not supported for a query without a streaming aggregation, because"
              + " its complete result would be the whole stream",
          "Add a GROUP BY, or use EMIT APPEND");
    }
  }

  /**
   * UPDATE cannot emit session windows: when sessions merge, the merged session has other bounds,
   * so the rows emitted for the old ones could not be replaced. A session window is a grouping
   * column computed by {@code SESSION(ts, gap)} in {@code GROUP BY}, or the {@code window_start} or
   * {@code window_end} of the {@code SESSION} table function.
   *
   * <p>Spark: "Update output mode not supported for session window on streaming
   * DataFrames/DataSets", checked on the outermost aggregation.
   */
  private static void checkUpdateHasNoSessionWindow(Aggregate aggregate, OutputMode mode,
      @Nullable EmitMode emit) throws PlanningException {
    if (mode != OutputMode.UPDATE) {
      return;
    }
    for (int key : aggregate.getGroupSet()) {
      if (derives(aggregate.getInput(), key, OutputModeChecker::isSessionWindow)) {
        throw PlannerErrors.outputModeNotSupported(
            emitText(mode, emit) + " is not supported for session windows, because merging"
                + " sessions changes their bounds and the rows emitted for the old bounds could"
                + " not be replaced",
            "Use EMIT APPEND, which emits a session once the watermark closes it, or EMIT"
                + " COMPLETE");
      }
    }
  }

  /**
   * Grouping sets aggregate one row into several groups.
   *
   * <p>Spark: "Grouping Sets is not supported on streaming DataFrames/Datasets".
   */
  private static void checkNoGroupingSets(Aggregate aggregate) throws PlanningException {
    if (aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
      throw PlannerErrors.notValidOnStream(
          "Grouping sets (CUBE, ROLLUP, GROUPING SETS) are not supported on streams",
          "Group by plain columns, or run one query per grouping");
    }
  }

  /**
   * Sorting a stream would wait for its end; only the complete result of an aggregation, which
   * COMPLETE emits after every batch, can be sorted.
   *
   * <p>Spark: "Sorting is not supported on streaming DataFrames/Datasets, unless it is on
   * aggregated DataFrame/Dataset in Complete output mode".
   */
  private static void checkSort(Sort sort, OutputMode mode) throws PlanningException {
    if (!sort.getCollation().getFieldCollations().isEmpty()
        && !containsCompleteData(sort.getInput(), mode)) {
      throw PlannerErrors.outputModeNotSupported(
          "ORDER BY is not supported on a stream, unless it sorts the result of an aggregation"
              + " in EMIT COMPLETE mode",
          "Remove the ORDER BY, or sort the result of a GROUP BY and use EMIT COMPLETE");
    }
  }

  /**
   * A stream has no first rows to skip.
   *
   * <p>Spark: "Offset is not supported on streaming DataFrames/Datasets".
   */
  private static void checkNoOffset(Sort sort) throws PlanningException {
    if (sort.offset != null && isStreaming(sort.getInput())) {
      throw PlannerErrors.notValidOnStream("OFFSET is not supported on a stream",
          "Remove the OFFSET; to leave rows out, filter them with WHERE");
    }
  }

  /**
   * LIMIT ({@code FETCH FIRST}) on a stream. UPDATE cannot limit: the rows a batch updates are not
   * the first rows of the result. COMPLETE can limit the result of an aggregation, which it
   * emits whole. Anywhere else, as in APPEND or before an aggregation, the limit must count the
   * rows of all batches so far, which Spark does with a stateful limit and Freshet does not yet.
   *
   * <p>Spark: "Limits are not supported on streaming DataFrames/Datasets in Update output mode";
   * {@code StreamingGlobalLimitExec} otherwise, unless on an aggregation in Complete mode.
   */
  private static void checkLimit(Sort sort, OutputMode mode, @Nullable EmitMode emit)
      throws PlanningException {
    if (sort.fetch == null || !isStreaming(sort.getInput())) {
      return;
    }
    if (mode == OutputMode.UPDATE) {
      throw PlannerErrors.outputModeNotSupported(
          "LIMIT is not supported on a stream in " + emitText(mode, emit) + " mode, because the"
              + " rows that a batch updates are not the first rows of the result",
          "Remove the LIMIT, or limit the result of a GROUP BY and use EMIT COMPLETE");
    }
    if (mode == OutputMode.APPEND || !hasStreamingAggregate(sort.getInput())) {
      throw PlannerErrors.notSupported(
          "LIMIT in " + emitText(mode, emit) + " mode is not supported yet when it limits the"
              + " rows of a stream rather than the result of an aggregation: it needs a stateful"
              + " limit that counts the rows of earlier batches",
          "Remove the LIMIT, or limit the result of a GROUP BY and use EMIT COMPLETE");
    }
  }

  /**
   * Sampling a stream.
   *
   * <p>Spark: "Sampling is not supported on streaming DataFrames/Datasets".
   */
  private static void checkNoSample(Sample sample) throws PlanningException {
    if (isStreaming(sample.getInput())) {
      throw PlannerErrors.notValidOnStream("TABLESAMPLE is not supported on a stream",
          "Remove it; to keep a fraction of the rows, filter them, e.g. WHERE RAND() < 0.1");
    }
  }

  /**
   * Window functions ({@code ... OVER (...)}) compute over rows that come in later batches; a
   * stream has time windows only. The one use that runs, {@code ROW_NUMBER()} filtered to row 1
   * (a deduplication), is no window function by the time the plan gets here.
   *
   * <p>Spark: {@code NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING} (SQLSTATE 42KDE), "Window
   * function is not supported in ROW_NUMBER() (as column `rn`) on streaming DataFrames/Datasets.
   * Structured Streaming only supports time-window aggregation using the WINDOW function."
   */
  private static void checkNoOverWindow(RelNode rel) throws PlanningException {
    if (rel.getInputs().isEmpty() || !isStreaming(rel)) {
      return;
    }
    if (rel instanceof Project) {
      // Named by column, not function: Calcite rewrites SUM(x) OVER w into COUNT and $SUM0 over w.
      Project project = (Project) rel;
      for (int i = 0; i < project.getProjects().size(); i++) {
        if (RexOver.containsOver(project.getProjects().get(i))) {
          throw overWindow(" (column " + project.getRowType().getFieldNames().get(i)
              + " has one)");
        }
      }
      return;
    }
    boolean[] found = new boolean[1];
    rel.accept(new RexShuttle() {
      @Override public RexNode visitOver(RexOver over) {
        found[0] = true;
        return over;
      }
    });
    if (found[0]) {
      throw overWindow("");
    }
  }

  private static PlanningException overWindow(String where) {
    return PlannerErrors.notValidOnStream("Window functions with OVER (...) are not"
            + " supported on a stream, because a stream has time windows only" + where,
        "Aggregate per time window instead, e.g. GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE); to"
            + " keep each key's first row, filter on ROW_NUMBER(): SELECT * FROM (SELECT *,"
            + " ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts) AS rn FROM s) WHERE rn = 1");
  }

  /**
   * A deduplication keeps the first of the rows it reads, which must then be final: rows of a
   * stream or of an append-only operator, not those of an aggregation, which change.
   *
   * <p>Spark: a {@code Deduplicate} after an aggregation in UPDATE or COMPLETE mode fails its
   * global-watermark check; Freshet refuses it in every mode.
   */
  private static void checkDeduplicateReadsRows(StreamDeduplicate dedup)
      throws PlanningException {
    if (hasStreamingAggregate(dedup.getInput())) {
      throw PlannerErrors.notSupported("Deduplication with ROW_NUMBER() of a streaming"
              + " aggregation's result is not supported, because the aggregation changes the rows"
              + " it emitted",
          "Deduplicate the stream's rows before aggregating them");
    }
  }

  /**
   * A top-N keeps only the N best rows of each group because its input is append-only: a row it
   * pushed out never comes back. An aggregation's rows change, so a group's old value could
   * come back into the ranks. Freshet-specific, as the top-N.
   */
  private static void checkTopNReadsRows(StreamTopN topN) throws PlanningException {
    if (hasStreamingAggregate(topN.getInput())) {
      throw PlannerErrors.notSupported("A top-N per group (ROW_NUMBER() OVER (...) with"
              + " rn <= N) of a streaming aggregation's result is not supported, because the"
              + " aggregation changes the rows it emitted",
          "Rank the stream's rows, or keep the aggregation in a materialized view with EMIT"
              + " COMPLETE and sort it when you read it: SELECT * FROM v ORDER BY n DESC LIMIT 3");
    }
  }

  /**
   * UNION of a stream and a query that reads none, which Spark rejects because the other side
   * would be read again in every batch, and UNION without ALL, which would have to remember every
   * row of every stream to drop duplicates. {@code UNION ALL} of streams runs, as Spark's
   * {@code union}.
   *
   * <p>Spark: "Union between streaming and batch DataFrames/Datasets is not supported".
   */
  private static void checkUnion(Union union) throws PlanningException {
    int streams = 0;
    for (RelNode input : union.getInputs()) {
      streams += isStreaming(input) ? 1 : 0;
    }
    if (streams == 0) {
      return;
    }
    if (streams < union.getInputs().size()) {
      throw PlannerErrors.notValidOnStream(
          "UNION of a stream and a query that reads no stream is not supported",
          "Query the stream alone; to add rows to it, INSERT them INTO the stream");
    }
    if (!union.all) {
      throw PlannerErrors.notSupported("UNION of streams without ALL is not supported, because"
          + " dropping duplicates would keep every row of every stream",
          "Write UNION ALL, and GROUP BY the columns if duplicates must be counted once");
    }
  }

  /**
   * EXCEPT. With a stream on the right, no row could be known to be absent before the stream
   * ends; with a stream on the left only, Spark runs an anti join, which Freshet does not yet.
   *
   * <p>Spark: "Except on a streaming DataFrame/Dataset on the right is not supported".
   */
  private static void checkExcept(Minus minus) throws PlanningException {
    List<RelNode> inputs = minus.getInputs();
    for (RelNode right : inputs.subList(1, inputs.size())) {
      if (isStreaming(right)) {
        throw PlannerErrors.notValidOnStream(
            "EXCEPT with a stream on the right is not supported, because no row could be known"
                + " to be absent from a stream before it ends",
            "Filter the rows with WHERE instead, e.g. WHERE k NOT IN ('a', 'b')");
      }
    }
    if (isStreaming(inputs.get(0))) {
      throw PlannerErrors.notSupported("EXCEPT on a stream is not supported yet",
          "Filter the rows with WHERE instead, e.g. WHERE k NOT IN ('a', 'b')");
    }
  }

  /**
   * INTERSECT with a stream on either side.
   *
   * <p>Spark: "Intersect of streaming DataFrames/Datasets is not supported".
   */
  private static void checkNoIntersect(Intersect intersect) throws PlanningException {
    if (isStreaming(intersect)) {
      throw PlannerErrors.notValidOnStream("INTERSECT is not supported on a stream",
          "Filter the rows with WHERE instead, e.g. WHERE k IN ('a', 'b')");
    }
  }

  /**
   * A {@code LATERAL} join (a correlate) over a stream: the other joins of a stream are
   * stream-stream joins ({@link #checkStreamStreamJoin}) or stream-table joins
   * ({@link StreamTableJoinCheck}).
   *
   * <p>Spark: a lateral join is not supported on a streaming plan.
   */
  private static void checkNoJoin(RelNode join) throws PlanningException {
    if (isStreaming(join)) {
      throw PlannerErrors.notSupported("A LATERAL join is not supported on a stream",
          "Compute the values in the SELECT list instead, e.g. SELECT k, UPPER(k) AS u FROM s");
    }
  }


  /**
   * A join of two streams runs in APPEND mode only, as Spark's: a joined row, once emitted, is
   * never taken back; so do the aggregations below it, whose rows then never change.
   *
   * <p>Spark: "Join between two streaming DataFrames/Datasets is not supported in Update output
   * mode, only in Append output mode".
   */
  private static void checkStreamStreamJoin(Join join, OutputMode mode, @Nullable EmitMode emit)
      throws PlanningException {
    if (mode != OutputMode.APPEND) {
      throw PlannerErrors.outputModeNotSupported("A join of two streams is not supported in "
              + emitText(mode, emit) + " mode, only in EMIT APPEND, because a joined row, once"
              + " emitted, is never changed",
          "Use EMIT APPEND (the default of a query without GROUP BY)");
    }
    // An input may be an aggregation: in APPEND it emits a group once, in the batch whose
    // watermark passes the group's event time (a window's end), which is then later than the
    // previous batch's watermark; so its rows are never late for the join, and no later row has
    // an event time at or before this batch's watermark, which is what lets the join evict.
  }


  /**
   * Subqueries ({@code IN (SELECT ...)}, {@code EXISTS}, scalar subqueries) are joins, which
   * Freshet does not run on streams yet.
   *
   * <p>Spark: they become joins, checked by the join rules.
   */
  private static void checkNoSubquery(RelNode rel) throws PlanningException {
    boolean[] found = new boolean[1];
    rel.accept(new RexShuttle() {
      @Override public RexNode visitSubQuery(RexSubQuery subQuery) {
        found[0] = true;
        return subQuery;
      }
    });
    if (found[0]) {
      throw PlannerErrors.notSupported("Subqueries (IN, EXISTS or scalar) are not supported yet in"
              + " a continuous query, because they are joins",
          "Write the values out instead, e.g. WHERE k IN ('a', 'b')");
    }
  }

  /**
   * An aggregation that reads the result of another streaming aggregation (or of
   * {@code SELECT DISTINCT}). In UPDATE and COMPLETE the inner aggregation emits again the groups
   * it changes, and the outer one would count them twice; Spark calls it a possible correctness
   * issue due to the global watermark. In APPEND Spark runs it, Freshet does not yet.
   *
   * <p>Spark: "Detected pattern of possible 'correctness' issue due to global watermark. The query
   * contains stateful operation which can emit rows older than the current watermark plus allowed
   * late record delay, ..." ({@code checkStreamingQueryGlobalWatermarkLimit}); Spark 3.4 and
   * older: "Multiple streaming aggregations are not supported with streaming DataFrames/Datasets".
   */
  private static void checkNoChainedAggregation(Aggregate aggregate, OutputMode mode,
      @Nullable EmitMode emit) throws PlanningException {
    if (!hasStreamingAggregate(aggregate.getInput())) {
      return;
    }
    if (mode == OutputMode.APPEND) {
      // The inner aggregation emits a group once, in the batch whose watermark passes its event
      // time (a window's end); grouped by that window as it is, the outer one finalizes each of
      // its groups in that same batch, with every inner row it will ever get. A new window over
      // the inner's rows could close before they come.
      checkAppendHasWatermarkKey(aggregate, mode);
      if (windowsAgain(aggregate.getInput())) {
        throw PlannerErrors.notSupported("An aggregation over new windows of another streaming"
                + " aggregation's result is not supported yet in " + emitText(mode, emit)
                + " mode, because a window of the outer one could close before the inner one"
                + " emits its rows",
            "Group the outer aggregation by the inner one's windows, e.g. GROUP BY"
                + " window_start, window_end");
      }
      return;
    }
    throw chainedAggregation(mode, emit);
  }

  /**
   * Spark's refusal of an aggregation over another in UPDATE or COMPLETE mode; also for a query
   * whose inner aggregation the conversion replaced by a row of VALUES, whose plan then reads no
   * stream ({@code SELECT COUNT(*) FROM (SELECT COUNT(*) FROM s)}).
   */
  static PlanningException chainedAggregation(OutputMode mode, @Nullable EmitMode emit) {
    return PlannerErrors.outputModeNotSupported("An aggregation over the result of another"
            + " streaming aggregation (or of SELECT DISTINCT) is not supported in "
            + emitText(mode, emit) + " mode, because the inner aggregation emits again every"
            + " group it changes and the outer one would count it twice (a possible correctness"
            + " issue due to the global watermark)",
        "Aggregate the stream once");
  }

  /**
   * Whether {@code rel}, down to the aggregations below it, assigns windows: a window table
   * function, or a {@code TUMBLE}, {@code HOP} or {@code SESSION} group function.
   */
  private static boolean windowsAgain(RelNode rel) {
    RelNode r = rel.stripped();
    if (r instanceof Aggregate) {
      return false;
    }
    if (r instanceof TableFunctionScan) {
      return true;
    }
    if (r instanceof Project project && (RexUtil.find(SqlKind.TUMBLE)
        .anyContain(project.getProjects()) || RexUtil.find(SqlKind.HOP)
        .anyContain(project.getProjects()) || RexUtil.find(SqlKind.SESSION)
        .anyContain(project.getProjects()))) {
      return true;
    }
    for (RelNode input : r.getInputs()) {
      if (windowsAgain(input)) {
        return true;
      }
    }
    return false;
  }

  private static void checkCall(AggregateCall call) throws PlanningException {
    if (!StreamingAggregateRule.isSupported(call)) {
      throw PlannerErrors.notSupported("Aggregate " + call + " is not supported on streams. Use"
          + " COUNT(*) or COUNT, SUM, MIN, MAX or AVG of one column, with DISTINCT or FILTER"
          + " (WHERE ...) if needed");
    }
  }

  /**
   * Whether the result of {@code rel} is complete in every batch, so that it can be sorted: it
   * reads no stream, or it aggregates one in COMPLETE mode.
   */
  private static boolean containsCompleteData(RelNode rel, OutputMode mode) {
    return !isStreaming(rel) || (mode == OutputMode.COMPLETE && hasStreamingAggregate(rel));
  }

  private static boolean isStreaming(RelNode rel) {
    return StreamingRels.isStreaming(rel);
  }

  private static boolean hasStreamingAggregate(RelNode rel) {
    List<Aggregate> aggregates = new ArrayList<>();
    collectStreamingAggregates(rel, aggregates);
    return !aggregates.isEmpty();
  }

  /** Collects the aggregations over a stream in {@code rel}, outermost first. */
  private static void collectStreamingAggregates(RelNode rel, List<Aggregate> aggregates) {
    if (rel instanceof Aggregate && isStreaming(((Aggregate) rel).getInput())) {
      aggregates.add((Aggregate) rel);
    }
    for (RelNode input : rel.getInputs()) {
      collectStreamingAggregates(input, aggregates);
    }
  }

  /** How a message names the output mode, saying so when the query has no {@code EMIT}. */
  private static String emitText(OutputMode mode, @Nullable EmitMode emit) {
    String text = "EMIT " + mode.name();
    if (emit != null) {
      return text;
    }
    return text + (mode == OutputMode.APPEND ? " (the default without aggregation)"
        : " (the default for an aggregation)");
  }

  /** A test of one column of one relational expression. */
  private interface ColumnTest {
    boolean test(RelNode rel, int column);
  }

  /**
   * Whether {@code column} of {@code rel}, or a column it is computed from, passes {@code test}.
   * Follows projections, filters and window table functions ({@code window_start} and
   * {@code window_end} are computed from the time column that the {@code DESCRIPTOR} names).
   */
  private static boolean derives(RelNode rel, int column, ColumnTest test) {
    RelNode r = rel.stripped();
    if (test.test(r, column)) {
      return true;
    }
    if (r instanceof Project) {
      Project project = (Project) r;
      for (int input : RelOptUtil.InputFinder.bits(project.getProjects().get(column))) {
        if (derives(project.getInput(), input, test)) {
          return true;
        }
      }
      return false;
    }
    if (r instanceof Filter || r instanceof StreamDeduplicate
        || r instanceof StreamTopN && column < r.getInput(0).getRowType().getFieldCount()) {
      // Rows as they come in: each column is its input's.
      return derives(r.getInput(0), column, test);
    }
    if (r instanceof Aggregate a) {
      // A grouping column is the value it groups by.
      return column < a.getGroupCount() && derives(a.getInput(), a.getGroupSet().nth(column), test);
    }
    if (r instanceof Union) {
      for (RelNode input : r.getInputs()) {
        if (!derives(input, column, test)) {
          return false;
        }
      }
      return true;
    }
    if (r instanceof Join join) {
      int leftColumns = join.getLeft().getRowType().getFieldCount();
      return column < leftColumns ? derives(join.getLeft(), column, test)
          : derives(join.getRight(), column - leftColumns, test);
    }
    if (r instanceof TableFunctionScan) {
      int timeColumn = windowTimeColumn((TableFunctionScan) r);
      if (timeColumn < 0) {
        return false;
      }
      RelNode input = r.getInputs().get(0);
      boolean windowBound = column >= input.getRowType().getFieldCount();
      return derives(input, windowBound ? timeColumn : column, test);
    }
    return false;
  }

  /**
   * The time column (of its input) of a window table function ({@code TUMBLE}, {@code HOP},
   * {@code SESSION}), or -1 if {@code scan} is not one.
   */
  private static int windowTimeColumn(TableFunctionScan scan) {
    if (!(scan.getCall() instanceof RexCall) || scan.getInputs().size() != 1) {
      return -1;
    }
    RexCall call = (RexCall) scan.getCall();
    if (!(call.getOperator() instanceof SqlWindowTableFunction)) {
      return -1;
    }
    for (RexNode operand : call.getOperands()) {
      if (operand.getKind() == SqlKind.DESCRIPTOR) {
        RexNode column = ((RexCall) operand).getOperands().get(0);
        return column instanceof RexInputRef ? ((RexInputRef) column).getIndex() : -1;
      }
    }
    return -1;
  }

  /**
   * Whether {@code column} of {@code rel} is a session window: computed by the {@code $SESSION}
   * group function, or the {@code window_start} or {@code window_end} of the {@code SESSION}
   * table function.
   */
  private static boolean isSessionWindow(RelNode rel, int column) {
    if (rel instanceof Project) {
      return containsKind(((Project) rel).getProjects().get(column), SqlKind.SESSION);
    }
    if (rel instanceof TableFunctionScan && rel.getInputs().size() == 1) {
      RexNode call = ((TableFunctionScan) rel).getCall();
      return call instanceof RexCall
          && ((RexCall) call).getOperator() instanceof SqlSessionTableFunction
          && column >= rel.getInputs().get(0).getRowType().getFieldCount();
    }
    return false;
  }

  private static boolean containsKind(RexNode node, SqlKind kind) {
    try {
      node.accept(new RexVisitorImpl<Void>(true) {
        @Override public Void visitCall(RexCall call) {
          if (call.getKind() == kind) {
            throw Util.FoundOne.NULL;
          }
          return super.visitCall(call);
        }
      });
      return false;
    } catch (Util.FoundOne found) {
      return true;
    }
  }
}
