package dev.freshet.planner.exec;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.operators.AggregateCall;
import dev.freshet.executor.operators.AggregateFunction;
import dev.freshet.executor.operators.BatchTimeOperator;
import dev.freshet.executor.operators.CalcOperator;
import dev.freshet.executor.operators.ChangelogInput;
import dev.freshet.executor.operators.CollectOperator;
import dev.freshet.executor.operators.EventTimeKey;
import dev.freshet.executor.operators.EventTimeWatermarkOperator;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.operators.RowErrors;
import dev.freshet.executor.operators.SortKey;
import dev.freshet.executor.operators.SortOperator;
import dev.freshet.executor.operators.AggregateRows;
import dev.freshet.executor.operators.SessionRows;
import dev.freshet.executor.operators.SessionWindowOperator;
import dev.freshet.executor.operators.SessionWindowSpec;
import dev.freshet.executor.operators.StatefulAggregateOperator;
import dev.freshet.executor.operators.OutputMode;
import dev.freshet.executor.operators.RowCalc;
import dev.freshet.executor.operators.AggregateRows;
import dev.freshet.executor.operators.StatefulAggregateSpec;
import dev.freshet.executor.operators.StatefulOperator;
import dev.freshet.executor.operators.join.JoinCondition;
import dev.freshet.executor.operators.join.JoinKind;
import dev.freshet.executor.operators.join.StreamStreamJoinOperator;
import dev.freshet.executor.operators.join.StreamStreamJoinSpec;
import dev.freshet.executor.operators.join.TimeRange;
import dev.freshet.executor.operators.rank.DeduplicateSpec;
import dev.freshet.executor.operators.rank.StreamDeduplicateOperator;
import dev.freshet.executor.operators.rank.StreamTopNOperator;
import dev.freshet.executor.operators.rank.TopNSpec;
import dev.freshet.executor.operators.TimeWindowOperator;
import dev.freshet.executor.operators.UnionOperator;
import dev.freshet.executor.operators.ValueKind;
import dev.freshet.executor.operators.VectorOperator;
import dev.freshet.executor.operators.VectorWatermarkOperator;
import dev.freshet.executor.operators.VectorWindowOperator;
import dev.freshet.executor.runtime.ColumnarInput;
import dev.freshet.executor.runtime.SourceInput;
import dev.freshet.executor.runtime.StreamingPipeline;
import dev.freshet.executor.source.Source;
import dev.freshet.executor.source.SupportsColumnarReads;
import dev.freshet.executor.source.SupportsParallelReads;
import dev.freshet.executor.source.SupportsQueryReaders;
import dev.freshet.executor.state.GroupKey;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.StateStoreProviderFactory;
import dev.freshet.executor.state.providers.StateStoreProviders;
import dev.freshet.executor.vector.VectorType;
import dev.freshet.planner.PlannedQuery;
import dev.freshet.planner.catalog.ReferenceTable;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.ViewChangelog;
import dev.freshet.planner.errors.PlanningException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexProgram;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Builds the executor's operator pipeline from an {@link ExecPlan}: the plan a query was just
 * planned into, or the one a view stored in its checkpoint when it was created.
 *
 * <p>Calcs are compiled to byte code; a stateful aggregate becomes one
 * {@link StatefulAggregateOperator}; the stream scan becomes the pipeline's source.
 *
 * <p>With more than one input task and a source that can be read in slices
 * ({@link SupportsParallelReads}), the operators between the stream and the aggregation
 * are built once per task, each copy ending in the aggregation's
 * {@link StatefulAggregateOperator#inputTask(int) input} for its task, so that a batch's rows can
 * be read and partially aggregated on several threads. Each copy compiles its own calcs and
 * keeps its own window bounds; watermark copies share their original's watermark.
 *
 * <p>When the source can hand over vector batches and the operators below the first aggregation
 * are in the columnar subset, each input task also gets a columnar copy of them
 * ({@link StreamingPipeline#columnarInput()}), which the runtime reads instead of rows; see
 * {@code columnarInput} and docs/internals.md. {@link #withColumnarPath withColumnarPath(false)}
 * builds the row path alone.
 */
public final class ExecPlanBuilder {
  private final JavaTypeFactory typeFactory;
  /** What the calcs read as the current time: the batch's (see {@link #clocked}). */
  private final BatchTime batchTime;
  /** Whether a calc compiled so far reads the batch's time. */
  private boolean readsBatchTime;
  private final String queryId;
  private final StateStoreProviderFactory stateStores;
  private final java.util.concurrent.Executor partitionExecutor;
  private final int inputTasks;
  /** What the calcs do with a row whose expressions fail. */
  private RowErrors rowErrors = RowErrors.failing();
  /** The state TTL of the stateful operators, 0 for none (see {@link #withStateTtl}). */
  private long stateTtlMs;
  /** Whether plans that can read vector batches get a columnar input (see {@link #build}). */
  private boolean columnar = true;
  /** Finds the reference tables that stream-table joins read; none by default. */
  private java.util.function.Function<String, java.util.Optional<ReferenceTable>> tables =
      name -> java.util.Optional.empty();

  /**
   * Creates a builder for one query.
   *
   * @param typeFactory the planner's type factory
   * @param queryId the query id, which names its state stores
   */
  public ExecPlanBuilder(JavaTypeFactory typeFactory, String queryId) {
    this(typeFactory, queryId, StateStoreProviders.inMemory(), null);
  }

  /**
   * Creates a builder for one query.
   *
   * @param typeFactory the planner's type factory
   * @param queryId the query id, which names its state stores
   * @param stateStores creates the provider of each state partition
   * @param partitionExecutor runs state partitions in parallel; null runs them on the batch thread
   */
  public ExecPlanBuilder(JavaTypeFactory typeFactory, String queryId,
      StateStoreProviderFactory stateStores,
      java.util.concurrent.@Nullable Executor partitionExecutor) {
    this(typeFactory, queryId, stateStores, partitionExecutor, 1);
  }

  /**
   * Creates a builder for one query whose batches may be read by several input tasks.
   *
   * @param typeFactory the planner's type factory
   * @param queryId the query id, which names its state stores
   * @param stateStores creates the provider of each state partition
   * @param partitionExecutor runs state partitions and input tasks in parallel; null runs them
   *     on the batch thread
   * @param inputTasks how many threads may read one batch (when the plan and the source allow)
   */
  public ExecPlanBuilder(JavaTypeFactory typeFactory, String queryId,
      StateStoreProviderFactory stateStores,
      java.util.concurrent.@Nullable Executor partitionExecutor, int inputTasks) {
    if (inputTasks < 1) {
      throw new IllegalArgumentException("inputTasks must be positive: " + inputTasks);
    }
    this.inputTasks = partitionExecutor == null ? 1 : inputTasks;
    this.typeFactory = requireNonNull(typeFactory, "typeFactory");
    this.batchTime = new BatchTime(typeFactory);
    this.queryId = requireNonNull(queryId, "queryId");
    this.stateStores = requireNonNull(stateStores, "stateStores");
    this.partitionExecutor = partitionExecutor;
  }

  /**
   * Makes the pipelines built from now on handle a row whose expressions fail as
   * {@code rowErrors} says (by default they fail the batch).
   */
  public ExecPlanBuilder withRowErrors(RowErrors rowErrors) {
    this.rowErrors = requireNonNull(rowErrors, "rowErrors");
    return this;
  }

  /**
   * Makes the stateful operators of the pipelines built from now on drop a key that no batch
   * wrote for {@code ttlMs} of processing time ({@code 'state.ttl'}, Flink's state TTL); 0, the
   * default, keeps keys until the watermark evicts them, or forever.
   *
   * <pre>{@code
   * builder.withStateTtl(3_600_000).build(plan, streams);   // 'state.ttl' = '1 h'
   * }</pre>
   */
  public ExecPlanBuilder withStateTtl(long ttlMs) {
    if (ttlMs < 0) {
      throw new IllegalArgumentException("a state TTL must not be negative: " + ttlMs);
    }
    this.stateTtlMs = ttlMs;
    return this;
  }

  /** Gives each of {@code operators} the builder's state TTL; returns them. */
  private <T extends StatefulOperator> List<T> expiring(List<T> operators) {
    for (StatefulOperator op : operators) {
      op.expireStateAfter(stateTtlMs);
    }
    return operators;
  }

  /**
   * Makes the pipelines built from now on read rows only ({@code false}), or also vector batches
   * where the plan and the source allow ({@code true}, the default): how tests compare the two.
   */
  public ExecPlanBuilder withColumnarPath(boolean columnar) {
    this.columnar = columnar;
    return this;
  }

  /**
   * Makes the pipelines built from now on find the reference tables their stream-table joins
   * read in {@code catalog}, by name, as they are declared when the pipeline is built.
   *
   * <pre>{@code
   * builder.withTables(engine.catalog()).build(plan, stream);
   * }</pre>
   */
  public ExecPlanBuilder withTables(dev.freshet.planner.catalog.Catalog catalog) {
    requireNonNull(catalog, "catalog");
    this.tables = catalog::table;
    return this;
  }

  /** Builds the operators of {@code query}, wired from its source to a collecting sink. */
  public StreamingPipeline build(PlannedQuery query) throws PlanningException {
    return build(ExecPlanGenerator.generate(query), query.sources());
  }

  /**
   * Builds the operators of {@code plan}, reading {@code streams} (each stream it scans, in any
   * order), wired from the streams to a collecting sink. A plan of several scans (a join, a
   * union) reads its streams on the batch thread, as rows, each into its own chain.
   *
   * @throws UnreadablePlanException if {@code plan} scans a stream not in {@code streams} or not
   *     as it is declared, or an operator's parameters do not fit together
   */
  public StreamingPipeline build(ExecPlan plan, List<StreamTable> streams) {
    return build(plan, streams, false);
  }

  private StreamingPipeline build(ExecPlan plan, List<StreamTable> streams,
      boolean groupChanges) {
    // A session aggregation runs on the batch thread: the general wiring builds it.
    if (!plan.hasSeveralInputs() && !hasSessionAggregate(plan.nodes())) {
      return build(plan.nodes(), streamOf(plan.scans(), streams), groupChanges);
    }
    return buildTree(plan, streams, groupChanges);
  }

  /** The stream the one scan of a plan reads. */
  private static StreamTable streamOf(List<ExecNode> scans, List<StreamTable> streams) {
    if (scans.isEmpty()) {
      throw new UnreadablePlanException("it does not start with a scan of a stream", null);
    }
    String name = ((ExecOperator.Scan) scans.get(0).operator()).stream();
    for (StreamTable stream : streams) {
      if (stream.name().equals(name)) {
        return stream;
      }
    }
    throw new UnreadablePlanException("it reads stream " + name + ", which is not one of "
        + streams.stream().map(StreamTable::name).toList(), null);
  }

  /**
   * Builds the operators of {@code plan}, reading {@code stream}, wired from the stream to a
   * collecting sink.
   *
   * @throws UnreadablePlanException if {@code plan} does not read {@code stream} as it is
   *     declared, or an operator's parameters do not fit together
   */
  public StreamingPipeline build(ExecPlan plan, StreamTable stream) {
    return build(plan.nodes(), stream, false);
  }

  /**
   * Builds the operators of {@code plan} up to its stateful aggregation, whose rows (with a
   * {@link dev.freshet.executor.operators.GroupChange} each, evicted groups included) the
   * collecting sink receives, and compiles the calcs above it: what a materialized view that
   * reads its aggregation's state needs, computing the view's rows from the state when they are
   * read instead of at every batch.
   *
   * <pre>{@code
   * SplitPlan split = builder.buildUpToAggregate(viewPlan, stream);
   * Object[] aggregateRow = new AggregateRows(split.aggregate()).row(key, saved);
   * // then split.finalCalcs() in order: the view's row, or none if a condition rejects it
   * }</pre>
   *
   * @throws UnreadablePlanException if the plan has no stateful aggregation in UPDATE mode, or
   *     operators other than calcs above it
   */
  public SplitPlan buildUpToAggregate(ExecPlan plan, StreamTable stream) {
    return buildUpToAggregate(plan, List.of(stream));
  }

  /**
   * As {@link #buildUpToAggregate(ExecPlan, StreamTable)}, for a plan that may read several
   * streams below its aggregation.
   */
  public SplitPlan buildUpToAggregate(ExecPlan plan, List<StreamTable> streams) {
    List<ExecNode> nodes = plan.nodes();
    int last = lastAggregate(nodes);
    if (nodes.get(last).operator() instanceof ExecOperator.SessionAggregate session) {
      throw new UnreadablePlanException("its aggregation by session window runs in "
          + session.outputMode() + " mode, not UPDATE", null);
    }
    ExecOperator.StatefulAggregate aggregate =
        (ExecOperator.StatefulAggregate) nodes.get(last).operator();
    if (aggregate.outputMode() != OutputMode.UPDATE) {
      throw new UnreadablePlanException("its aggregation runs in " + aggregate.outputMode()
          + " mode, not UPDATE", null);
    }
    List<FinalCalc> calcs = new ArrayList<>();
    for (int i = last + 1; i < nodes.size(); i++) {
      ExecNode node = nodes.get(i);
      if (!(node.operator() instanceof ExecOperator.Calc calc)) {
        throw new UnreadablePlanException("operator " + node.id() + " (" + node.kind()
            + ") follows the aggregation, where only calcs can be computed from its state", null);
      }
      RexProgram program = program(calc, node, nodes.get(i - 1));
      calcs.add(new FinalCalc(compile(program),
          node.output().size(), program.getCondition() != null));
    }
    // Only calcs follow the aggregation: every scan is below it.
    StreamingPipeline pipeline = build(ExecPlan.of(nodes.subList(0, last + 1)), streams, true);
    return new SplitPlan(pipeline, spec(aggregate, retracts(plan, streams)), calcs);
  }

  /**
   * Builds the operators of {@code plan} above its (last) stateful aggregation, wired to a
   * collecting sink: what turns the aggregation's rows into the query's, for a reader that has
   * the aggregation's rows from its state (a COMPLETE view restoring its result after a restart).
   *
   * <pre>{@code
   * AfterAggregate after = builder.buildAfterAggregate(plan);
   * after.input().startBatch(batch);
   * for (...) for (Object[] row : after.rowsOf(key, saved)) after.input().push(row);
   * after.input().finishBatch(batch);
   * List<Object[]> rows = after.output().takeRows();
   * }</pre>
   *
   * @throws UnreadablePlanException if the plan has no stateful aggregation
   */
  public AfterAggregate buildAfterAggregate(ExecPlan plan) {
    return buildAfterAggregate(plan, List.of());
  }

  /**
   * As {@link #buildAfterAggregate(ExecPlan)}, for a plan that reads {@code streams}: over a
   * view's retracting changes the aggregation keeps its state as such an aggregation does.
   */
  public AfterAggregate buildAfterAggregate(ExecPlan plan, List<StreamTable> streams) {
    List<ExecNode> nodes = plan.nodes();
    int last = nodes.size() - 1;
    while (last > 0 && !(nodes.get(last).operator() instanceof ExecOperator.TopN)
        && !(nodes.get(last).operator() instanceof ExecOperator.StatefulAggregate)
        && !(nodes.get(last).operator() instanceof ExecOperator.SessionAggregate)) {
      last--;
    }
    CollectOperator output = new CollectOperator();
    Operator downstream = output;
    for (int i = nodes.size() - 1; i > last; i--) {
      downstream = rowByRow(nodes.get(i), nodes.get(i - 1), downstream, new LinkedHashMap<>(),
          false);
    }
    if (last > 0 && nodes.get(last).operator() instanceof ExecOperator.TopN topN) {
      // A top-N's state holds each rank's row: the row, then the rank of its key.
      int rank = topN.keys().size();
      return new AfterAggregate(clocked(downstream), output, topN.operatorId(),
          (key, row) -> {
            if ((Long) ((GroupKey) key).get(rank) == 0) {
              // Rank 0 holds the group's write time for a state TTL, not a row.
              return List.<Object[]>of();
            }
            Object[] ranked = java.util.Arrays.copyOf(row, row.length + 1);
            ranked[row.length] = ((GroupKey) key).get(rank);
            return List.<Object[]>of(ranked);
          });
    }
    if (last > 0 && nodes.get(last).operator() instanceof ExecOperator.SessionAggregate session) {
      SessionRows rows = new SessionRows(sessionSpec(session));
      return new AfterAggregate(clocked(downstream), output, session.operatorId(), rows::rows);
    }
    ExecOperator.StatefulAggregate aggregate =
        (ExecOperator.StatefulAggregate) nodes.get(lastAggregate(nodes)).operator();
    AggregateRows rows = new AggregateRows(spec(aggregate, retracts(plan, streams)));
    return new AfterAggregate(clocked(downstream), output, aggregate.operatorId(),
        (key, saved) -> List.<Object[]>of(rows.row(key, saved)));
  }

  /** Whether {@code nodes} have an aggregation by session window. */
  private static boolean hasSessionAggregate(List<ExecNode> nodes) {
    for (ExecNode node : nodes) {
      if (node.operator() instanceof ExecOperator.SessionAggregate) {
        return true;
      }
    }
    return false;
  }

  private SessionWindowSpec sessionSpec(ExecOperator.SessionAggregate session) {
    return new SessionWindowSpec(session.operatorId(),
        session.groupSet().stream().mapToInt(Integer::intValue).toArray(), session.startKey(),
        session.endKey(), session.gapMs(), calls(session.partialCalls()),
        calls(session.mergeCalls()), session.outputMode(), session.statePartitions());
  }

  /** The position of the last stateful aggregation in {@code nodes}. */
  private static int lastAggregate(List<ExecNode> nodes) {
    int last = nodes.size() - 1;
    while (last > 0 && !(nodes.get(last).operator() instanceof ExecOperator.StatefulAggregate
        || nodes.get(last).operator() instanceof ExecOperator.SessionAggregate)) {
      last--;
    }
    if (last <= 0) {
      throw new UnreadablePlanException("it has no stateful aggregation", null);
    }
    return last;
  }

  /**
   * The operators above a plan's aggregation or top-N ({@link #buildAfterAggregate}).
   *
   * @param input where the aggregation's (or top-N's) rows go in
   * @param output where the query's rows come out
   * @param operatorId the stateful operator whose state holds those rows
   * @param stateRows the rows of one entry (key, saved value) of that state
   */
  public record AfterAggregate(Operator input, CollectOperator output, int operatorId,
      StateRows stateRows) {
    /** The rows of {@code key}, whose saved state is {@code saved}: one, or one per session. */
    public List<Object[]> rowsOf(Object key, Object[] saved) {
      return stateRows.rows(key, saved);
    }
  }

  /** The rows an aggregation or a top-N emits for one key of its saved state. */
  @FunctionalInterface
  public interface StateRows {
    /** The rows of {@code key}, whose saved state is {@code saved}. */
    List<Object[]> rows(Object key, Object[] saved);
  }

  /**
   * A plan split at its stateful aggregation ({@link #buildUpToAggregate}).
   *
   * @param pipeline from the stream to the aggregation, whose rows it collects
   * @param aggregate the aggregation, whose state the calcs' input rows come from
   * @param finalCalcs the calcs above the aggregation, in order
   */
  public record SplitPlan(StreamingPipeline pipeline, StatefulAggregateSpec aggregate,
      List<FinalCalc> finalCalcs) {
    public SplitPlan {
      finalCalcs = List.copyOf(finalCalcs);
    }
  }

  /**
   * A compiled calc above an aggregation: thread-safe (the generated class keeps no state of
   * its own), so readers on any thread may share it, each with its own output array.
   *
   * @param calc the filter and projections
   * @param width how many columns it emits
   * @param filters whether it has a condition (a HAVING clause), which may reject a row
   */
  public record FinalCalc(RowCalc calc, int width, boolean filters) {
  }

  /**
   * Builds a plan of several scans: from its root down, each operator made before those that
   * feed it; a scan ends a chain, whose first operator its stream's rows are pushed into. No
   * input tasks, no columnar input: such a pipeline reads its streams on the batch thread.
   */
  private StreamingPipeline buildTree(ExecPlan plan, List<StreamTable> streams,
      boolean groupChanges) {
    List<ExecNode> nodes = plan.nodes();
    ExecNode root = nodes.get(nodes.size() - 1);
    CollectOperator output = root.operator() instanceof ExecOperator.StatefulAggregate
        ? CollectOperator.adopting() : new CollectOperator();
    TreeWiring wiring = new TreeWiring(plan, streams, output, groupChanges);
    try {
      wiring.wire(root, output);
    } catch (IllegalArgumentException e) {
      throw new UnreadablePlanException("its operators do not fit together: "
          + e.getMessage(), e);
    }
    // Each scan's source is made last: a query reader opens connections, which nothing above
    // may leave open by failing.
    List<SourceInput> inputs = new ArrayList<>();
    for (Map.Entry<Integer, Operator> head : wiring.heads.entrySet()) {
      StreamTable stream = wiring.scanned.get(head.getKey());
      inputs.add(new SourceInput(stream.source() instanceof SupportsQueryReaders shared
          ? shared.newQueryReader() : stream.source(), clocked(head.getValue())));
    }
    return StreamingPipeline.ofInputs(inputs, output,
        List.copyOf(wiring.watermarks.values()),
        expiring(List.copyOf(wiring.stateful.values())),
        rowErrors);
  }

  /** The operators of a plan of several scans, wired from the root down. */
  private final class TreeWiring {
    private final ExecPlan plan;
    private final List<StreamTable> streams;
    private final CollectOperator output;
    private final boolean groupChanges;
    /** Per scan node id, the first operator of its chain, and the stream it reads. */
    final Map<Integer, Operator> heads = new TreeMap<>();
    final Map<Integer, StreamTable> scanned = new TreeMap<>();
    /** The watermark and stateful operators by node id: from the sources up. */
    final Map<Integer, EventTimeWatermarkOperator> watermarks = new TreeMap<>();
    final Map<Integer, StatefulOperator> stateful = new TreeMap<>();

    TreeWiring(ExecPlan plan, List<StreamTable> streams, CollectOperator output,
        boolean groupChanges) {
      this.plan = plan;
      this.streams = streams;
      this.output = output;
      this.groupChanges = groupChanges;
    }

    /** Makes {@code node}'s operator, emitting into {@code downstream}, and those below it. */
    void wire(ExecNode node, Operator downstream) {
      ExecOperator operator = node.operator();
      List<ExecNode> inputs = plan.inputs(node);
      if (operator instanceof ExecOperator.Scan) {
        StreamTable stream = streamOf(List.of(node), streams);
        checkScan(List.of(node), stream);
        heads.put(node.id(), downstream);
        scanned.put(node.id(), stream);
      } else if (operator instanceof ExecOperator.Union) {
        UnionOperator union = new UnionOperator(inputs.size(), downstream);
        for (int i = 0; i < inputs.size(); i++) {
          checkSameColumns(node, inputs.get(i));
          wire(inputs.get(i), union.input(i));
        }
      } else if (operator instanceof ExecOperator.StreamJoin join) {
        if (inputs.size() != 2) {
          throw new IllegalArgumentException("join " + node.id() + " reads two inputs, but the"
              + " plan gives it " + inputs.size());
        }
        StreamStreamJoinOperator op = new StreamStreamJoinOperator(
            joinSpec(join, node, inputs.get(0), inputs.get(1)),
            stateStores.create(new StateStoreId(queryId, join.operatorId(), 0)),
            stateStores.create(new StateStoreId(queryId, join.operatorId(), 1)), downstream);
        stateful.put(node.id(), op);
        wire(inputs.get(0), op.left());
        wire(inputs.get(1), op.right());
      } else if (operator instanceof ExecOperator.Deduplicate dedup) {
        ExecNode input = single(node, inputs);
        StreamDeduplicateOperator op = deduplicate(dedup, node, input, downstream);
        stateful.put(node.id(), op);
        wire(input, op);
      } else if (operator instanceof ExecOperator.SessionAggregate session) {
        SessionWindowOperator op = new SessionWindowOperator(sessionSpec(session),
            providers(session.operatorId(), session.statePartitions()), downstream);
        stateful.put(node.id(), op);
        wire(single(node, inputs), op);
      } else if (operator instanceof ExecOperator.TopN topN) {
        ExecNode input = single(node, inputs);
        StreamTopNOperator op = topN(topN, node, input, downstream);
        stateful.put(node.id(), op);
        wire(input, op);
      } else if (operator instanceof ExecOperator.StatefulAggregate aggregate) {
        StatefulAggregateOperator op = new StatefulAggregateOperator(spec(aggregate),
            providers(aggregate), downstream, partitionExecutor, 1);
        if (groupChanges && downstream == output) {
          op.emitGroupChanges();
        }
        stateful.put(node.id(), op);
        wire(single(node, inputs), op);
      } else {
        ExecNode input = single(node, inputs);
        Operator op = rowByRow(node, input, downstream, watermarks, false);
        wire(input, op);
      }
    }

    private ExecNode single(ExecNode node, List<ExecNode> inputs) {
      if (inputs.size() != 1) {
        throw new IllegalArgumentException("operator " + node.id() + " (" + node.kind()
            + ") reads one input, but the plan gives it " + inputs.size());
      }
      return inputs.get(0);
    }

    private void checkSameColumns(ExecNode union, ExecNode input) {
      if (union.output().size() != input.output().size()) {
        throw new IllegalArgumentException("union " + union.id() + " emits "
            + union.output().size() + " columns, but its input " + input.id() + " has "
            + input.output().size());
      }
    }
  }

  /**
   * The executor's spec of a join {@code node} of {@code left} and {@code right}, its residual
   * condition compiled over the joined row.
   */
  private StreamStreamJoinSpec joinSpec(ExecOperator.StreamJoin join, ExecNode node,
      ExecNode left, ExecNode right) {
    int width = left.output().size() + right.output().size();
    if (node.output().size() != width) {
      throw new IllegalArgumentException("join " + node.id() + " emits " + node.output().size()
          + " columns, but its inputs have " + width);
    }
    JoinCondition residual = null;
    if (join.residual() != null) {
      RexProgram program = RexProgramJson.read(join.residual(), typeFactory);
      if (program.getInputRowType().getFieldCount() != width) {
        throw new IllegalArgumentException("the condition of join " + node.id() + " reads "
            + program.getInputRowType().getFieldCount() + " columns, not " + width);
      }
      RowCalc calc = compile(program);
      // The join tests pairs on its one thread, so one scratch row serves every pair.
      Object[] scratch = new Object[program.getOutputRowType().getFieldCount()];
      residual = joined -> calc.apply(joined, scratch);
    }
    ExecOperator.TimeRangeSpec range = join.timeRange();
    return new StreamStreamJoinSpec(join.operatorId(), JoinKind.valueOf(join.joinType()),
        ints(join.leftKeys()), ints(join.rightKeys()), left.output().size(),
        right.output().size(), join.leftEventTime(), join.rightEventTime(),
        range == null ? null : new TimeRange(range.lowerMs(), range.lowerInclusive(),
            range.upperMs(), range.upperInclusive()),
        residual);
  }

  /** Compiles {@code program}, noting whether it reads the batch's time. */
  private RowCalc compile(RexProgram program) {
    if (BatchTime.reads(program)) {
      readsBatchTime = true;
    }
    return CalcCompiler.compile(program, typeFactory, batchTime);
  }

  /**
   * The head of a chain: {@code head} itself, or, when a calc of the plan reads the current time,
   * {@code head} behind a {@link BatchTimeOperator} that sets the batch's time first. Called once
   * the chain's calcs are compiled.
   */
  private Operator clocked(Operator head) {
    return readsBatchTime ? new BatchTimeOperator(batchTime::startBatch, head) : head;
  }

  /**
   * The operator of deduplication {@code node} reading the rows of {@code input}, emitting into
   * {@code downstream}, its keys in partition 0 of its operator's state.
   */
  private StreamDeduplicateOperator deduplicate(ExecOperator.Deduplicate dedup, ExecNode node,
      ExecNode input, Operator downstream) {
    if (node.inputIds().size() != 1 || node.inputIds().get(0) != input.id()) {
      throw new UnreadablePlanException("operator " + node.id() + " (" + node.kind()
          + ") reads nodes " + node.inputIds() + ", where one input, node " + input.id()
          + ", was expected", null);
    }
    int width = input.output().size();
    List<Integer> columns = new ArrayList<>(dedup.keys());
    columns.addAll(List.of(dedup.orderIndex(), dedup.eventTimeIndex(), dedup.expiryIndex()));
    for (int i = 0; i < columns.size(); i++) {
      // A key is a column; the other columns may be -1, none.
      int column = columns.get(i);
      if (column < (i < dedup.keys().size() ? 0 : -1) || column >= width
          || node.output().size() != width) {
        throw new UnreadablePlanException("deduplication " + node.id() + " reads column "
            + column + " of " + width + " and emits " + node.output().size(), null);
      }
    }
    DeduplicateSpec spec = new DeduplicateSpec(dedup.operatorId(), ints(dedup.keys()),
        dedup.orderIndex(), dedup.nullsFirst(), dedup.eventTimeIndex(), dedup.expiryIndex(),
        dedup.expiryDelayMs());
    return new StreamDeduplicateOperator(spec,
        stateStores.create(new StateStoreId(queryId, dedup.operatorId(), 0)), downstream);
  }

  /**
   * The operator of top-N {@code node} reading the rows of {@code input}, emitting into
   * {@code downstream}, its ranks in partition 0 of its operator's state.
   */
  private StreamTopNOperator topN(ExecOperator.TopN topN, ExecNode node, ExecNode input,
      Operator downstream) {
    if (node.inputIds().size() != 1 || node.inputIds().get(0) != input.id()) {
      throw new UnreadablePlanException("operator " + node.id() + " (" + node.kind()
          + ") reads nodes " + node.inputIds() + ", where one input, node " + input.id()
          + ", was expected", null);
    }
    int width = input.output().size();
    List<Integer> columns = new ArrayList<>(topN.keys());
    List<SortKey> order = new ArrayList<>();
    for (ExecOperator.SortField field : topN.order()) {
      columns.add(field.index());
      order.add(new SortKey(field.index(), field.descending(), field.nullsFirst()));
    }
    int emitted = width + 1 + (topN.newKeyFlag() ? 1 : 0);
    for (int column : columns) {
      if (column < 0 || column >= width || node.output().size() != emitted) {
        throw new IllegalArgumentException("top-N " + node.id() + " reads column " + column
            + " of " + width + " and emits " + node.output().size() + " columns, not "
            + emitted);
      }
    }
    TopNSpec spec = new TopNSpec(topN.operatorId(), ints(topN.keys()), order, topN.limit(),
        topN.outputMode(), topN.newKeyFlag());
    return new StreamTopNOperator(spec,
        stateStores.create(new StateStoreId(queryId, topN.operatorId(), 0)), downstream);
  }

  private static int[] ints(List<Integer> values) {
    return values.stream().mapToInt(Integer::intValue).toArray();
  }

  private StreamingPipeline build(List<ExecNode> nodes, StreamTable stream,
      boolean groupChanges) {
    checkScan(nodes, stream);
    // An aggregation's emitted rows are fresh arrays: a pipeline that ends with one keeps them.
    CollectOperator output = nodes.get(nodes.size() - 1).operator()
        instanceof ExecOperator.StatefulAggregate ? CollectOperator.adopting()
        : new CollectOperator();
    // The first copy of each watermark node's operator, by node id: input tasks' copies feed it.
    Map<Integer, EventTimeWatermarkOperator> watermarks = new LinkedHashMap<>();
    // Per input task, its watermark operators by node id: the columnar pipelines feed them.
    List<Map<Integer, EventTimeWatermarkOperator>> taskWatermarks = new ArrayList<>();
    taskWatermarks.add(watermarks);
    List<StatefulAggregateOperator> stateful = new ArrayList<>();
    // Every stateful operator, aggregations and deduplications, from the sink down.
    List<StatefulOperator> allStateful = new ArrayList<>();
    List<Operator> extraInputTasks = new ArrayList<>();
    // A view's changes retract rows: the aggregation above them inverts (the planner allows one).
    boolean retracts = stream instanceof ViewChangelog changes && changes.retracts();
    boolean splittable = stream.source() instanceof SupportsParallelReads
        || stream.source() instanceof SupportsQueryReaders shared && shared.readersPartition();
    Operator downstream = output;
    // The aggregation whose input is read by several tasks (only one reads the stream directly).
    StatefulAggregateOperator split = null;
    int splitAt = -1;
    try {
      for (int i = nodes.size() - 1; i >= 1; i--) {
        ExecNode node = nodes.get(i);
        if (node.operator() instanceof ExecOperator.Deduplicate dedup) {
          StreamDeduplicateOperator op = deduplicate(dedup, node, nodes.get(i - 1), downstream);
          allStateful.add(op);
          downstream = op;
          continue;
        }
        if (node.operator() instanceof ExecOperator.TopN topN) {
          StreamTopNOperator op = topN(topN, node, nodes.get(i - 1), downstream);
          allStateful.add(op);
          downstream = op;
          continue;
        }
        if (!(node.operator() instanceof ExecOperator.StatefulAggregate aggregate)) {
          downstream = rowByRow(node, nodes.get(i - 1), downstream, watermarks, false);
          continue;
        }
        int tasks = splittable && readsStreamDirectly(nodes.subList(1, i)) ? inputTasks : 1;
        StatefulAggregateOperator op = new StatefulAggregateOperator(spec(aggregate, retracts),
            providers(aggregate), downstream, partitionExecutor, tasks);
        if (groupChanges && downstream == output) {
          op.emitGroupChanges();
        }
        stateful.add(op);
        allStateful.add(op);
        if (tasks > 1) {
          splitAt = i;
          split = op;
        }
        downstream = op;
      }
      for (int t = 1; split != null && t < inputTasks; t++) {
        // Task t's copies of the row-by-row operators below, on its own slices of a batch;
        // built once the first copies are, whose watermarks the copies feed.
        Operator copy = split.inputTask(t);
        Map<Integer, EventTimeWatermarkOperator> copies = new LinkedHashMap<>();
        for (int j = splitAt - 1; j >= 1; j--) {
          copy = rowByRow(nodes.get(j), nodes.get(j - 1), copy, watermarks, true);
          if (copy instanceof EventTimeWatermarkOperator w) {
            copies.put(nodes.get(j).id(), w);
          }
        }
        taskWatermarks.add(copies);
        extraInputTasks.add(copy);
      }
    } catch (IllegalArgumentException e) {
      throw new UnreadablePlanException("its operators do not fit together: "
          + e.getMessage(), e);
    }
    java.util.Collections.reverse(stateful);
    java.util.Collections.reverse(allStateful);
    if (retracts) {
      downstream = new ChangelogInput(nodes.get(0).output().size(), downstream);
    }
    ColumnarInput columnarInput = columnar && !stateful.isEmpty()
        ? columnarInput(nodes, stream, stateful.get(0), taskWatermarks) : null;
    // A source with positions per query (a Kafka topic) gets a reader for this query alone,
    // made last: nothing above can fail with its connections open.
    Source source = stream.source() instanceof SupportsQueryReaders shared
        ? shared.newQueryReader() : stream.source();
    return new StreamingPipeline(source, clocked(downstream), output,
        List.copyOf(watermarks.values()), expiring(allStateful),
        List.copyOf(extraInputTasks), extraInputTasks.isEmpty() ? null : partitionExecutor,
        rowErrors, columnarInput);
  }

  /**
   * The columnar pipelines of the input tasks, or null when the plan keeps its row path: that is
   * unless the source {@linkplain SupportsColumnarReads hands over vectors}, the operators between
   * the scan and the first aggregation are calcs in the columnar subset
   * ({@link VectorCalcCompiler}), watermarks and tumbling windows, and the aggregation
   * {@linkplain StatefulAggregateOperator#acceptsVectors takes vectors} of their output. Each
   * task's copy compiles its own kernels and ends in the aggregation's
   * {@linkplain StatefulAggregateOperator#vectorInput vector input} for the task; its watermarks
   * feed the task's row watermark operators, whose batch ends fold them into the watermark.
   */
  private @Nullable ColumnarInput columnarInput(List<ExecNode> nodes, StreamTable stream,
      StatefulAggregateOperator aggregate,
      List<Map<Integer, EventTimeWatermarkOperator>> taskWatermarks) {
    if (!(stream.source() instanceof SupportsColumnarReads)) {
      return null;
    }
    List<RelDataTypeField> fields = stream.getRowType(typeFactory).getFieldList();
    VectorType[] sourceTypes = new VectorType[fields.size()];
    for (int i = 0; i < sourceTypes.length; i++) {
      sourceTypes[i] = VectorCalcCompiler.vectorType(fields.get(i).getType());
    }
    RexBuilder rexBuilder = new RexBuilder(typeFactory);
    // The stateless nodes below the aggregation, and the types each one reads.
    int at = 1;
    List<VectorType[]> inputs = new ArrayList<>();
    List<RexProgram> programs = new ArrayList<>();
    VectorType[] types = sourceTypes;
    for (; at < nodes.size(); at++) {
      ExecOperator op = nodes.get(at).operator();
      if (op instanceof ExecOperator.StatefulAggregate) {
        break;
      }
      inputs.add(types);
      if (op instanceof ExecOperator.Watermark w) {
        if (types[w.eventTimeIndex()] != VectorType.LONG) {
          return null;
        }
        programs.add(null);
      } else if (op instanceof ExecOperator.Window w) {
        // Tumbling windows only: a row of a HOP is several rows.
        if (w.slideMs() != w.sizeMs() || types[w.eventTimeIndex()] != VectorType.LONG) {
          return null;
        }
        types = java.util.Arrays.copyOf(types, types.length + 2);
        types[types.length - 2] = VectorType.LONG;
        types[types.length - 1] = VectorType.LONG;
        programs.add(null);
      } else if (op instanceof ExecOperator.Calc calc) {
        RexProgram program = RexProgramJson.read(calc.program(), typeFactory);
        types = VectorCalcCompiler.outputTypes(program, types, rexBuilder);
        if (types == null) {
          return null;
        }
        programs.add(program);
      } else {
        return null;
      }
    }
    if (at == nodes.size() || !aggregate.acceptsVectors(types)) {
      return null;
    }
    List<VectorOperator> heads = new ArrayList<>();
    for (int t = 0; t < aggregate.inputTasks(); t++) {
      VectorOperator head = aggregate.vectorInput(t, types);
      for (int j = at - 1; j >= 1; j--) {
        int k = j - 1;
        ExecOperator op = nodes.get(j).operator();
        if (op instanceof ExecOperator.Watermark w) {
          head = new VectorWatermarkOperator(w.eventTimeIndex(),
              taskWatermarks.get(t).get(nodes.get(j).id()), head);
        } else if (op instanceof ExecOperator.Window w) {
          head = new VectorWindowOperator(w.eventTimeIndex(), w.sizeMs(), inputs.get(k).length,
              head);
        } else {
          head = VectorCalcCompiler.compile(programs.get(k), inputs.get(k), rexBuilder,
              rowErrors, head);
        }
      }
      heads.add(head);
    }
    return new ColumnarInput(withoutUnreadStrings(sourceTypes, nodes, at, inputs, programs),
        heads);
  }

  /**
   * {@code sourceTypes} without the VARCHAR columns that no operator below the aggregation reads
   * (nor passes up to it): a source would encode each of their rows into a dictionary for
   * nothing.
   *
   * @param at the index of the aggregation in {@code nodes}
   * @param inputs per node from 1 below the aggregation, the types it reads
   * @param programs per such node, its program if it is a calc
   */
  private static VectorType[] withoutUnreadStrings(VectorType[] sourceTypes,
      List<ExecNode> nodes, int at, List<VectorType[]> inputs, List<RexProgram> programs) {
    // What the node above the one at hand reads, from the aggregation downwards.
    ExecOperator.StatefulAggregate aggregate =
        (ExecOperator.StatefulAggregate) nodes.get(at).operator();
    java.util.BitSet read = new java.util.BitSet();
    aggregate.groupSet().forEach(read::set);
    for (ExecOperator.AggregateCallSpec call : aggregate.partialCalls()) {
      if (call.arg() >= 0) {
        read.set(call.arg());
      }
      if (call.filterArg() >= 0) {
        read.set(call.filterArg());
      }
    }
    for (int j = at - 1; j >= 1; j--) {
      int k = j - 1;
      int width = inputs.get(k).length;
      ExecOperator op = nodes.get(j).operator();
      if (op instanceof ExecOperator.Watermark w) {
        read.set(w.eventTimeIndex());
      } else if (op instanceof ExecOperator.Window w) {
        read = read.get(0, width);
        read.set(w.eventTimeIndex());
      } else {
        // A calc reads the columns its projections and condition refer to, whatever is read
        // of its output.
        RexProgram program = programs.get(k);
        List<org.apache.calcite.rex.RexNode> used = new ArrayList<>();
        for (org.apache.calcite.rex.RexLocalRef ref : program.getProjectList()) {
          used.add(program.expandLocalRef(ref));
        }
        if (program.getCondition() != null) {
          used.add(program.expandLocalRef(program.getCondition()));
        }
        read = org.apache.calcite.plan.RelOptUtil.InputFinder.bits(used, null).toBitSet();
      }
    }
    VectorType[] types = sourceTypes.clone();
    for (int i = 0; i < types.length; i++) {
      if (types[i] == VectorType.STRING && !read.get(i)) {
        types[i] = null;
      }
    }
    return types;
  }

  /** Checks that {@code nodes} start with a scan of {@code stream} as it is declared now. */
  private void checkScan(List<ExecNode> nodes, StreamTable stream) {
    if (nodes.isEmpty() || !(nodes.get(0).operator() instanceof ExecOperator.Scan scan)) {
      throw new UnreadablePlanException("it does not start with a scan of a stream", null);
    }
    if (!scan.stream().equals(stream.name())) {
      throw new UnreadablePlanException("it reads stream " + scan.stream() + ", not "
          + stream.name(), null);
    }
    List<ExecColumn> declared = new ArrayList<>();
    for (RelDataTypeField field : stream.getRowType(typeFactory).getFieldList()) {
      declared.add(new ExecColumn(field.getName(), ExecPlanGenerator.typeName(field.getType()),
          null));
    }
    if (!declared.equals(nodes.get(0).output())) {
      throw new UnreadablePlanException("it reads stream " + stream.name() + " with columns "
          + nodes.get(0).output() + ", but the stream is declared with " + declared, null);
    }
  }

  /**
   * The operator of a stateless {@code node} reading the rows of {@code input}, emitting into
   * {@code downstream}.
   *
   * @param watermarks the first copy's watermark operators by node id, added to when building
   *     the first copy
   * @param copy whether this is an input task's copy, whose watermark feeds the first copy's
   */
  private Operator rowByRow(ExecNode node, ExecNode input, Operator downstream,
      Map<Integer, EventTimeWatermarkOperator> watermarks, boolean copy) {
    if (node.inputIds().size() != 1 || node.inputIds().get(0) != input.id()) {
      throw new UnreadablePlanException("operator " + node.id() + " (" + node.kind()
          + ") reads nodes " + node.inputIds() + ", where one input, node " + input.id()
          + ", was expected", null);
    }
    ExecOperator operator = node.operator();
    if (operator instanceof ExecOperator.Watermark w) {
      if (copy) {
        return watermarks.get(node.id()).copy(downstream);
      }
      EventTimeWatermarkOperator op =
          new EventTimeWatermarkOperator(w.eventTimeIndex(), w.delayMs(), w.idleTimeoutMs(),
              downstream);
      watermarks.put(node.id(), op);
      return op;
    }
    if (operator instanceof ExecOperator.Window w) {
      return new TimeWindowOperator(w.eventTimeIndex(), w.sizeMs(), w.slideMs(),
          input.output().size(), downstream);
    }
    if (operator instanceof ExecOperator.Sort sort) {
      List<SortKey> keys = new ArrayList<>();
      for (ExecOperator.SortField key : sort.keys()) {
        keys.add(new SortKey(key.index(), key.descending(), key.nullsFirst()));
      }
      return new SortOperator(keys, sort.offset(), sort.fetch(), downstream);
    }
    if (operator instanceof ExecOperator.LookupJoin join) {
      return StreamTableJoins.build(join, node, input, tables, typeFactory, this::compile,
          downstream);
    }
    if (operator instanceof ExecOperator.Calc calc) {
      RexProgram program = program(calc, node, input);
      return new CalcOperator(compile(program),
          node.output().size(), downstream, rowErrors);
    }
    throw new UnreadablePlanException("operator " + node.id() + " (" + node.kind()
        + ") cannot run there: only the first operator reads the stream", null);
  }

  /** The program of a calc {@code node} reading {@code input}, checked against both. */
  private RexProgram program(ExecOperator.Calc calc, ExecNode node, ExecNode input) {
    RexProgram program = RexProgramJson.read(calc.program(), typeFactory);
    if (program.getOutputRowType().getFieldCount() != node.output().size()
        || program.getInputRowType().getFieldCount() != input.output().size()) {
      throw new UnreadablePlanException("calc " + node.id() + " reads "
          + program.getInputRowType().getFieldCount() + " columns and emits "
          + program.getOutputRowType().getFieldCount() + ", but its plan gives it "
          + input.output().size() + " and " + node.output().size(), null);
    }
    return program;
  }

  /**
   * Whether {@code plan} reads one stream, and it is the retracting changes of a view
   * ({@link ViewChangelog}).
   */
  private static boolean retracts(ExecPlan plan, List<StreamTable> streams) {
    if (plan.hasSeveralInputs() || plan.scans().isEmpty()) {
      return false;
    }
    String name = ((ExecOperator.Scan) plan.scans().get(0).operator()).stream();
    return streams.stream().anyMatch(s -> s.name().equals(name)
        && s instanceof ViewChangelog changes && changes.retracts());
  }

  /** The executor's spec of {@code aggregate}, over a retracting input if {@code retracts}. */
  private StatefulAggregateSpec spec(ExecOperator.StatefulAggregate aggregate, boolean retracts) {
    StatefulAggregateSpec spec = spec(aggregate);
    return retracts ? spec.withRetractingInput() : spec;
  }

  private StatefulAggregateSpec spec(ExecOperator.StatefulAggregate aggregate) {
    ExecOperator.EventTimeKeySpec eventTime = aggregate.eventTimeKey();
    return new StatefulAggregateSpec(aggregate.operatorId(),
        aggregate.groupSet().stream().mapToInt(Integer::intValue).toArray(),
        calls(aggregate.partialCalls()), calls(aggregate.mergeCalls()), aggregate.outputMode(),
        aggregate.statePartitions(), eventTime == null ? null
            : new EventTimeKey(eventTime.keyIndex(), eventTime.offsetMs()),
        aggregate.newKeyFlag());
  }

  private List<StateStoreProvider<Object, Object[]>> providers(
      ExecOperator.StatefulAggregate aggregate) {
    return providers(aggregate.operatorId(), aggregate.statePartitions());
  }

  private List<StateStoreProvider<Object, Object[]>> providers(int operatorId, int partitions) {
    List<StateStoreProvider<Object, Object[]>> providers = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      providers.add(stateStores.create(new StateStoreId(queryId, operatorId, p)));
    }
    return providers;
  }

  /**
   * Whether {@code nodes}, the operators between the scan and an aggregation, are row-by-row
   * operators only (calcs, windows, watermarks), which input tasks can run as copies on their own
   * slices of a batch.
   */
  private static boolean readsStreamDirectly(List<ExecNode> nodes) {
    for (ExecNode node : nodes) {
      ExecOperator op = node.operator();
      if (!(op instanceof ExecOperator.Calc || op instanceof ExecOperator.Window
          || op instanceof ExecOperator.Watermark)) {
        return false;
      }
    }
    return true;
  }

  private static List<AggregateCall> calls(List<ExecOperator.AggregateCallSpec> specs) {
    List<AggregateCall> calls = new ArrayList<>();
    for (ExecOperator.AggregateCallSpec call : specs) {
      calls.add(new AggregateCall(call.function(), call.arg(), call.resultKind(),
          call.distinct(), call.filterArg()));
    }
    return calls;
  }

  /**
   * The executor's function for {@code call}.
   *
   * @throws IllegalArgumentException if the executor has none
   */
  static AggregateFunction function(org.apache.calcite.rel.core.AggregateCall call) {
    switch (call.getAggregation().getKind()) {
    case COUNT:
      return call.getArgList().isEmpty() ? AggregateFunction.COUNT_STAR : AggregateFunction.COUNT;
    case SUM:
      return AggregateFunction.SUM;
    case SUM0:
      return AggregateFunction.SUM0;
    case MIN:
      return AggregateFunction.MIN;
    case MAX:
      return AggregateFunction.MAX;
    default:
      throw new IllegalArgumentException("no streaming implementation of " + call);
    }
  }

  /** The executor's representation of values of {@code type}. */
  public static ValueKind valueKind(RelDataType type) {
    switch (type.getSqlTypeName()) {
    case BOOLEAN:
      return ValueKind.BOOLEAN;
    case TINYINT:
    case SMALLINT:
    case INTEGER:
      return ValueKind.INT;
    case BIGINT:
      return ValueKind.LONG;
    case REAL:
    case FLOAT:
    case DOUBLE:
      return ValueKind.DOUBLE;
    case DECIMAL:
      return ValueKind.DECIMAL;
    case CHAR:
    case VARCHAR:
      return ValueKind.STRING;
    case TIMESTAMP:
      return ValueKind.TIMESTAMP;
    case DATE:
    case TIME:
      return ValueKind.DATE;
    default:
      return ValueKind.OTHER;
    }
  }


}
