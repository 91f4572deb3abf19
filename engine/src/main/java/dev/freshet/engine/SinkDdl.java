package dev.freshet.engine;

import dev.freshet.common.types.SqlType;
import dev.freshet.connectors.sink.ColumnType;
import dev.freshet.connectors.sink.ExternalSink;
import dev.freshet.connectors.sink.SinkLayout;
import dev.freshet.connectors.sink.SinkSpec;
import dev.freshet.connectors.sink.SinkWriter;
import dev.freshet.engine.errors.CatalogErrors;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.push.UpsertKeys;
import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.engine.query.QueryCheckpoints;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.engine.query.ResultColumn;
import dev.freshet.engine.security.StatementSecrets;
import dev.freshet.engine.sink.SinkOptions;
import dev.freshet.engine.sink.SinkWriters;
import dev.freshet.engine.store.CatalogStore;
import dev.freshet.executor.checkpoint.CheckpointException;
import dev.freshet.executor.operators.OutputMode;
import dev.freshet.executor.runtime.StreamingPipeline;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.PlannedQuery;
import dev.freshet.planner.SqlTypes;
import dev.freshet.planner.rel.StreamTopN;
import dev.freshet.planner.catalog.ReferenceTable;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.ViewTable;
import dev.freshet.planner.exec.ExecPlan;
import dev.freshet.planner.exec.ExecPlanBuilder;
import dev.freshet.planner.exec.ExecPlanGenerator;
import dev.freshet.engine.options.RestartOptions;
import dev.freshet.engine.options.SessionOption;
import dev.freshet.engine.options.SessionOptions;
import dev.freshet.executor.runtime.RestartStrategy;
import dev.freshet.sql.parser.EmitMode;
import dev.freshet.sql.parser.SqlCreateSink;
import dev.freshet.sql.parser.SqlDropSink;
import dev.freshet.sql.parser.SqlEmit;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.ddl.SqlCreateMaterializedView;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Executes {@code CREATE SINK}, {@code DROP SINK} and {@code SHOW SINKS}.
 *
 * <p>A sink is a continuous query of its own, named after the sink, whose batches go to an
 * external system (a JDBC table, a Kafka topic) exactly once: with a data directory its query is
 * checkpointed (as a view's, under {@code checkpoints/NAME}) and every batch is written in one
 * transaction of the target together with its batch id, so that a batch run again after a crash
 * changes nothing. {@code CREATE SINK s FROM v} runs view {@code v}'s query for the sink: the sink
 * gets the same result as the view, batch for batch of its own. Its stream cannot be dropped, nor
 * its view, while the sink exists.
 *
 * <pre>{@code
 * CREATE SINK totals_out FROM totals WITH (connector = 'jdbc', 'url' = 'jdbc:h2:mem:t',
 *     'table-name' = 'totals')
 * }</pre>
 */
final class SinkDdl {
  /**
   * A sink: its statement, where it writes, its query and what it reads.
   *
   * @param name the sink's name
   * @param sql its {@code CREATE SINK} statement
   * @param spec where it writes
   * @param queryId its query's id
   * @param stream the stream its query reads
   * @param view the view it was made from, if any
   */
  record SinkEntry(String name, String sql, SinkSpec spec, String queryId,
      List<String> streams, Optional<String> view) {
    SinkEntry {
      streams = List.copyOf(streams);
    }
  }

  private SinkDdl() {
  }

  /**
   * Creates and starts the sink of {@code create}.
   *
   * @param secrets its options with the values of the secrets they name, and the statement as
   *     recorded and as shown
   * @return the statement's warnings: one per stateful operator whose state nothing bounds
   */
  static List<String> create(Engine engine, SessionOptions options, SqlCreateSink create,
      StatementSecrets secrets) throws SQLException {
    try {
      return createSink(engine, options, create, secrets);
    } catch (CheckpointException e) {
      throw CatalogErrors.viewCheckpointError(e);
    }
  }

  private static List<String> createSink(Engine engine, SessionOptions options,
      SqlCreateSink create, StatementSecrets secrets) throws SQLException {
    String sql = secrets.sql();
    String name = StreamDdl.simpleName(create.name());
    if (engine.queryRegistry().sinks().containsKey(name)) {
      if (create.ifNotExists()) {
        return List.of();
      }
      throw CatalogErrors.sinkExists(name);
    }
    if (engine.catalog().contains(name)) {
      throw CatalogErrors.sinkNameTaken(name);
    }
    // 'state.ttl' is the query's option, not the connector's: the session's if not given.
    Map<String, String> connectorOptions = new java.util.LinkedHashMap<>();
    long ownTtlMs = -1;
    for (Map.Entry<String, String> option : secrets.options().entrySet()) {
      if (option.getKey().equalsIgnoreCase(SessionOption.STATE_TTL.key())) {
        ownTtlMs = SessionOption.stateTtl(option.getKey(), option.getValue()).toMillis();
      } else {
        connectorOptions.put(option.getKey(), option.getValue());
      }
    }
    long stateTtlMs = ownTtlMs >= 0 ? ownTtlMs : options.stateTtlMs();
    SinkSpec spec = SinkOptions.parse(name, RestartOptions.without(connectorOptions),
        engine.security().connectors());
    RestartStrategy restartStrategy = RestartOptions.of(secrets.options(), options);
    SqlNode query;
    List<String> columnNames = null;
    Optional<String> view = Optional.empty();
    if (create.view() != null) {
      String viewName = StreamDdl.simpleName(create.view());
      ViewTable table = engine.catalog().view(viewName)
          .orElseThrow(() -> CatalogErrors.viewNotFound(viewName));
      SqlCreateMaterializedView definition =
          (SqlCreateMaterializedView) Session.parse(table.sql());
      query = definition.query;
      columnNames = table.getRowType(engine.planner().typeFactory()).getFieldNames();
      view = Optional.of(viewName);
    } else {
      query = create.query();
    }
    EmitMode emit = null;
    if (query instanceof SqlEmit sqlEmit) {
      emit = sqlEmit.mode();
      query = sqlEmit.query();
    }
    ViewReferences.rejectInSinkQuery(engine, query, sql);
    // An UPDATE result with HAVING: the condition becomes a column, so that a group it stops
    // admitting is deleted from the target (a tombstone in a topic) instead of staying there.
    boolean havingAsColumn = emit != EmitMode.APPEND && emit != EmitMode.COMPLETE
        && havingToColumn(query);
    FreshetPlanner planner = engine.planner();
    ContinuousQuerySetup setup = ContinuousQuerySetup.forExecutor(engine.resources(),
        engine.queryRegistry(), options, name);
    PlannedQuery plan = setup.plan(planner, query, emit);
    if (StreamTopN.in(plan.physical())) {
      throw Errors.notSupported("Sink " + name + " cannot write a top-N per group"
          + " (ROW_NUMBER() OVER (...) with rn <= N) yet. Keep it in a materialized view with"
          + " EMIT COMPLETE, or read it with a push query: SELECT STREAM ... EMIT UPDATE");
    }
    SinkLayout layout = layout(name, plan, columnNames, havingAsColumn);
    PlannedQuery run = plan.aggregating() && plan.outputMode() == OutputMode.UPDATE
        ? UpsertKeys.appendKeyColumns(plan, name).plan() : plan;
    ExecPlan execPlan = setup.planToRun(
        Errors.fromPlanner(() -> ExecPlanGenerator.generate(run)));
    setup.openCheckpoint();
    String id = setup.queryId();
    List<StreamTable> sources = plan.sources();

    SinkWriter writer = SinkWriters.open(name, id, spec, layout);
    OpenedStateStores stores = new OpenedStateStores(setup.stateStores());
    boolean started = false;
    boolean stored = false;
    StreamingPipeline built = null;
    try {
      ExecPlan toBuild = execPlan;
      StreamingPipeline pipeline = Errors.fromPlanner(() -> new ExecPlanBuilder(
          planner.typeFactory(), id, stores, engine.resources().partitionExecutor(),
          engine.resources().inputTasks()).withRowErrors(options.onError().newRowErrors())
          .withTables(engine.catalog()).withStateTtl(stateTtlMs).build(toBuild, sources));
      built = pipeline;
      synchronized (engine.ddlLock()) {
        for (StreamTable source : sources) {
          if (engine.catalog().stream(source.name()).orElse(null) != source) {
            throw CatalogErrors.streamNotFound(source.name());
          }
        }
        if (engine.queryRegistry().sinks().containsKey(name) || engine.catalog().contains(name)) {
          if (create.ifNotExists() && engine.queryRegistry().sinks().containsKey(name)) {
            return List.of();
          }
          throw engine.queryRegistry().sinks().containsKey(name) ? CatalogErrors.sinkExists(name)
              : CatalogErrors.sinkNameTaken(name);
        }
        setup.storePlan(execPlan);
        // A restart after a recoverable error connects afresh: the old connections may be dead.
        ExternalSink sink = new ExternalSink(spec.connector().equals("jdbc")
            ? "JdbcSink[" + spec.target() + "]" : "KafkaSink[" + spec.target() + "]", writer,
            () -> SinkWriters.open(name, id, spec, layout));
        ContinuousQuery continuous = setup.query(setup.execution(pipeline, sink,
            restartStrategy), secrets.shownSql(), plan.outputMode());
        stored = true;
        secrets.store();
        engine.catalogStore().record(CatalogStore.Kind.SINK, name, sql, options.values());
        engine.queryRegistry().sinks().put(name, new SinkEntry(name, sql, spec, id, plan.sourceNames(), view));
        setup.start(continuous, ReferenceTable.readBy(plan.logical()));
        started = true;
      }
    } finally {
      if (!started) {
        if (stored) {
          engine.secrets().dropped(name);
        }
        writer.close();
        stores.closeAll();
        if (built != null) {
          ViewOutputs.closeQueryReaders(built);
        }
      }
    }
    return StateWarnings.unbounded("Sink " + name, plan, stateTtlMs);
  }

  /** The sink's columns and key, or why the query cannot be written exactly once. */
  private static SinkLayout layout(String sink, PlannedQuery plan,
      @Nullable List<String> columnNames, boolean havingAsColumn) throws SQLException {
    RelDataType rowType = plan.rowType();
    List<String> names = new ArrayList<>();
    List<ColumnType> types = new ArrayList<>();
    int shown = rowType.getFieldCount() - (havingAsColumn ? 1 : 0);
    for (RelDataTypeField field : rowType.getFieldList().subList(0, shown)) {
      names.add(columnNames == null ? field.getName() : columnNames.get(field.getIndex()));
      types.add(columnType(field.getType()));
    }
    OutputMode mode = plan.outputMode();
    int[] key = new int[0];
    if (plan.aggregating() && mode != OutputMode.APPEND) {
      key = ViewKeys.columnsOfKey(plan);
      for (int column : key) {
        if (column < 0) {
          throw Errors.notSupported("Sink " + sink + " writes an " + mode + " result, which"
              + " is upserted by its group key, but the query does not show every GROUP BY"
              + " column (or window bound) as a column of its own. Add each to the SELECT"
              + " list");
        }
      }
      if (key.length == 0) {
        throw Errors.notSupported("Sink " + sink + " writes an " + mode + " result without a"
            + " group key (a global aggregate). Add a GROUP BY, or write it to a view");
      }
    }
    for (int column : key) {
      if (column >= shown) {
        throw Errors.notSupported("Sink " + sink + " would upsert by a column the result does"
            + " not show. Add each GROUP BY column to the SELECT list");
      }
    }
    return new SinkLayout(names, types, key, mode, havingAsColumn ? shown : -1);
  }

  /** A result column's type as a sink writes it; a type without a descriptor as text. */
  private static ColumnType columnType(RelDataType type) {
    SqlType sqlType = SqlTypes.of(type);
    return new ColumnType(sqlType == null ? SqlType.VARCHAR : sqlType, type.getPrecision(),
        type.getScale());
  }

  /**
   * Moves a query's HAVING condition into its select list, as its last column
   * ({@value #HAVING_COLUMN}); false, leaving it as it is, if it has none.
   */
  private static boolean havingToColumn(SqlNode query) {
    SqlNode node = query instanceof SqlOrderBy orderBy ? orderBy.query : query;
    if (!(node instanceof SqlSelect select) || select.getHaving() == null) {
      return false;
    }
    SqlNode condition = select.getHaving();
    List<SqlNode> items = new ArrayList<>(select.getSelectList().getList());
    items.add(SqlStdOperatorTable.AS.createCall(SqlParserPos.ZERO, condition,
        new SqlIdentifier(HAVING_COLUMN, SqlParserPos.ZERO)));
    select.setSelectList(new SqlNodeList(items, select.getSelectList().getParserPosition()));
    select.setHaving(null);
    return true;
  }

  /** The column of a sink's query that says whether HAVING admits the row's group. */
  static final String HAVING_COLUMN = "FRESHET$HAVING";

  static void drop(Engine engine, SqlDropSink drop) throws SQLException {
    String name = StreamDdl.simpleName(drop.name());
    SinkEntry sink;
    synchronized (engine.ddlLock()) {
      sink = engine.queryRegistry().sinks().remove(name);
    }
    if (sink == null) {
      if (!drop.ifExists()) {
        throw CatalogErrors.sinkNotFound(name);
      }
      return;
    }
    Optional<ContinuousQuery> query = engine.query(sink.queryId());
    if (query.isPresent()) {
      query.get().stop();
      engine.queryRegistry().unregister(query.get());
    }
    synchronized (engine.ddlLock()) {
      if (!engine.queryRegistry().sinks().containsKey(name) && !engine.catalog().contains(name)) {
        engine.catalogStore().remove(name);
        engine.secrets().dropped(name);
        engine.dataDir().ifPresent(dir -> QueryCheckpoints.delete(dir, name));
      }
    }
  }

  /** The sinks reading stream or view {@code name}, by name. */
  static List<String> readersOf(Engine engine, String name) {
    List<String> readers = new ArrayList<>();
    for (SinkEntry sink : engine.queryRegistry().sinks().values()) {
      if (sink.streams().contains(name) || sink.view().filter(name::equals).isPresent()) {
        readers.add(sink.name());
      }
    }
    readers.sort(null);
    return readers;
  }

  static StatementResult show(Engine engine, dev.freshet.engine.security.Principal user) {
    List<Object[]> rows = new ArrayList<>();
    for (SinkEntry sink : engine.queryRegistry().sinks().values()) {
      if (!engine.access().canSee(user, sink.name())) {
        continue;
      }
      Optional<ContinuousQuery> query = engine.query(sink.queryId());
      rows.add(new Object[] {sink.name(), sink.spec().connector(), sink.spec().target(),
          sink.view().orElse(null), sink.queryId(),
          query.map(q -> q.status().name()).orElse("STOPPED"),
          query.map(ContinuousQuery::lastBatchId).orElse(-1L)});
    }
    rows.sort((a, b) -> ((String) a[0]).compareTo((String) b[0]));
    return new StatementResult.Rows(List.of(ResultColumn.varchar("SINK_NAME", 128),
        ResultColumn.varchar("CONNECTOR", 16), ResultColumn.varchar("TARGET", 256),
        ResultColumn.varchar("VIEW_NAME", 128), ResultColumn.varchar("QUERY_ID", 36),
        ResultColumn.varchar("STATUS", 12), ResultColumn.bigint("LAST_BATCH_ID")), rows);
  }
}
