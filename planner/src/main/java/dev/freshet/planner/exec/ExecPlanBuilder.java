package dev.freshet.planner.exec;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.operators.AggregateCall;
import dev.freshet.executor.operators.AggregateFunction;
import dev.freshet.executor.operators.CalcOperator;
import dev.freshet.executor.operators.CollectOperator;
import dev.freshet.executor.operators.EventTimeKey;
import dev.freshet.executor.operators.EventTimeWatermarkOperator;
import dev.freshet.executor.operators.SortKey;
import dev.freshet.executor.operators.SortOperator;
import dev.freshet.executor.operators.TimeWindowOperator;
import dev.freshet.executor.runtime.StreamingPipeline;
import dev.freshet.executor.source.SupportsParallelReads;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.operators.StatefulAggregateOperator;
import dev.freshet.executor.operators.StatefulAggregateSpec;
import dev.freshet.executor.operators.ValueKind;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.StateStoreProviderFactory;
import dev.freshet.executor.state.internals.InMemoryStateStoreProvider;
import dev.freshet.planner.PlannedQuery;
import dev.freshet.planner.errors.PlannerErrors;
import dev.freshet.planner.errors.PlanningException;
import dev.freshet.planner.rel.AggregatePhase;
import dev.freshet.planner.rel.EventTimeColumn;
import dev.freshet.planner.rel.EventTimeWatermark;
import dev.freshet.planner.rel.TimeWindow;
import dev.freshet.planner.rel.StateStoreRestore;
import dev.freshet.planner.rel.StateStoreSave;
import dev.freshet.planner.rel.StreamingRels;
import dev.freshet.planner.rel.logical.LogicalStreamAggregate;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexLiteral;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Translates a planned query's physical plan into the executor's operator pipeline.
 *
 * <p>Calcs are compiled to byte code; the {@code StateStoreSave -> merge -> StateStoreRestore ->
 * partial} chain becomes one {@link StatefulAggregateOperator}; the stream scan becomes the
 * pipeline's source.
 *
 * <p>With more than one input task and a source that can be read in slices
 * ({@link SupportsParallelReads}), the operators between the stream and the aggregation
 * are built once per task, each copy ending in the aggregation's
 * {@link StatefulAggregateOperator#inputTask(int) input} for its task, so that a batch's rows can
 * be read and partially aggregated on several threads. Each copy compiles its own calcs and
 * keeps its own window bounds; watermark copies share their original's watermark.
 */
public final class ExecPlanBuilder {
  private final JavaTypeFactory typeFactory;
  private final DataContext dataContext;
  private final String queryId;
  private final StateStoreProviderFactory stateStores;
  private final java.util.concurrent.Executor partitionExecutor;
  private final int inputTasks;
  /** Whether the source of the query being built can be read as slices, one per input task. */
  private boolean splittableSource;
  /** The heads of input tasks 1, 2, ... of the pipeline being built. */
  private final List<Operator> extraInputTasks = new ArrayList<>();
  /** The watermark operator built for each watermark node, for the input tasks' copies. */
  private final Map<RelNode, EventTimeWatermarkOperator> watermarkOperators =
      new IdentityHashMap<>();

  /**
   * Creates a builder for one query.
   *
   * @param typeFactory the planner's type factory
   * @param dataContext values that functions such as CURRENT_TIMESTAMP read
   * @param queryId the query id, which names its state stores
   */
  public ExecPlanBuilder(JavaTypeFactory typeFactory, DataContext dataContext, String queryId) {
    this(typeFactory, dataContext, queryId, InMemoryStateStoreProvider::new, null);
  }

  /**
   * Creates a builder for one query.
   *
   * @param typeFactory the planner's type factory
   * @param dataContext values that functions such as CURRENT_TIMESTAMP read
   * @param queryId the query id, which names its state stores
   * @param stateStores creates the provider of each state partition
   * @param partitionExecutor runs state partitions in parallel; null runs them on the batch thread
   */
  public ExecPlanBuilder(JavaTypeFactory typeFactory, DataContext dataContext, String queryId,
      StateStoreProviderFactory stateStores,
      java.util.concurrent.@Nullable Executor partitionExecutor) {
    this(typeFactory, dataContext, queryId, stateStores, partitionExecutor, 1);
  }

  /**
   * Creates a builder for one query whose batches may be read by several input tasks.
   *
   * @param typeFactory the planner's type factory
   * @param dataContext values that functions such as CURRENT_TIMESTAMP read
   * @param queryId the query id, which names its state stores
   * @param stateStores creates the provider of each state partition
   * @param partitionExecutor runs state partitions and input tasks in parallel; null runs them
   *     on the batch thread
   * @param inputTasks how many threads may read one batch (when the plan and the source allow)
   */
  public ExecPlanBuilder(JavaTypeFactory typeFactory, DataContext dataContext, String queryId,
      StateStoreProviderFactory stateStores,
      java.util.concurrent.@Nullable Executor partitionExecutor, int inputTasks) {
    if (inputTasks < 1) {
      throw new IllegalArgumentException("inputTasks must be positive: " + inputTasks);
    }
    this.inputTasks = partitionExecutor == null ? 1 : inputTasks;
    this.typeFactory = requireNonNull(typeFactory, "typeFactory");
    this.dataContext = requireNonNull(dataContext, "dataContext");
    this.queryId = requireNonNull(queryId, "queryId");
    this.stateStores = requireNonNull(stateStores, "stateStores");
    this.partitionExecutor = partitionExecutor;
  }

  /** Builds the operators of {@code query}, wired from its source to a collecting sink. */
  public StreamingPipeline build(PlannedQuery query) throws PlanningException {
    CollectOperator output = new CollectOperator();
    List<EventTimeWatermarkOperator> watermarks = new ArrayList<>();
    List<StatefulAggregateOperator> stateful = new ArrayList<>();
    splittableSource = query.source().source() instanceof SupportsParallelReads;
    extraInputTasks.clear();
    watermarkOperators.clear();
    Operator head = build(query.physical(), output, watermarks, stateful);
    java.util.Collections.reverse(stateful);
    return new StreamingPipeline(query.source().source(), head, output, watermarks, stateful,
        List.copyOf(extraInputTasks), extraInputTasks.isEmpty() ? null : partitionExecutor);
  }

  private Operator build(RelNode rel, Operator downstream,
      List<EventTimeWatermarkOperator> watermarks, List<StatefulAggregateOperator> stateful)
      throws PlanningException {
    if (rel instanceof TableScan && StreamingRels.streamOf((TableScan) rel).isPresent()) {
      return downstream;
    }
    if (rel instanceof EventTimeWatermark) {
      EventTimeWatermark w = (EventTimeWatermark) rel;
      EventTimeWatermarkOperator original = watermarkOperators.get(w);
      if (original != null) {
        // An input task's copy: it feeds the watermark of the node's first operator.
        return build(w.getInput(), original.copy(downstream), watermarks, stateful);
      }
      EventTimeWatermarkOperator op =
          new EventTimeWatermarkOperator(w.eventTimeIndex(), w.delayMs(), downstream);
      watermarks.add(op);
      watermarkOperators.put(w, op);
      return build(w.getInput(), op, watermarks, stateful);
    }
    if (rel instanceof TimeWindow) {
      TimeWindow w = (TimeWindow) rel;
      return build(w.getInput(), new TimeWindowOperator(w.eventTimeIndex(), w.sizeMs(),
          w.slideMs(), w.getInput().getRowType().getFieldCount(), downstream), watermarks,
          stateful);
    }
    if (rel instanceof Sort) {
      Sort sort = (Sort) rel;
      List<SortKey> keys = new ArrayList<>();
      for (RelFieldCollation c : sort.getCollation().getFieldCollations()) {
        keys.add(new SortKey(c.getFieldIndex(), c.direction.isDescending(),
            c.nullDirection == RelFieldCollation.NullDirection.FIRST));
      }
      long offset = sort.offset == null ? 0 : RexLiteral.longValue(sort.offset);
      long fetch = sort.fetch == null ? -1 : RexLiteral.longValue(sort.fetch);
      return build(sort.getInput(), new SortOperator(keys, offset, fetch, downstream),
          watermarks, stateful);
    }
    if (rel instanceof Calc) {
      Calc calc = (Calc) rel;
      return build(calc.getInput(), new CalcOperator(
          CalcCompiler.compile(calc.getProgram(), typeFactory, dataContext),
          calc.getRowType().getFieldCount(), downstream), watermarks, stateful);
    }
    if (rel instanceof StateStoreSave) {
      StateStoreSave save = (StateStoreSave) rel;
      LogicalStreamAggregate merge = phase(save.getInput(), AggregatePhase.MERGE);
      if (!(merge.getInput() instanceof StateStoreRestore)) {
        throw unsupported(rel);
      }
      LogicalStreamAggregate partial =
          phase(((StateStoreRestore) merge.getInput()).getInput(), AggregatePhase.PARTIAL);
      EventTimeColumn eventTime = save.eventTimeKey();
      StatefulAggregateSpec spec = new StatefulAggregateSpec(save.operatorId(),
          partial.getGroupSet().toArray(), calls(partial), calls(merge), save.outputMode(),
          save.numPartitions(), eventTime == null ? null
              : new EventTimeKey(save.keys().indexOf(eventTime.index()), eventTime.offsetMs()),
          save.newKeyFlag());
      List<StateStoreProvider<Object, Object[]>> providers = new ArrayList<>();
      for (int p = 0; p < spec.numPartitions(); p++) {
        providers.add(stateStores.create(new StateStoreId(queryId, save.operatorId(), p)));
      }
      RelNode below = partial.getInput();
      int tasks = splittableSource && readsStreamDirectly(below) ? inputTasks : 1;
      StatefulAggregateOperator op = new StatefulAggregateOperator(spec, providers, downstream,
          partitionExecutor, tasks);
      stateful.add(op);
      Operator head = build(below, op, watermarks, stateful);
      for (int t = 1; t < tasks; t++) {
        extraInputTasks.add(build(below, op.inputTask(t), watermarks, stateful));
      }
      return head;
    }
    throw unsupported(rel);
  }

  /**
   * Whether {@code rel} reaches the stream through row-by-row operators only (calcs, windows,
   * watermarks), which input tasks can run as copies on their own slices of a batch.
   */
  private static boolean readsStreamDirectly(RelNode rel) {
    while (rel instanceof Calc || rel instanceof TimeWindow || rel instanceof EventTimeWatermark) {
      rel = rel.getInput(0);
    }
    return rel instanceof TableScan && StreamingRels.streamOf((TableScan) rel).isPresent();
  }

  private static LogicalStreamAggregate phase(RelNode rel, AggregatePhase phase)
      throws PlanningException {
    if (rel instanceof LogicalStreamAggregate
        && ((LogicalStreamAggregate) rel).phase() == phase) {
      return (LogicalStreamAggregate) rel;
    }
    throw unsupported(rel);
  }

  private static List<AggregateCall> calls(LogicalStreamAggregate aggregate) {
    List<AggregateCall> calls = new ArrayList<>();
    for (org.apache.calcite.rel.core.AggregateCall call : aggregate.getAggCallList()) {
      List<Integer> args = call.getArgList();
      calls.add(new AggregateCall(function(call), args.isEmpty() ? -1 : args.get(0),
          valueKind(call.getType()), call.isDistinct(), call.filterArg));
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

  private static PlanningException unsupported(RelNode rel) {
    return PlannerErrors.notSupported("Freshet cannot run this part of a continuous query yet: "
        + rel.getRelTypeName() + ". Plan:\n" + RelOptUtil.toString(rel));
  }
}
