package dev.freshet.engine;

import dev.freshet.engine.errors.CatalogErrors;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.options.SessionOptions;
import dev.freshet.engine.options.StateStoreProviderKind;
import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.engine.query.ExternalExecution;
import dev.freshet.engine.query.QueryCheckpoints;
import dev.freshet.engine.spi.RunningView;
import dev.freshet.engine.spi.ViewBatchSink;
import dev.freshet.engine.spi.ViewJob;
import dev.freshet.engine.spi.ViewProgressListener;
import dev.freshet.engine.spi.ViewRunner;
import dev.freshet.engine.view.AppendViewResult;
import dev.freshet.engine.view.AppendViewSink;
import dev.freshet.engine.view.GroupRows;
import dev.freshet.engine.view.PublishedResult;
import dev.freshet.engine.view.StateViewResult;
import dev.freshet.engine.view.UpsertViewSink;
import dev.freshet.executor.checkpoint.Checkpoint;
import dev.freshet.executor.operators.OutputMode;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.providers.StateStoreProviders;
import dev.freshet.planner.WindowedQuery;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.ViewTable;
import dev.freshet.planner.errors.PlanningException;
import dev.freshet.planner.logical.LogicalQuery;
import dev.freshet.planner.logical.conversion.LogicalPlanConverter;
import dev.freshet.sql.parser.EmitMode;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeImpl;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.ddl.SqlCreateMaterializedView;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code CREATE MATERIALIZED VIEW v WITH ('engine' = 'spark') AS ...}: a view whose query another
 * engine runs ({@link ViewRunner}), whose result Freshet keeps, fed batch by batch with the
 * engine's batch ids as the view's versions. An aggregation in UPDATE or COMPLETE mode keeps one
 * row per group in a versioned state store of the view's own ({@link UpsertViewSink}), read as
 * Freshet's own UPDATE views are ({@link StateViewResult}); anything else appends its rows
 * ({@link AppendViewResult}). Readers, subscribers ({@code SELECT STREAM * FROM v}), sinks and
 * views over the view see what they see of any view.
 *
 * <p>With a data directory the view's directory holds its result (and, unless the runner is
 * told a shared location, the engine's checkpoint), so that a restart resumes where the engine's
 * checkpoint left off and applies nothing twice.
 */
final class ExternalViewDdl {
  private ExternalViewDdl() {
  }

  /**
   * Creates view {@code name} on engine {@code runOn}, or resumes it (a restart): checks and
   * translations first, then the view's files, then the catalog, then the engine's query.
   */
  static void create(Engine engine, SessionOptions options, SqlCreateMaterializedView create,
      String sql, String runOn, SqlNode query, @Nullable EmitMode emit) throws SQLException {
    String name = StreamDdl.simpleName(create.name);
    Catalog catalog = engine.catalog();
    ViewRunner runner = engine.viewRunner(runOn);
    WindowedQuery windowed = planWindowed(engine, options, query, emit);
    RelDataType rowType = MaterializedViewDdl.rename(engine.planner().typeFactory(), name,
        windowed.rowType(), create.columnList);
    boolean keyed = windowed.aggregating() && windowed.outputMode() != OutputMode.APPEND;
    LogicalQuery logical = LogicalPlanConverter.convert(windowed);
    // Types the view cannot keep are refused before anything is created.
    ViewRowTypes.columnTypes(name, rowType);

    ContinuousQuerySetup setup = ContinuousQuerySetup.forRunner(engine.resources(),
        engine.queryRegistry(), options, name);
    Checkpoint checkpoint = setup.openCheckpoint();
    String id = setup.queryId();
    ViewResultAndSink opened = null;
    ExternalExecution running = null;
    boolean started = false;
    try {
      opened = open(engine, options, name, rowType, keyed, windowed.outputMode(), checkpoint, id);
      ViewBatchSink sink = opened.sink();
      running = ExternalExecution.prepare(id, name, progress -> runner.prepare(new ViewJob(name,
          id, logical, keyed, Optional.ofNullable(checkpoint).map(Checkpoint::root), sink,
          progress)));
      synchronized (engine.ddlLock()) {
        for (StreamTable source : windowed.sources()) {
          if (catalog.stream(source.name()).orElse(null) != source) {
            throw CatalogErrors.streamNotFound(source.name());
          }
        }
        if (catalog.contains(name)) {
          if (create.ifNotExists && catalog.view(name).isPresent()) {
            return;
          }
          throw MaterializedViewDdl.nameTaken(catalog, name);
        }
        List<String> sources = windowed.sources().stream().map(StreamTable::name).toList();
        ViewTable view = new ViewTable(name, RelDataTypeImpl.proto(rowType),
            windowed.outputMode(), id, sql, sources, opened.result());
        ContinuousQuery continuous = setup.query(running, sql, windowed.outputMode());
        MaterializedViewDdl.addAndRecord(engine, options, view);
        try {
          // The other engine reads no reference table: it is given the streams only.
          setup.start(continuous, Set.of());
        } catch (RuntimeException e) {
          // The engine refused the query as it started it: the view was never there.
          engine.queryRegistry().unregister(continuous);
          catalog.dropView(name);
          if (!setup.restarting()) {
            // A view being restored stays recorded: the next start may run it.
            engine.catalogStore().remove(name);
          }
          if (e.getCause() instanceof SQLException refused) {
            throw refused;
          }
          throw e;
        }
        started = true;
      }
    } finally {
      if (!started) {
        if (opened != null) {
          opened.result().close();
        }
        if (!setup.restarting() && checkpoint != null && !catalog.contains(name)) {
          // Created for this statement only: a later CREATE starts afresh.
          engine.dataDir().ifPresent(d -> QueryCheckpoints.delete(d, name));
        }
      }
    }
  }

