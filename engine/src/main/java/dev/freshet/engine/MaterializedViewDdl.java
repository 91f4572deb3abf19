package dev.freshet.engine;

import dev.freshet.engine.errors.CatalogErrors;
import dev.freshet.engine.errors.Errors;
import dev.freshet.executor.checkpoint.Checkpoint;
import dev.freshet.executor.checkpoint.CheckpointException;
import dev.freshet.executor.runtime.QueryStatus;
import dev.freshet.executor.operators.OutputMode;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.PlannedQuery;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.ReferenceTable;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.ViewChangelog;
import dev.freshet.planner.catalog.ViewTable;
import dev.freshet.planner.exec.BatchTime;
import dev.freshet.planner.rel.StreamTopN;
import dev.freshet.planner.exec.ExecPlan;
import dev.freshet.planner.exec.ExecPlanGenerator;
import dev.freshet.planner.exec.UnreadablePlanException;
import dev.freshet.sql.parser.EmitMode;
import dev.freshet.sql.parser.SqlEmit;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rel.type.RelDataTypeImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.ddl.SqlCreateMaterializedView;
import org.apache.calcite.sql.ddl.SqlDropMaterializedView;
import org.checkerframework.checker.nullness.qual.Nullable;
import dev.freshet.engine.store.CatalogStore;
import dev.freshet.engine.store.LegacyResults;
import dev.freshet.planner.catalog.ViewResult;
import dev.freshet.engine.push.UpsertKeys;
import dev.freshet.engine.options.SessionOptions;
import dev.freshet.executor.runtime.RestartStrategy;
import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.engine.query.QueryCheckpoints;
import dev.freshet.engine.query.StoredPlans;

/**
 * Executes {@code CREATE MATERIALIZED VIEW} and {@code DROP MATERIALIZED VIEW}.
 *
 * <p>A view is a continuous query that runs in the background, named after the view, whose sink
 * keeps the view's result: {@code EMIT UPDATE} (the default with GROUP BY) upserts by group,
 * {@code EMIT COMPLETE} replaces the result each batch, {@code EMIT APPEND} (the default
 * without GROUP BY) appends. Like a push query, it starts from the beginning of its stream.
 */
final class MaterializedViewDdl {
  private MaterializedViewDdl() {
  }

  /**
   * Creates the view and starts its query.
   *
   * @return the warnings of the statement: one per stateful operator whose state nothing bounds
   *     ({@link StateWarnings})
   */
  static List<String> create(Engine engine, SessionOptions options,
      SqlCreateMaterializedView create, String sql) throws SQLException {
    try {
      return createView(engine, options, create, sql);
    } catch (CheckpointException e) {
      throw CatalogErrors.viewCheckpointError(e);
    }
  }

