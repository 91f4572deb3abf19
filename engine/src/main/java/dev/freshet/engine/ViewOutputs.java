package dev.freshet.engine;

import dev.freshet.engine.options.SessionOptions;
import dev.freshet.engine.options.StateStoreProviderKind;
import dev.freshet.engine.query.QueryCheckpoints;
import dev.freshet.engine.store.LegacyResults;
import dev.freshet.engine.store.ResultDatabase;
import dev.freshet.engine.store.StoredColumnType;
import dev.freshet.engine.view.AppendViewResult;
import dev.freshet.engine.view.AppendedRows;
import dev.freshet.engine.view.CompleteViewResult;
import dev.freshet.engine.view.PublishedResult;
import dev.freshet.engine.view.PublishingSink;
import dev.freshet.engine.view.StateViewResult;
import dev.freshet.engine.view.StateViewSink;
import dev.freshet.engine.view.ViewFinalizer;
import dev.freshet.engine.view.ViewStateStores;
import dev.freshet.executor.checkpoint.Checkpoint;
import dev.freshet.executor.checkpoint.OffsetSeq;
import dev.freshet.executor.operators.RowErrors;
import dev.freshet.executor.runtime.Sink;
import dev.freshet.executor.runtime.StreamingPipeline;
import dev.freshet.executor.runtime.SourceInput;
import dev.freshet.executor.source.QueryReader;
import dev.freshet.executor.state.PinnedStateStore;
import dev.freshet.executor.state.StatePartitions;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.StateStoreProviderFactory;
import dev.freshet.executor.state.providers.StateStoreProviders;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.exec.ExecPlan;
import dev.freshet.planner.exec.ExecPlanBuilder;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Builds a materialized view's query and the result it keeps, by the view's {@link Layout}: an
 * UPDATE view reads its aggregation's committed state ({@link StateViewResult}; the groups its
 * watermark evicts are appended beside it), a COMPLETE view holds its last result in memory
 * ({@link CompleteViewResult}), an APPEND view appends its rows ({@link AppendViewResult}).
 * Nothing is written per group outside the state store.
 *
 * <pre>{@code
 * ViewOutputs outputs = ViewOutputs.build(engine, options, "V", Layout.UPDATE, plan, stream,
 *     rowType, 0, checkpoint, provider, queryId);   // plans and compiles: may fail
 * PublishedResult result = outputs.openResult();    // once the view's name is taken
 * }</pre>
 */
final class ViewOutputs {
  /** How a view's result follows its batches. */
  enum Layout {
    /** UPDATE mode: one row per group, read from the aggregation's state. */
    UPDATE,
    /** COMPLETE mode: each batch's rows are the whole result. */
    COMPLETE,
    /** APPEND mode: each batch's rows are added. */
    APPEND
  }

  /** How many versions' changes a view without a data directory keeps in memory, at most. */
  static final int MAX_VERSIONS_IN_MEMORY = 10;

  private final String view;
  private final String queryId;
  private final ResultDatabase results;
  private final Layout layout;
  private final RelDataType rowType;
  private final int keyColumn;
  private final @Nullable Checkpoint checkpoint;
  private final OpenedStateStores stores;
  private final ViewStateStores viewStores;
  private final StreamingPipeline pipeline;
  private final @Nullable ViewFinalizer finalizer;
  private final ExecPlanBuilder.@Nullable AfterAggregate completeRows;
  private final boolean evicts;
  private @Nullable PublishedResult result;
  private @Nullable Sink sink;

  private ViewOutputs(String view, String queryId, ResultDatabase results, Layout layout,
      RelDataType rowType, int keyColumn,
      @Nullable Checkpoint checkpoint, OpenedStateStores stores, ViewStateStores viewStores,
      StreamingPipeline pipeline, @Nullable ViewFinalizer finalizer,
      ExecPlanBuilder.@Nullable AfterAggregate completeRows, boolean evicts) {
    this.view = view;
    this.queryId = queryId;
    this.results = results;
    this.layout = layout;
    this.rowType = rowType;
    this.keyColumn = keyColumn;
    this.checkpoint = checkpoint;
    this.stores = stores;
    this.viewStores = viewStores;
    this.pipeline = pipeline;
    this.finalizer = finalizer;
    this.completeRows = completeRows;
    this.evicts = evicts;
  }

