package dev.freshet.planner.exec;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.operators.AggregateFunction;
import dev.freshet.executor.operators.CollectOperator;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.operators.RowCalc;
import dev.freshet.executor.operators.RowErrors;
import dev.freshet.executor.operators.StatefulAggregateOperator;
import dev.freshet.executor.operators.StatefulAggregateSpec;
import dev.freshet.executor.operators.ValueKind;
import dev.freshet.executor.runtime.StreamingPipeline;
import dev.freshet.executor.source.SupportsParallelReads;
import dev.freshet.executor.state.StateStoreProviderFactory;
import dev.freshet.executor.state.providers.StateStoreProviders;
import dev.freshet.planner.PlannedQuery;
import dev.freshet.planner.SqlTypes;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.errors.PlanningException;
import java.util.List;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.rel.type.RelDataType;
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
 * {@link ColumnarPlanner} and docs/internals.md. {@link #withColumnarPath withColumnarPath(false)}
 * builds the row path alone.
 *
 * <p>A façade over the planners that do the work, each for one shape of plan, sharing one
 * {@link ExecImplementor} (the settings and the calc compiler): {@link ChainPlanner} for a plan of
 * one scan, {@link MultiInputPlanner} for joins, unions and session windows,
 * {@link ViewSplitPlanner} for views that read their aggregation's state; all make their row
 * operators with one {@link RowOperatorVisitor}.
 */
public final class ExecPlanBuilder {
  private final ExecImplementor implementor;
  private final ChainPlanner chains;
  private final MultiInputPlanner trees;
  private final ViewSplitPlanner viewSplits;

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
    this.implementor = new ExecImplementor(typeFactory, queryId, stateStores, partitionExecutor,
        partitionExecutor == null ? 1 : inputTasks);
    RowOperatorVisitor visitor = new RowOperatorVisitor(implementor);
    this.chains = new ChainPlanner(implementor, visitor, new ColumnarPlanner(implementor));
    this.trees = new MultiInputPlanner(implementor, visitor);
    this.viewSplits = new ViewSplitPlanner(implementor, visitor, this::build);
  }

  /**
   * Makes the pipelines built from now on handle a row whose expressions fail as
   * {@code rowErrors} says (by default they fail the batch).
   */
  public ExecPlanBuilder withRowErrors(RowErrors rowErrors) {
    implementor.rowErrors = requireNonNull(rowErrors, "rowErrors");
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
    implementor.stateTtlMs = ttlMs;
    return this;
  }

  /**
   * Makes the pipelines built from now on read rows only ({@code false}), or also vector batches
   * where the plan and the source allow ({@code true}, the default): how tests compare the two.
   */
  public ExecPlanBuilder withColumnarPath(boolean columnar) {
    implementor.columnar = columnar;
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
    implementor.tables = catalog::table;
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
      return chains.build(plan.nodes(), ExecImplementor.streamOf(plan.scans(), streams),
          groupChanges);
    }
    return trees.build(plan, streams, groupChanges);
  }

  /**
   * Builds the operators of {@code plan}, reading {@code stream}, wired from the stream to a
   * collecting sink.
   *
   * @throws UnreadablePlanException if {@code plan} does not read {@code stream} as it is
   *     declared, or an operator's parameters do not fit together
   */
  public StreamingPipeline build(ExecPlan plan, StreamTable stream) {
    return chains.build(plan.nodes(), stream, false);
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
    return viewSplits.buildUpToAggregate(plan, streams);
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
    return viewSplits.buildAfterAggregate(plan, streams);
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
    return ValueKind.of(SqlTypes.of(type));
  }
}