  private static List<String> createView(Engine engine, SessionOptions options,
      SqlCreateMaterializedView create, String sql) throws SQLException {
    Catalog catalog = engine.catalog();
    String name = StreamDdl.simpleName(create.name);
    if (create.getReplace()) {
      throw Errors.notSupported("CREATE OR REPLACE MATERIALIZED VIEW is not supported"
          + " yet. DROP MATERIALIZED VIEW " + name + ", then CREATE MATERIALIZED VIEW " + name);
    }
    // Where the view runs: WITH ('engine' = ...), else the engine's default.
    ViewOptions viewOptions = ViewOptions.of(create, engine.viewEngines());
    String runOn = viewOptions.engine();
    RestartStrategy restartStrategy = viewOptions.restartStrategy(options);
    long stateTtlMs = viewOptions.stateTtlMs(options);
    // Checked again when the view is added; here so that a taken name is not planned for.
    if (catalog.contains(name) && !(create.ifNotExists && catalog.view(name).isPresent())) {
      throw nameTaken(catalog, name);
    }
    if (catalog.view(name).isPresent()) {
      failIfFailed(engine, catalog.view(name).get());
      return List.of();
    }
    SqlNode query = create.query;
    EmitMode emit = null;
    if (query instanceof SqlEmit) {
      emit = ((SqlEmit) query).mode();
      query = ((SqlEmit) query).query();
    }
    if (!runOn.equals(ViewEngines.FRESHET)) {
      if (viewOptions.stateTtlMs() > 0) {
        throw Errors.notSupported("Materialized view " + name + " runs on '" + runOn + "', which"
            + " has no 'state.ttl'. Leave the option out, or run the view on '"
            + ViewEngines.FRESHET + "'");
      }
      ExternalViewDdl.create(engine, options, create, sql, runOn, query, emit);
      return List.of();
    }
    FreshetPlanner planner = engine.planner();
    // Every check that can fail comes before the checkpoint and the state stores are opened;
    // what a later failure finds opened is closed again (below).
    ContinuousQuerySetup setup = ContinuousQuerySetup.forExecutor(engine.resources(),
        engine.queryRegistry(), options, name);
    PlannedQuery plan = setup.plan(planner, query, emit);
    RelDataType rowType = rename(planner.typeFactory(), name, plan.rowType(), create.columnList);

    List<StreamTable> sources = plan.sources();
    PlannedQuery run = plan;
    ViewOutputs.Layout layout;
    int keyColumn = -1;
    boolean topN = StreamTopN.in(plan.physical());
    if (topN && plan.outputMode() == OutputMode.UPDATE) {
      // An UPDATE view reads its rows from an aggregation's state, which a top-N has not.
      throw Errors.notSupported("Materialized view " + name + " cannot keep a top-N per group"
          + " (ROW_NUMBER() OVER (...) with rn <= N) in UPDATE mode yet. Add EMIT COMPLETE to"
          + " the view's query, or run it as a push query: SELECT STREAM ... EMIT UPDATE");
    }
    if (!plan.aggregating() && !topN || plan.outputMode() == OutputMode.APPEND) {
      layout = ViewOutputs.Layout.APPEND;
    } else if (plan.outputMode() == OutputMode.COMPLETE) {
      layout = ViewOutputs.Layout.COMPLETE;
    } else {
      if (BatchTime.readAboveTheTop(plan.physical())) {
        throw Errors.notSupported("CURRENT_TIMESTAMP, CURRENT_DATE and LOCALTIMESTAMP above the"
            + " GROUP BY of an UPDATE view would be computed when the view is read, not in the"
            + " batch that changed the row. Aggregate the time instead, e.g."
            + " MAX(CURRENT_TIMESTAMP) AS updated_at, or use EMIT COMPLETE");
      }
      // The plan every earlier release stored for an UPDATE view: its restarts read the same.
      run = UpsertKeys.appendKeyColumns(plan, name).plan();
      layout = ViewOutputs.Layout.UPDATE;
      // Where the view shows a one-column key as it is, a lookup by it reads one group.
      int[] shown = ViewKeys.columnsOfKey(plan);
      keyColumn = shown.length == 1 ? shown[0] : -1;
    }
    PlannedQuery planned = run;
    ExecPlan generated = Errors.fromPlanner(() -> ExecPlanGenerator.generate(planned));
    // A restart runs the plan that wrote the state, or fails: never a misread.
    ExecPlan execPlan = setup.planToRun(generated);
    // With a data directory the view's query is checkpointed, and a restarted query resumes.
    Checkpoint checkpoint = setup.openCheckpoint();
    String id = setup.queryId();
    ViewOutputs outputs;
    try {
      outputs = ViewOutputs.build(engine, options, name, layout, execPlan, sources, rowType,
          keyColumn, checkpoint, setup.provider(), id, stateTtlMs);
    } catch (UnreadablePlanException e) {
      if (checkpoint == null || execPlan == generated) {
        // The plan was made just now: not the view's fault, a bug.
        throw new IllegalStateException("Cannot build the plan just made for " + name, e);
      }
      throw StoredPlans.cannotRun(name, checkpoint, e);
    }
    boolean started = false;
    try {
      synchronized (engine.ddlLock()) {
        for (StreamTable source : sources) {
          if (source instanceof ViewChangelog changes) {
            if (catalog.view(changes.name()).orElse(null) != changes.view()) {
              // The view read was dropped while this one was being planned.
              throw CatalogErrors.viewNotFound(changes.name());
            }
          } else if (catalog.stream(source.name()).orElse(null) != source) {
            // Dropped (or dropped and created again) while the query was being planned.
            throw CatalogErrors.streamNotFound(source.name());
          }
        }
        if (catalog.contains(name)) {
          if (create.ifNotExists && catalog.view(name).isPresent()) {
            // The stores are closed (finally): the view that exists runs its own query.
            return List.of();
          }
          throw nameTaken(catalog, name);
        }
        // Only now that the name is free: another CREATE of it may have lost the race.
        setup.storePlan(execPlan);
        // Opened only now that the name is free: what an older release kept in H2 of the result
        // of a view of this name is taken over, if it is this query's, and dropped.
        ViewResult result = outputs.openResult();
        ViewTable view = new ViewTable(name, RelDataTypeImpl.proto(rowType), plan.outputMode(),
            id, sql, plan.sourceNames(), result);
        ContinuousQuery continuous = setup.query(
            setup.execution(outputs.pipeline(), outputs.sink(), restartStrategy), sql,
            plan.outputMode());
        addAndRecord(engine, options, view);
        setup.start(continuous, ReferenceTable.readBy(plan.logical()));
        started = true;
      }
    } finally {
      if (!started) {
        // The stores belong to the view until its query runs, which closes them when it stops.
        outputs.closeUnstarted();
      }
    }
    return StateWarnings.unbounded("Materialized view " + name, plan, stateTtlMs);
  }