  /**
   * Builds the view's query from {@code plan}, with state stores of {@code provider} in
   * {@code checkpoint} (in memory without one).
   *
   * @param keyColumn for an UPDATE view, the view column that shows a one-column group key as
   *     it is, or -1
   * @throws dev.freshet.planner.exec.UnreadablePlanException if the plan cannot be built
   */
  static ViewOutputs build(Engine engine, SessionOptions options, String view, Layout layout,
      ExecPlan plan, List<StreamTable> sources, RelDataType rowType, int keyColumn,
      @Nullable Checkpoint checkpoint, StateStoreProviderKind provider, String queryId,
      long stateTtlMs) {
    OpenedStateStores stores = new OpenedStateStores(stateStores(options, layout, checkpoint,
        provider, engine));
    // An UPDATE view's stores belong to its result, which reads them after its query stops.
    ViewStateStores viewStores = new ViewStateStores(stores, lastAggregateId(plan));
    try {
      RowErrors rowErrors = options.onError().newRowErrors();
      ExecPlanBuilder builder = new ExecPlanBuilder(engine.planner().typeFactory(), queryId, layout == Layout.UPDATE ? viewStores : stores,
          engine.resources().partitionExecutor(), engine.resources().inputTasks()).withRowErrors(rowErrors)
          .withTables(engine.catalog()).withStateTtl(stateTtlMs);
      if (layout == Layout.UPDATE) {
        ExecPlanBuilder.SplitPlan split = builder.buildUpToAggregate(plan, sources);
        return new ViewOutputs(view, queryId, engine.results(), layout, rowType, keyColumn,
            checkpoint, stores, viewStores, split.pipeline(), new ViewFinalizer(split.aggregate(), split.finalCalcs(),
                rowType.getFieldCount(), rowErrors), null,
            split.aggregate().eventTimeKey() != null);
      }
      StreamingPipeline pipeline = builder.build(plan, sources);
      // After a restart, a COMPLETE view's rows are computed again from the committed state.
      ExecPlanBuilder.AfterAggregate completeRows = layout == Layout.COMPLETE
          ? builder.buildAfterAggregate(plan, sources) : null;
      return new ViewOutputs(view, queryId, engine.results(), layout, rowType, keyColumn,
          checkpoint, stores, viewStores, pipeline, null, completeRows, false);
    } catch (RuntimeException e) {
      stores.closeAll();
      throw e;
    }
  }

  /** The operator id of the last stateful aggregation of {@code plan}, or -1 if it has none. */
  private static int lastAggregateId(ExecPlan plan) {
    int id = -1;
    for (dev.freshet.planner.exec.ExecNode node : plan.nodes()) {
      if (node.operator() instanceof dev.freshet.planner.exec.ExecOperator.StatefulAggregate a) {
        id = a.operatorId();
      }
    }
    return id;
  }

  private static StateStoreProviderFactory stateStores(SessionOptions options, Layout layout,
      @Nullable Checkpoint checkpoint, StateStoreProviderKind provider, Engine engine) {
    if (checkpoint != null) {
      return QueryCheckpoints.stateStores(checkpoint, provider, engine.resources().stateStoreMaintenance());
    }
    if (layout != Layout.UPDATE) {
      return StateStoreProviders.inMemory();
    }
    // Readable versions without files; their changes kept for subscribers who resume.
    int retain = Math.min(options.minBatchesToRetain(), MAX_VERSIONS_IN_MEMORY);
    return StateStoreProviders.committedMap(retain);
  }

  /** The view's query, from its stream to its sink's rows. */
  StreamingPipeline pipeline() {
    return pipeline;
  }

