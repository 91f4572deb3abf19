package dev.freshet.engine;

import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.options.SessionOptions;
import dev.freshet.engine.options.StateStoreProviderKind;
import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.engine.query.QueryCheckpoints;
import dev.freshet.engine.query.StoredPlans;
import dev.freshet.executor.checkpoint.Checkpoint;
import dev.freshet.executor.checkpoint.OffsetSeq;
import dev.freshet.executor.limits.QueryResources;
import dev.freshet.executor.operators.OutputMode;
import dev.freshet.executor.runtime.MicroBatchExecution;
import dev.freshet.executor.runtime.RestartStrategy;
import dev.freshet.executor.runtime.Sink;
import dev.freshet.executor.runtime.StreamExecution;
import dev.freshet.executor.runtime.StreamingPipeline;
import dev.freshet.executor.state.StateStoreProviderFactory;
import dev.freshet.executor.state.providers.StateStoreProviders;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.PlannedQuery;
import dev.freshet.planner.errors.PlanningException;
import dev.freshet.planner.exec.ExecPlan;
import dev.freshet.sql.parser.EmitMode;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.calcite.sql.SqlNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The setup a named continuous query shares whatever it feeds (a materialized view's result, a
 * sink's target, a view that another engine runs): the checkpoint a restarted query resumes
 * from and the settings it pins, the plan that wrote its state, its id, its batches' execution,
 * and its registration. One instance per {@code CREATE}, used in this order:
 *
 * <pre>{@code
 * ContinuousQuerySetup setup = ContinuousQuerySetup.forExecutor(resources, registry, options, name);
 * PlannedQuery plan = setup.plan(planner, query, emit);        // with the pinned partitions
 * ExecPlan exec = setup.planToRun(ExecPlanGenerator.generate(plan));
 * Checkpoint checkpoint = setup.openCheckpoint();              // null without a data directory
 * ... build the pipeline and the sink; then, under the DDL lock with the name free:
 * setup.storePlan(exec);
 * setup.start(setup.execution(pipeline, sink, restartStrategy), sql, plan);
 * }</pre>
 *
 * <p>Every check that can fail comes before the checkpoint is opened; what a later failure finds
 * opened its caller closes.
 */
final class ContinuousQuerySetup {
  private final EngineResources resources;
  private final QueryRegistry registry;
  private final SessionOptions options;
  private final String name;
  /** The checkpoint of the query's earlier run, if this is a restart. */
  private final Optional<Checkpoint> restarted;
  private final QueryCheckpoints.Pinned pinned;
  private @Nullable Checkpoint checkpoint;
  private @Nullable String queryId;

  private ContinuousQuerySetup(EngineResources resources, QueryRegistry registry,
      SessionOptions options, String name, boolean pins) {
    this.resources = resources;
    this.registry = registry;
    this.options = options;
    this.name = name;
    this.restarted = resources.dataDir()
        .flatMap(d -> QueryCheckpoints.openIfExists(d, name, options.minBatchesToRetain()));
    this.pinned = pins ? restarted.map(QueryCheckpoints::pinned)
        .orElse(QueryCheckpoints.Pinned.NONE) : QueryCheckpoints.Pinned.NONE;
  }

  /**
   * The setup of query {@code name} on Freshet's executor: a restarted query keeps the state
   * partitions and the state store provider its checkpoint's latest batch ran with.
   */
  static ContinuousQuerySetup forExecutor(EngineResources resources, QueryRegistry registry,
      SessionOptions options, String name) {
    return new ContinuousQuerySetup(resources, registry, options, name, true);
  }

  /**
   * The setup of query {@code name} that another engine runs ({@link dev.freshet.engine.spi}):
   * it keeps its state its own way, so nothing is pinned.
   */
  static ContinuousQuerySetup forRunner(EngineResources resources, QueryRegistry registry,
      SessionOptions options, String name) {
    return new ContinuousQuerySetup(resources, registry, options, name, false);
  }

  /** Whether the query resumes from the checkpoint of an earlier run. */
  boolean restarting() {
    return restarted.isPresent();
  }

  /** The query's state partitions: the checkpoint's, else the session's. */
  int statePartitions() {
    return pinned.statePartitions().orElse(options.statePartitions());
  }

  /** Where the query keeps its state: the checkpoint's provider, else the session's. */
  StateStoreProviderKind provider() {
    return pinned.provider().orElse(options.stateStoreProvider());
  }

  /** Plans {@code query} with the query's state partitions. */
  PlannedQuery plan(FreshetPlanner planner, SqlNode query, @Nullable EmitMode emit)
      throws SQLException {
    try {
      return planner.planQuery(query, emit, statePartitions(), options.maxWindowsPerRow());
    } catch (PlanningException e) {
      throw Errors.toSqlException(e);
    }
  }

  /**
   * The plan to run: {@code generated}, or on a restart the plan that wrote the state, or a
   * failure; never a misread.
   */
  ExecPlan planToRun(ExecPlan generated) throws SQLException {
    if (restarted.isEmpty()) {
      return generated;
    }
    StoredPlans.checkStateFormatVersion(restarted.get(), name);
    return StoredPlans.planToRun(restarted.get(), name, generated);
  }

  /**
   * Opens the query's checkpoint, in which a restarted query resumes, and picks its id (the
   * checkpoint's); null, with a new id, without a data directory.
   */
  @Nullable Checkpoint openCheckpoint() {
    checkpoint = restarted.or(() -> resources.dataDir()
        .map(d -> QueryCheckpoints.open(d, name, options.minBatchesToRetain())))
        .orElse(null);
    queryId = checkpoint == null ? UUID.randomUUID().toString() : checkpoint.queryId();
    return checkpoint;
  }

  /** The query's id; {@link #openCheckpoint} picks it. */
  String queryId() {
    if (queryId == null) {
      throw new IllegalStateException("the checkpoint of " + name + " is not open yet");
    }
    return queryId;
  }

  /** The query's state stores: in its checkpoint, or in memory without one. */
  StateStoreProviderFactory stateStores() {
    return checkpoint != null
        ? QueryCheckpoints.stateStores(checkpoint, provider(), resources.stateStoreMaintenance())
        : StateStoreProviders.inMemory();
  }

  /**
   * Writes {@code plan} into the checkpoint: under the DDL lock, once the name is the query's
   * (another CREATE of it may have lost the race).
   */
  void storePlan(ExecPlan plan) throws SQLException {
    if (checkpoint != null) {
      StoredPlans.write(checkpoint, plan);
    }
  }

  /**
   * The execution of the query's batches into {@code sink}, pinning the settings a restart
   * keeps, within the session's memory budget.
   */
  MicroBatchExecution execution(StreamingPipeline pipeline, Sink sink,
      RestartStrategy restartStrategy) {
    return MicroBatchExecution.builder(queryId(), name, pipeline, sink)
        .clock(resources.clock())
        .trigger(options.trigger())
        .checkpoint(checkpoint, Map.of(
            OffsetSeq.STATE_PARTITIONS, Integer.toString(statePartitions()),
            OffsetSeq.STATE_STORE_PROVIDER, provider().text(),
            OffsetSeq.STATE_FORMAT_VERSION, Integer.toString(StoredPlans.STATE_FORMAT_VERSION)))
        .resources(new QueryResources(name, options.queryMemoryBudget(), resources.memoryPool()))
        .restartStrategy(restartStrategy)
        .build();
  }

  /**
   * The query, named after its object, that stays registered when stopped, so that SHOW
   * QUERIES shows why; its DROP unregisters it.
   */
  ContinuousQuery query(StreamExecution execution, String sql, OutputMode outputMode) {
    return new ContinuousQuery(execution, sql, outputMode, name, stopped -> { });
  }

  /**
   * Registers {@code query}, which reads reference {@code tables}, and starts it.
   *
   * @throws RuntimeException if it cannot start; it stays registered, the caller undoes
   */
  void start(ContinuousQuery query, Set<String> tables) {
    registry.readsTables(queryId(), tables);
    registry.register(query);
    query.start();
  }
}