  /**
   * Adds {@code view} to the catalog and records it in the catalog store, or neither. Under the
   * DDL lock, with the view's name checked free.
   */
  static void addAndRecord(Engine engine, SessionOptions options, ViewTable view)
      throws SQLException {
    if (!engine.catalog().addView(view)) {
      throw new IllegalStateException("name " + view.name()
          + " was taken while the DDL lock was held");
    }
    try {
      engine.catalogStore().record(CatalogStore.Kind.MATERIALIZED_VIEW, view.name(), view.sql(),
          options.values());
    } catch (SQLException | RuntimeException e) {
      engine.catalog().dropView(view.name());
      throw e;
    }
  }

  static void drop(Engine engine, SqlDropMaterializedView drop) throws SQLException {
    String name = StreamDdl.simpleName(drop.name);
    Catalog catalog = engine.catalog();
    Optional<ViewTable> dropped;
    synchronized (engine.ddlLock()) {
      if (catalog.stream(name).isPresent()) {
        throw CatalogErrors.wrongObjectType(name, "stream", "materialized view",
            "DROP STREAM " + name);
      }
      List<String> sinks = SinkDdl.readersOf(engine, name);
      if (!sinks.isEmpty() && catalog.view(name).isPresent()) {
        throw CatalogErrors.inUseBySinks("materialized view", name, sinks);
      }
      // A view that reads this one's changes could never change again: it goes first.
      List<String> readers = catalog.views().stream()
          .filter(v -> !v.name().equals(name) && v.sources().contains(name))
          .map(ViewTable::name).toList();
      if (!readers.isEmpty() && catalog.view(name).isPresent()) {
        throw CatalogErrors.inUseByViews("materialized view", name, readers);
      }
      dropped = catalog.dropView(name);
    }
    if (dropped.isEmpty()) {
      if (!drop.ifExists) {
        throw CatalogErrors.viewNotFound(name);
      }
      return;
    }
    Optional<ContinuousQuery> query = engine.query(dropped.get().queryId());
    if (query.isPresent()) {
      query.get().stop();
      engine.queryRegistry().unregister(query.get());
    }
    synchronized (engine.ddlLock()) {
      // A view created again later starts afresh, as a new query; unless one has been created
      // already while this one stopped, and the files are its own.
      if (!catalog.contains(name)) {
        engine.catalogStore().remove(name);
        query.ifPresent(ContinuousQuery::deleteExternalCheckpoint);
        closeResult(dropped.get());
        engine.dataDir().ifPresent(dir -> QueryCheckpoints.delete(dir, name));
        LegacyResults.drop(engine.results(), name);
      }
    }
  }

  /**
   * Releases what the result of a view whose query has stopped holds: a result read from the
   * query's state closes its state stores (its query does not, so that a stopped view stays
   * readable).
   */
  static void closeResult(ViewTable view) {
    if (view.result() instanceof AutoCloseable result) {
      try {
        result.close();
      } catch (Exception e) {
        throw new IllegalStateException("Cannot close the result of view " + view.name(), e);
      }
    }
  }

  /** Declaring a view again that exists but failed (e.g. its checkpoint is damaged) fails too. */
  private static void failIfFailed(Engine engine, ViewTable view) throws SQLException {
    Optional<ContinuousQuery> query = engine.query(view.queryId());
    if (query.isPresent() && query.get().status() == QueryStatus.FAILED
        && query.get().exception().isPresent()) {
      throw CatalogErrors.viewFailed(view.name(), query.get().lastBatchId(),
          query.get().exception().get());
    }
  }

  static SQLException nameTaken(Catalog catalog, String name) {
    if (catalog.table(name).isPresent()) {
      return CatalogErrors.nameTaken("materialized view", name, "table", "DROP TABLE " + name);
    }
    return catalog.stream(name).isPresent()
        ? CatalogErrors.nameTaken("materialized view", name, "stream", "DROP STREAM " + name)
        : CatalogErrors.viewExists(name);
  }

  /** The query's row type with the view's column names, if {@code CREATE} lists them. */
  static RelDataType rename(RelDataTypeFactory typeFactory, String view,
      RelDataType rowType, @Nullable SqlNodeList columnList) throws SQLException {
    List<RelDataTypeField> fields = rowType.getFieldList();
    List<String> names = new ArrayList<>(rowType.getFieldNames());
    if (columnList != null) {
      if (columnList.size() != fields.size()) {
        throw Errors.invalidDefinition("Materialized view " + view + " names "
            + columnList.size() + " columns, but its query has " + fields.size() + ". Name"
            + " each column of the query once, or leave the list out");
      }
      for (int i = 0; i < names.size(); i++) {
        names.set(i, StreamDdl.simpleName((SqlIdentifier) columnList.get(i)));
      }
    }
    Set<String> seen = new HashSet<>();
    for (String column : names) {
      if (!seen.add(column)) {
        throw Errors.invalidDefinition("Column " + column + " appears twice in"
            + " materialized view " + view + ". Give each column of the query a distinct alias");
      }
    }
    List<RelDataType> types = new ArrayList<>();
    for (RelDataTypeField field : fields) {
      types.add(field.getType());
    }
    return typeFactory.createStructType(types, names);
  }
}