  /**
   * Opens the view's result as its query left it (the last batch it committed), and the sink
   * that its query writes into ({@link #sink()}). What an older release kept of the result in
   * H2 is taken over where the state does not hold it (an APPEND view's rows, the windows an
   * UPDATE view evicted), durably, then dropped.
   *
   * @throws SQLException (0A000) if a column has a type the view cannot keep
   */
  PublishedResult openResult() throws SQLException {
    int columns = rowType.getFieldCount();
    switch (layout) {
    case UPDATE: {
      SqlTypeName keyType = keyColumn < 0 ? null
          : rowType.getFieldList().get(keyColumn).getType().getSqlTypeName();
      AppendedRows evicted = null;
      if (evicts) {
        // Keyed only where a lookup can ask for one group (a one-column key the view shows):
        // an index per evicted group costs as much again as the row.
        evicted = appendedRows(keyColumn >= 0);
        takeOverEvicted(evicted, keyColumn >= 0);
      }
      LegacyResults.drop(results, view);
      long committed = checkpoint == null ? Long.MAX_VALUE
          : checkpoint.commitLog().latestBatchId().orElse(-1);
      StateViewResult state = StateViewResult.open(view, viewStores.providers(),
          java.util.Objects.requireNonNull(finalizer), columns, keyColumn, keyType, evicted,
          committed);
      sink = new StateViewSink(view, state, java.util.Objects.requireNonNull(finalizer),
          columns);
      return result = state;
    }
    case COMPLETE: {
      LegacyResults.drop(results, view);
      long committed = checkpoint == null ? -1
          : checkpoint.commitLog().latestBatchId().orElse(-1);
      // Its rows are computed again as that batch computed them, with its time.
      long committedTimestampMs = committed < 0 ? 0 : checkpoint.offsetLog().get(committed)
          .map(OffsetSeq::batchTimestampMs).orElse(0L);
      CompleteViewResult complete = CompleteViewResult.open(view, columns, stores.providers(),
          java.util.Objects.requireNonNull(completeRows), committed, committedTimestampMs);
      sink = new PublishingSink(view, complete::publish, complete::publishStaged);
      return result = complete;
    }
    default: {
      AppendedRows rows = appendedRows(false);
      if (rows.lastBatch() < 0) {
        Optional<LegacyResults.Legacy> legacy =
            LegacyResults.read(results, view, queryId, columnTypes(), false);
        if (legacy.isPresent()) {
          rows.addBatch(legacy.get().batchId(), legacy.get().rows(), null);
        }
      }
      LegacyResults.drop(results, view);
      AppendViewResult append = AppendViewResult.open(view, columns, rows);
      sink = new PublishingSink(view, append::publish, append::publishStaged);
      return result = append;
    }
    }
  }

  /**
   * Appends the rows an older release kept of the groups the watermark evicted (those its
   * result table holds and the state does not), as of the batch it last applied.
   */
  private void takeOverEvicted(AppendedRows evicted, boolean keyed) throws SQLException {
    if (evicted.lastBatch() >= 0) {
      return;
    }
    Optional<LegacyResults.Legacy> legacy =
        LegacyResults.read(results, view, queryId, columnTypes(), true);
    if (legacy.isEmpty()) {
      return;
    }
    long batchId = legacy.get().batchId();
    List<StateStoreProvider<Object, Object[]>> partitions = viewStores.providers();
    List<PinnedStateStore<Object, Object[]>> pins = new ArrayList<>();
    try {
      for (StateStoreProvider<Object, Object[]> p : partitions) {
        pins.add(p.pin(batchId + 1));
      }
      List<Object[]> rows = new ArrayList<>();
      List<Object> keys = new ArrayList<>();
      for (int i = 0; i < legacy.get().rows().size(); i++) {
        Object key = legacy.get().keys().get(i);
        if (pins.get(StatePartitions.of(key, pins.size())).get(key) == null) {
          rows.add(legacy.get().rows().get(i));
          keys.add(key);
        }
      }
      evicted.addBatch(batchId, rows, keyed ? keys : null);
    } finally {
      pins.forEach(PinnedStateStore::close);
    }
  }

  /** The sink of the result {@link #openResult()} opened. */
  Sink sink() {
    return java.util.Objects.requireNonNull(sink, "openResult() first");
  }

  /** The view's appended rows: a file in its checkpoint, or in memory. */
  private AppendedRows appendedRows(boolean keyed) throws SQLException {
    return ViewRowTypes.appendedRows(view, rowType, checkpoint, keyed);
  }

  /**
   * How the view's columns are stored.
   *
   * @throws SQLException (0A000) if a column has a type the view cannot keep
   */
  private StoredColumnType[] columnTypes() throws SQLException {
    return ViewRowTypes.columnTypes(view, rowType);
  }

  /**
   * Releases what was opened for a view that did not start: its state stores, and its result
   * if opened.
   */
  void closeUnstarted() {
    if (result != null) {
      result.close();
    }
    stores.closeAll();
    closeQueryReaders(pipeline);
  }

  /**
   * Closes the readers of its own that a pipeline whose query never started opened (a topic's
   * has connections of its own; its query would have closed them).
   */
  static void closeQueryReaders(StreamingPipeline pipeline) {
    for (SourceInput input : pipeline.inputs()) {
      if (input.source() instanceof QueryReader reader) {
        reader.close();
      }
    }
  }
}