  /**
   * {@code EXPLAIN PLAN FOR CREATE MATERIALIZED VIEW ... WITH ('engine' = ...)}: the engine's
   * own plan. Of the view's running query if a view of that name runs the same query there
   * (what the web UI asks for a view), with the output mode it runs in; else of the query as the
   * engine would run it, translated but not started.
   */
  static String explain(Engine engine, SessionOptions options, SqlCreateMaterializedView create,
      String runOn, SqlNode query, @Nullable EmitMode emit) throws SQLException {
    String name = StreamDdl.simpleName(create.name);
    Optional<ViewTable> existing = engine.catalog().view(name);
    if (existing.isPresent()
        && Session.parse(existing.get().sql()) instanceof SqlCreateMaterializedView running
        && running.query.toString().equals(create.query.toString())) {
      Optional<String> plan = engine.query(existing.get().queryId())
          .flatMap(ContinuousQuery::externalPlan);
      if (plan.isPresent()) {
        return plan.get();
      }
    }
    ViewRunner runner = engine.viewRunner(runOn);
    WindowedQuery windowed = planWindowed(engine, options, query, emit);
    boolean keyed = windowed.aggregating() && windowed.outputMode() != OutputMode.APPEND;
    RunningView prepared = runner.prepare(new ViewJob(name, UUID.randomUUID().toString(),
        LogicalPlanConverter.convert(windowed), keyed, Optional.empty(), (batchId, rows) -> { },
        ViewProgressListener.NONE));
    try {
      return prepared.explain();
    } finally {
      prepared.stop();
    }
  }

  /** The view's query planned up to its windows, as another engine takes it. */
  private static WindowedQuery planWindowed(Engine engine, SessionOptions options, SqlNode query,
      @Nullable EmitMode emit) throws SQLException {
    try {
      return engine.planner().planWindowed(query, emit, options.maxWindowsPerRow());
    } catch (PlanningException e) {
      throw Errors.toSqlException(e);
    }
  }

  /** A view's result and the sink its engine feeds. */
  private record ViewResultAndSink(PublishedResult result, ViewBatchSink sink) {
  }

  private static ViewResultAndSink open(Engine engine, SessionOptions options, String name,
      RelDataType rowType, boolean keyed, OutputMode mode, @Nullable Checkpoint checkpoint,
      String id) throws SQLException {
    int columns = rowType.getFieldCount();
    if (!keyed) {
      AppendViewResult result = AppendViewResult.open(name, columns,
          ViewRowTypes.appendedRows(name, rowType, checkpoint, false));
      return new ViewResultAndSink(result, new AppendViewSink(name, result));
    }
    StateStoreProvider<Object, Object[]> store = groupStore(engine, options, checkpoint, id);
    try {
      StateViewResult result = StateViewResult.open(name, List.of(store), GroupRows.SAVED_ROW,
          columns, -1, null, null, Long.MAX_VALUE);
      return new ViewResultAndSink(result,
          new UpsertViewSink(name, result, store, columns, mode == OutputMode.COMPLETE));
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
  }

  /**
   * The store of the view's rows by group: in the view's checkpoint (delta files, which keep the
   * changes of the retained versions for subscribers who resume), or in memory.
   */
  private static StateStoreProvider<Object, Object[]> groupStore(Engine engine,
      SessionOptions options, @Nullable Checkpoint checkpoint, String id) {
    StateStoreId storeId = new StateStoreId(id, 0, 0);
    if (checkpoint != null) {
      return QueryCheckpoints.stateStores(checkpoint, StateStoreProviderKind.MEMORY,
          engine.resources().stateStoreMaintenance()).create(storeId);
    }
    int retain = Math.min(options.minBatchesToRetain(), ViewOutputs.MAX_VERSIONS_IN_MEMORY);
    return StateStoreProviders.committedMap(retain).create(storeId);
  }
}
