package dev.freshet.engine;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.CatalogErrors;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.errors.Failures;
import dev.freshet.engine.errors.TransactionErrors;
import dev.freshet.executor.limits.QueryResources;
import dev.freshet.executor.runtime.MicroBatchExecution;
import dev.freshet.executor.operators.OutputMode;
import dev.freshet.executor.runtime.StreamingPipeline;
import dev.freshet.executor.runtime.QueryStatus;
import dev.freshet.executor.state.providers.StateStoreProviders;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.PlannedQuery;
import dev.freshet.planner.StateBounds;
import dev.freshet.planner.catalog.ReferenceTable;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.ViewTable;
import dev.freshet.planner.exec.ExecPlanBuilder;
import dev.freshet.planner.rel.StreamTopN;
import dev.freshet.sql.parser.EmitMode;
import dev.freshet.sql.FreshetSqlParser;
import dev.freshet.sql.parser.SqlCreateSink;
import dev.freshet.sql.parser.SqlCreateStream;
import dev.freshet.sql.parser.SqlCreateTable;
import dev.freshet.sql.parser.SqlDropSink;
import dev.freshet.sql.parser.SqlDropStream;
import dev.freshet.sql.parser.SqlEmit;
import dev.freshet.sql.parser.SqlGrant;
import dev.freshet.sql.parser.SqlShowGrants;
import dev.freshet.sql.parser.SqlSetProperty;
import dev.freshet.sql.parser.SqlShow;
import dev.freshet.sql.parser.SqlStopQuery;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlDescribeTable;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.ddl.SqlCreateMaterializedView;
import org.apache.calcite.sql.ddl.SqlDropMaterializedView;
import org.apache.calcite.sql.ddl.SqlDropTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;
import dev.freshet.engine.store.CatalogStore;
import dev.freshet.engine.push.PushPolicy;
import dev.freshet.engine.push.PushQuery;
import dev.freshet.engine.push.UpsertKeys;
import dev.freshet.engine.options.SessionOptions;
import dev.freshet.engine.options.StateStoreProviderKind;
import dev.freshet.engine.query.CancelSignal;
import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.engine.query.InsertExecutor;
import dev.freshet.engine.query.PendingInserts;
import dev.freshet.engine.query.PlainQueryRun;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.engine.query.ResultColumn;
import dev.freshet.engine.security.CurrentPrincipal;
import dev.freshet.engine.security.Principal;
import dev.freshet.engine.security.Redaction;
import dev.freshet.engine.security.StatementSecrets;
import dev.freshet.sql.parser.SqlWithOptions;

/**
 * A conversation with an {@link Engine}: executes SQL statements one at a time, with options of its
 * own (set by {@code SET 'key' = 'value'}).
 *
 * <pre>{@code
 * session.execute("CREATE MATERIALIZED VIEW clicks_per_user AS"
 *     + " SELECT user_id, COUNT(*) AS n FROM clicks GROUP BY user_id EMIT UPDATE");
 * StatementResult r = session.execute("SELECT * FROM clicks_per_user WHERE n > 10");
 * }</pre>
 *
 * <p>Where a plain {@code SELECT} goes depends on what it reads: over streams only, Freshet's
 * executor answers it from every row the streams hold; over materialized views only (or no table
 * at all), Calcite's enumerable engine answers it from the views' current snapshots. A query that
 * reads both is rejected.
 */
public final class Session {
  private final Engine engine;
  private final SessionOptions options = new SessionOptions();
  /** The INSERTs of the open transaction when auto-commit is off; guarded by itself. */
  private final PendingInserts pending = new PendingInserts();
  private volatile boolean autoCommit = true;
  private volatile boolean readOnly;
  /** Who runs this session's statements. */
  private final Principal principal;
  /** Set on the session that declares a restarted engine's catalog again: not audited. */
  private boolean restoring;

  Session(Engine engine, Principal principal) {
    this.engine = requireNonNull(engine, "engine");
    this.principal = requireNonNull(principal, "principal");
  }

  /** Who runs this session's statements. */
  public Principal principal() {
    return principal;
  }

  /** The engine this session runs on. */
  public Engine engine() {
    return engine;
  }

  /** The number of state partitions of the continuous queries this session starts. */
  public int statePartitions() {
    return options.statePartitions();
  }

  /** The session's limit of windows per row for the queries it plans. */
  int maxWindowsPerRow() {
    return options.maxWindowsPerRow();
  }

  /**
   * The trigger interval of the continuous queries this session starts; {@link Duration#ZERO}
   * means a batch starts as soon as data arrives.
   */
  public Duration triggerInterval() {
    return options.triggerInterval();
  }

  /** When the batches of the continuous queries this session starts run. */
  public dev.freshet.executor.runtime.Trigger trigger() {
    return options.trigger();
  }

  /** How many batches behind the latest the checkpoints of queries this session starts keep. */
  public int minBatchesToRetain() {
    return options.minBatchesToRetain();
  }

  /** Where the continuous queries this session starts keep state. */
  public StateStoreProviderKind stateStoreProvider() {
    return options.stateStoreProvider();
  }

  /** Whether each INSERT commits when it returns (true, as a new session starts). */
  public boolean autoCommit() {
    return autoCommit;
  }

  /**
   * Turns auto-commit on or off. Off, the session's INSERTs wait in its transaction until
   * {@link #commit} appends them (one offset per stream) or {@link #rollback} drops them; other
   * statements (DDL included) take effect at once, as with auto-commit on. Turning it on commits
   * the pending INSERTs, as JDBC asks.
   *
   * <pre>{@code
   * session.setAutoCommit(false);
   * session.execute("INSERT INTO clicks VALUES ('u1', 1.0)");   // not visible yet
   * session.commit();                                          // visible, one offset
   * }</pre>
   */
  public void setAutoCommit(boolean on) throws SQLException {
    synchronized (pending) {
      if (on && !autoCommit) {
        commit();
      }
      autoCommit = on;
    }
  }

  /** Whether the session refuses writes (INSERT, CREATE, DROP, STOP QUERY) with 25006. */
  public boolean readOnly() {
    return readOnly;
  }

  /**
   * Makes the session read-only, or writable again. It governs the statements that follow:
   * INSERTs already pending stay pending, and {@link #commit} still appends them. (A remote
   * client may send the setting late, with its next request, so refusing it mid-transaction
   * would fail that request instead.)
   */
  public void setReadOnly(boolean on) {
    readOnly = on;
  }

  /**
   * Appends the pending INSERTs, each stream's as one offset (one micro-batch, one fsync);
   * nothing to do with none pending or auto-commit on. See {@link PendingInserts#commit} for
   * what is atomic across streams.
   */
  public void commit() throws SQLException {
    synchronized (pending) {
      if (pending.isEmpty()) {
        return;
      }
      // Under the DDL lock: a stream cannot be dropped between the check and the append.
      synchronized (engine.ddlLock()) {
        pending.commit(name -> engine.catalog().stream(name)
            .flatMap(StreamTable::memoryStream));
      }
    }
  }

  /** Drops the pending INSERTs. */
  public void rollback() {
    synchronized (pending) {
      pending.clear();
    }
  }

  /**
   * Parses and executes one statement.
   *
   * @throws SQLException with a SQLSTATE and a message that says how to fix the statement
   */
  public StatementResult execute(String sql) throws SQLException {
    return execute(sql, new CancelSignal());
  }

  /**
   * Parses and executes one statement; a plain query stops with 57014 once {@code cancel} is
   * cancelled (from another thread, before or while it runs).
   *
   * <pre>{@code
   * CancelSignal cancel = new CancelSignal();   // Statement.cancel() calls cancel.cancel()
   * session.execute("SELECT COUNT(*) FROM clicks a JOIN clicks b ON a.url = b.url", cancel);
   * }</pre>
   *
   * @throws SQLException with a SQLSTATE and a message that says how to fix the statement
   */
  public StatementResult execute(String sql, CancelSignal cancel) throws SQLException {
    try {
      return asPrincipal(() -> run(sql, cancel));
    } catch (SQLException e) {
      // A message may quote the statement, as a syntax error does: never a secret it holds.
      throw Redaction.scrub(e, Redaction.hiddenValues(sql));
    } catch (RuntimeException | StackOverflowError | ExceptionInInitializerError
        | AssertionError e) {
      // Calcite and Janino report some conditions of the statement (a division by zero folded
      // at planning, a nesting that overflows the stack) as throwables, not SQLExceptions.
      throw Redaction.scrub(Failures.toSqlException(e), Redaction.hiddenValues(sql));
    }
  }

  /**
   * The secrets of a statement that creates {@code object}: its options with the values of the
   * secrets it names, which this session's user must be allowed to use.
   */
  private StatementSecrets secrets(String object, SqlWithOptions statement, String sql)
      throws SQLException {
    return StatementSecrets.of(engine.secrets(), principal, object, statement, sql);
  }

  /** A statement's step that handles the values of its secrets. */
  private interface SecretsStep {
    void run() throws SQLException;
  }

  /**
   * Runs {@code step}, whose errors (a connector's, say) never quote the values of the secrets
   * the statement names.
   */
  private static void hidingSecrets(StatementSecrets secrets, SecretsStep step)
      throws SQLException {
    try {
      step.run();
    } catch (SQLException e) {
      throw secrets.scrub(e);
    } catch (RuntimeException e) {
      throw secrets.scrub(Failures.toSqlException(e));
    }
  }

  /**
   * Executes a statement with parameter markers, one value per marker ({@link
   * StatementParameters#bind} says which Java values).
   *
   * <pre>{@code
   * StatementParameters p = StatementParameters.of(session, "SELECT c FROM v WHERE k = ?");
   * session.execute(p, List.of(42L));   // planned and compiled once for every key
   * }</pre>
   *
   * <p>A plain query that Calcite runs is planned with its markers and run with the values as
   * they are ({@link PlainSelect#parameterized}), so executing it again with other values
   * reuses its compiled plan. Any other
   * statement, and a value that does not fit its marker's type exactly, runs as the text
   * {@link StatementParameters#bind} writes: the same rows, SQLSTATEs and messages either way.
   *
   * @throws SQLException 07001 if there are fewer or more values than markers, or as
   *     {@link #execute(String)}
   */
  public StatementResult execute(StatementParameters parameters, List<?> values)
      throws SQLException {
    return execute(parameters, values, new CancelSignal());
  }

  /**
   * {@link #execute(StatementParameters, List)}, cancelled as
   * {@link #execute(String, CancelSignal)} is.
   */
  public StatementResult execute(StatementParameters parameters, List<?> values,
      CancelSignal cancel) throws SQLException {
    String bound = parameters.bind(values);
    if (parameters.count() == 0 || !parameters.plainQuery()
        || !engine.notRestored().isEmpty()) {
      return execute(bound, cancel);
    }
    try {
      StatementPrivileges.checkReads(engine, principal, parameters.references());
      PlainSelect.Parameterized select = parameters.parameterized(engine);
      StatementResult result = select == null ? null
          : asPrincipal(() -> runPlain(bound, cancel,
              run -> select.execute(options.pullMaxRows(), values, run)));
      return result != null ? result : execute(bound, cancel);
    } catch (RuntimeException | StackOverflowError | ExceptionInInitializerError
        | AssertionError e) {
      throw Failures.toSqlException(e);
    }
  }

  /** Runs {@code statement} with {@link CurrentPrincipal} this session's user. */
  private <T> T asPrincipal(java.util.concurrent.Callable<T> statement) throws SQLException {
    try {
      return CurrentPrincipal.as(principal, statement);
    } catch (SQLException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** A plain query's execution within its run. */
  private interface PlainStep {
    StatementResult.@Nullable Rows run(PlainQueryRun run) throws SQLException;
  }

  /**
   * Runs a plain query as a listed {@link PlainQueryRun} with the session's budget, which
   * {@code cancel} and STOP QUERY cancel.
   */
  private StatementResult.@Nullable Rows runPlain(String sql, CancelSignal cancel,
      PlainStep step) throws SQLException {
    PlainQueryRun run = engine.plainQueries().start(sql, principal, options.queryMemoryBudget());
    try {
      cancel.attach(run::cancel);
      return step.run(run);
    } finally {
      cancel.detach();
      engine.plainQueries().end(run);
    }
  }

  private StatementResult run(String sql, CancelSignal cancel) throws SQLException {
    SqlNode node = parse(sql);
    if (readOnly) {
      Optional<String> write = WriteStatements.kind(node);
      if (write.isPresent()) {
        throw TransactionErrors.readOnly(write.get());
      }
    }
    if (restoring) {
      // The engine declaring its catalog again at start: nobody's statement.
      return authorizedRun(node, sql, cancel);
    }
    StatementAudit audit = StatementAudit.of(engine.audit(), principal, node, sql);
    try {
      StatementResult result = authorizedRun(node, sql, cancel);
      audit.ok();
      return result;
    } catch (SQLException e) {
      audit.failed(e);
      throw e;
    }
  }

  private StatementResult authorizedRun(SqlNode node, String sql, CancelSignal cancel)
      throws SQLException {
    StatementPrivileges.check(engine, principal, node);
    int markers = ParameterMarkers.count(node);
    if (markers > 0) {
      // Executed as text there are no values to bind: a NULL in their place would be stored.
      throw Errors.of(SqlState.PARAMETER_VALUES_MISSING, "The statement has " + markers
          + " parameter marker" + (markers == 1 ? "" : "s") + " (?) but no value for "
          + (markers == 1 ? "it" : "them") + ". Execute it as a PreparedStatement with its"
          + " values set, or write the values into the statement");
    }
    if (engine.notRestored().isEmpty()) {
      return owned(node, sql, cancel);
    }
    Optional<String> dropped = NotRestoredObjects.drop(engine, node);
    if (dropped.isPresent()) {
      return new StatementResult.UpdateCount(0);
    }
    try {
      StatementResult result = owned(node, sql, cancel);
      NotRestoredObjects.declared(engine, node);
      return result;
    } catch (SQLException e) {
      throw NotRestoredObjects.explain(engine, node, e);
    }
  }

  /**
   * Executes {@code node}, recording the session's user as the owner of what it creates and
   * forgetting the owner and grants of what it drops. (Two sessions racing to create one name
   * with IF NOT EXISTS both succeed; the first to record owns it.)
   */
  private StatementResult owned(SqlNode node, String sql, CancelSignal cancel)
      throws SQLException {
    Optional<String> created = StatementPrivileges.createdName(node);
    Optional<String> dropped = StatementPrivileges.droppedName(node);
    if (created.isEmpty() && dropped.isEmpty()) {
      return execute(node, sql, cancel);
    }
    boolean existed = created.isPresent() && engine.objectNames().contains(created.get());
    StatementResult result = execute(node, sql, cancel);
    if (created.isPresent() && !existed && engine.objectNames().contains(created.get())) {
      engine.access().created(created.get(), principal);
    }
    if (dropped.isPresent() && !engine.objectNames().contains(dropped.get())) {
      engine.access().dropped(dropped.get());
    }
    return result;
  }

  private StatementResult execute(SqlNode node, String sql, CancelSignal cancel)
      throws SQLException {
    FreshetPlanner planner = engine.planner();
    if (node instanceof SqlGrant grant) {
      Grants.execute(engine, principal, grant);
      return new StatementResult.UpdateCount(0);
    }
    if (node instanceof SqlShowGrants show) {
      return Grants.show(engine, principal, show);
    }
    if (node instanceof SqlCreateStream) {
      SqlCreateStream create = (SqlCreateStream) node;
      String name = StreamDdl.simpleName(create.name());
      StatementSecrets secrets = secrets(name, create, sql);
      synchronized (engine.ddlLock()) {
        boolean creates = !engine.catalog().contains(name);
        hidingSecrets(secrets, () -> {
          StreamDdl.create(engine, create, secrets.options());
          if (creates) {
            secrets.store();
          }
        });
        engine.catalogStore().record(CatalogStore.Kind.STREAM, name, secrets.sql(), Map.of());
      }
      return new StatementResult.UpdateCount(0);
    }
    if (node instanceof SqlDropStream) {
      synchronized (engine.ddlLock()) {
        SqlDropStream drop = (SqlDropStream) node;
        StreamDdl.drop(engine, drop);
        engine.catalogStore().remove(StreamDdl.simpleName(drop.name()));
        engine.secrets().dropped(StreamDdl.simpleName(drop.name()));
      }
      return new StatementResult.UpdateCount(0);
    }
    Optional<StatementResult> secret = SecretDdl.execute(engine, principal, node);
    if (secret.isPresent()) {
      return secret.get();
    }
    if (node instanceof SqlCreateTable create) {
      StatementSecrets secrets = secrets(StreamDdl.simpleName(create.name()), create, sql);
      hidingSecrets(secrets, () -> TableDdl.create(engine, create, secrets));
      return new StatementResult.UpdateCount(0);
    }
    if (node instanceof SqlDropTable drop) {
      TableDdl.drop(engine, drop);
      return new StatementResult.UpdateCount(0);
    }
    if (node instanceof SqlInsert || node instanceof SqlUpdate || node instanceof SqlDelete) {
      // A table's rows change at once; an INSERT into a stream goes on below.
      Optional<Integer> changed = TableDml.execute(engine, node);
      if (changed.isPresent()) {
        return new StatementResult.UpdateCount(changed.get());
      }
    }
    if (node instanceof SqlCreateMaterializedView) {
      return new StatementResult.UpdateCount(0,
          MaterializedViewDdl.create(engine, options, (SqlCreateMaterializedView) node, sql));
    }
    if (node instanceof SqlDropMaterializedView) {
      MaterializedViewDdl.drop(engine, (SqlDropMaterializedView) node);
      return new StatementResult.UpdateCount(0);
    }
    if (node instanceof SqlCreateSink create) {
      StatementSecrets secrets = secrets(StreamDdl.simpleName(create.name()), create, sql);
      List<String> warnings = new ArrayList<>();
      hidingSecrets(secrets,
          () -> warnings.addAll(SinkDdl.create(engine, options, create, secrets)));
      return new StatementResult.UpdateCount(0, warnings);
    }
    if (node instanceof SqlDropSink drop) {
      SinkDdl.drop(engine, drop);
      return new StatementResult.UpdateCount(0);
    }
    if (node instanceof SqlInsert) {
      if (autoCommit) {
        return new StatementResult.UpdateCount(InsertExecutor.insert(planner, (SqlInsert) node));
      }
      InsertExecutor.Rows rows = InsertExecutor.evaluate(planner, (SqlInsert) node);
      synchronized (pending) {
        pending.add(rows);
      }
      return new StatementResult.UpdateCount(rows.rows().size());
    }
    if (node instanceof SqlExplain) {
      return explain((SqlExplain) node, sql);
    }
    if (node instanceof SqlSetProperty) {
      SqlSetProperty set = (SqlSetProperty) node;
      options.set(set.key(), set.value());
      return new StatementResult.UpdateCount(0);
    }
    if (node instanceof SqlShow) {
      switch (((SqlShow) node).kind()) {
      case STREAMS:
        return showStreams();
      case VIEWS:
        return showViews();
      case QUERIES:
        return showQueries();
      case SINKS:
        return SinkDdl.show(engine, principal);
      default:
        break;
      }
    }
    if (node instanceof SqlStopQuery) {
      stopQuery(((SqlStopQuery) node).queryId());
      return new StatementResult.UpdateCount(0);
    }
    if (node instanceof SqlDescribeTable) {
      return describe((SqlDescribeTable) node);
    }
    if (node instanceof SqlEmit) {
      SqlEmit emit = (SqlEmit) node;
      return push(emit.query(), emit.mode(), sql);
    }
    if (node.isA(SqlKind.QUERY)) {
      if (FreshetPlanner.isStreamQuery(node)) {
        return push(node, null, sql);
      }
      PlainSelect select = PlainSelect.plan(engine, node, sql, options.maxWindowsPerRow());
      return runPlain(sql, cancel, run -> select.execute(options.pullMaxRows(), run));
    }
    throw Errors.notSupported("Statement " + node.getKind() + " is not supported yet");
  }

  /**
   * Runs a stream's or view's recorded {@code CREATE} again, with the options the view was created
   * with: how a restarted engine gets its catalog back.
   */
  void recreate(CatalogStore.Entry entry) throws SQLException {
    restoring = true;
    for (Map.Entry<String, String> option : entry.options().entrySet()) {
      options.set(option.getKey(), option.getValue());
    }
    execute(entry.sql());
    // Recorded by an engine that kept passwords as written: they are anonymous secrets now.
    String recorded = StatementSecrets.recorded(entry.sql(), entry.name());
    if (!recorded.equals(entry.sql())) {
      engine.catalogStore().replaceSql(entry.name(), recorded);
    }
  }

  public static SqlNode parse(String sql) throws SQLException {
    if (sql.isBlank()) {
      throw Errors.of(SqlState.SYNTAX_ERROR, "The statement is empty. Send one SQL statement,"
          + " such as SELECT 1");
    }
    try {
      return FreshetSqlParser.parse(sql);
    } catch (StackOverflowError e) {
      throw Failures.tooComplex(e);
    } catch (SqlParseException e) {
      for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
        if (t instanceof StackOverflowError) {
          throw Failures.tooComplex(e);
        }
      }
      SqlParserPos pos = e.getPos();
      String message = e.getMessage() == null ? "the statement cannot be parsed"
          : e.getMessage();
      int newline = message.indexOf('\n');
      String first = newline < 0 ? message : message.substring(0, newline);
      // Calcite ends its first line with the position, which the error names already.
      first = first.replaceFirst(" at line \\d+, column \\d+\\.?$", ".");
      throw Errors.parseError(first, pos == null ? 0 : pos.getLineNum(),
          pos == null ? 0 : pos.getColumnNum(), e);
    }
  }

  private StatementResult push(SqlNode query, @Nullable EmitMode emit, String sql)
      throws SQLException {
    Optional<Map.Entry<ViewTable, Long>> feed = ViewFeed.match(engine, query);
    if (feed.isPresent()) {
      ViewFeed.checkEmit(feed.get().getKey(), emit);
      StatementResult.Push opened = ViewFeed.open(engine, options, feed.get().getKey(),
          feed.get().getValue());
      engine.access().watch(opened.query().query().id(), principal,
          java.util.Set.of(feed.get().getKey().name()), opened.query());
      return opened;
    }
    PlannedQuery plan = Errors.fromPlanner(
        () -> engine.planner().planQuery(query, emit, options.statePartitions(),
            options.maxWindowsPerRow()));
    // An aggregation's UPDATE or COMPLETE rows carry their group key (and in UPDATE mode whether
    // the group is new) as hidden columns, a top-N's rows their group and rank: what the
    // PushQuery needs to coalesce rows per key and to tell INSERT from UPDATE and DELETE. Other
    // results only ever insert.
    PushPolicy policy = new PushPolicy.Append(options.pushBufferRows());
    PlannedQuery run = plan;
    if ((plan.aggregating() || StreamTopN.in(plan.physical()))
        && plan.outputMode() != OutputMode.APPEND) {
      UpsertKeys.Hidden hidden = UpsertKeys.appendPushColumns(plan);
      run = hidden.plan();
      policy = plan.outputMode() == OutputMode.UPDATE
          ? new PushPolicy.Upsert(hidden.keyColumns(), hidden.newKeyColumn())
          : new PushPolicy.Table(hidden.keyColumns());
    }
    String id = UUID.randomUUID().toString();
    PlannedQuery toRun = run;
    StreamingPipeline pipeline = Errors.fromPlanner(() ->
        new ExecPlanBuilder(engine.planner().typeFactory(), id,
            StateStoreProviders.inMemory(), engine.partitionExecutor(),
            engine.inputTasks()).withRowErrors(options.onError().newRowErrors())
            .withTables(engine.catalog()).withStateTtl(options.stateTtlMs()).build(toRun));
    boolean markers = options.pushBatchMarkers();
    PushQuery push = new PushQuery(policy, plan.rowType().getFieldCount(), markers,
        engine.scheduler());
    String name = "push-" + id.substring(0, 8);
    MicroBatchExecution execution = MicroBatchExecution.builder(id, name, pipeline, push.sink())
        .trigger(options.trigger())
        .resources(new QueryResources(name, options.queryMemoryBudget(), engine.memoryPool()))
        .restartStrategy(options.restartStrategy()).build();
    ContinuousQuery continuous = new ContinuousQuery(execution, sql, plan.outputMode(), null,
        engine::unregister, push);
    push.attach(continuous);
    engine.readsTables(id, ReferenceTable.readBy(plan.logical()));
    engine.access().watch(id, principal, StatementPrivileges.reads(engine, query), push);
    engine.registerPush(continuous);
    continuous.start();
    return new StatementResult.Push(pushColumns(plan.rowType(), markers), push);
  }

  /** The columns of a push query's result: its own, then the two trailing ones. */
  static List<ResultColumn> pushColumns(RelDataType rowType, boolean markers) {
    List<ResultColumn> columns = new ArrayList<>();
    for (ResultColumn column : columns(rowType)) {
      // A batch marker has NULL in every data column.
      columns.add(markers && !column.nullable() ? column.asNullable() : column);
    }
    columns.add(ResultColumn.bigint(PushQuery.BATCH_ID).asNotNull());
    columns.add(ResultColumn.varchar(PushQuery.ROW_KIND, 9).asNotNull());
    return columns;
  }

  /** Whether this session's push queries end each batch with a marker row. */
  boolean pushBatchMarkers() {
    return options.pushBatchMarkers();
  }

  /**
   * The plan of a push query or a view's query, as the streaming planner makes it; of a plain
   * query over views or system tables, as Calcite runs it; of a plain query over streams, as
   * Freshet's executor runs it once over the rows held, or as Calcite runs it if the streaming
   * planner refuses it (see {@link PlainSelect}).
   */
  private StatementResult explain(SqlExplain explain, String sql) throws SQLException {
    SqlNode explicandum = explain.getExplicandum();
    if (explicandum.isA(SqlKind.QUERY) && !FreshetPlanner.isStreamQuery(explicandum)) {
      Optional<String> plan = engine.pullQueries().explain(explicandum);
      if (plan.isPresent()) {
        return planRow(plan.get());
      }
      // It reads streams. Validation rewrote the tree; the streaming planner validates a fresh one.
      SqlNode query = ((SqlExplain) parse(sql)).getExplicandum();
      try {
        return planRow(RelOptUtil.toString(Errors.fromPlanner(() -> engine.planner()
            .planQuery(query, null, options.statePartitions(), options.maxWindowsPerRow()))
            .logical()));
      } catch (SQLException refused) {
        try {
          return planRow(engine.pullQueries().explainBatch(
              ((SqlExplain) parse(sql)).getExplicandum()));
        } catch (SQLException e) {
          refused.addSuppressed(e);
          throw refused;
        }
      }
    }
    SqlCreateMaterializedView view = null;
    if (explicandum instanceof SqlCreateMaterializedView create) {
      // A view's query is planned exactly like a push query.
      view = create;
      explicandum = create.query;
    }
    EmitMode mode = null;
    if (explicandum instanceof SqlEmit) {
      mode = ((SqlEmit) explicandum).mode();
      explicandum = ((SqlEmit) explicandum).query();
    }
    // The state TTL the query would run with: the view's own, else the session's.
    long stateTtlMs = options.stateTtlMs();
    if (view != null) {
      ViewOptions viewOptions = ViewOptions.of(view, engine.viewEngines());
      String runOn = viewOptions.engine();
      stateTtlMs = viewOptions.stateTtlMs(options);
      if (!runOn.equals(ViewEngines.FRESHET)) {
        // Another engine plans the state itself: its plan, not Freshet's.
        return planRow(ExternalViewDdl.explain(engine, options, view, runOn, explicandum, mode));
      }
    }
    SqlNode query = explicandum;
    EmitMode emit = mode;
    PlannedQuery plan = Errors.fromPlanner(
        () -> engine.planner().planQuery(query, emit, options.statePartitions(),
            options.maxWindowsPerRow()));
    // Each stateful operator is labelled with what bounds its state (docs/sql.md, EXPLAIN); a
    // stream whose retention let offsets go says where a new query starts.
    return planRow(StateBounds.explain(plan.logical(), stateTtlMs) + retentionStarts(plan));
  }

  /**
   * A line per memory stream whose retention let offsets go, e.g. {@code -- CLICKS: a new query
   * starts at offset 4711, the oldest its 'retention' holds}: a query created now does not see
   * the rows before it. Nothing for streams that still hold offset 1.
   */
  private static String retentionStarts(PlannedQuery plan) {
    StringBuilder notes = new StringBuilder();
    for (StreamTable stream : plan.sources()) {
      stream.memoryStream().filter(m -> m.oldestOffset() > 1).ifPresent(m -> notes
          .append("-- ").append(stream.name()).append(": a new query starts at offset ")
          .append(m.oldestOffset()).append(", the oldest its 'retention' holds\n"));
    }
    return notes.toString();
  }

  private static StatementResult planRow(String plan) {
    return new StatementResult.Rows(List.of(ResultColumn.varchar("PLAN", 4096)),
        List.<Object[]>of(new Object[] {plan}));
  }

  private void stopQuery(String idOrName) throws SQLException {
    Optional<PlainQueryRun> plain = engine.plainQueries().get(idOrName);
    if (plain.isPresent() && engine.plainQueries().visibleTo(principal).contains(plain.get())) {
      // Its statement fails with 57014 at its next check; this statement does not wait.
      plain.get().cancel();
      return;
    }
    Optional<ContinuousQuery> query = engine.query(idOrName);
    if (query.isEmpty() || !engine.visibleQueries(principal).contains(query.get())) {
      // Another user's push query is not theirs to know of.
      throw CatalogErrors.queryNotFound(idOrName);
    }
    engine.checkQueryOwner(principal, query.get(), "STOP");
    query.get().stop();
  }

  private StatementResult showStreams() {
    List<Object[]> rows = new ArrayList<>();
    for (String name : engine.catalog().streamNames()) {
      if (!engine.access().canSee(principal, name)) {
        continue;
      }
      rows.add(new Object[] {name});
    }
    return new StatementResult.Rows(List.of(ResultColumn.varchar("STREAM_NAME", 128)), rows);
  }

  private StatementResult showViews() {
    List<Object[]> rows = new ArrayList<>();
    for (ViewTable view : engine.catalog().views()) {
      if (!engine.access().canSee(principal, view.name())) {
        continue;
      }
      // A view's query is registered while the view exists; a view dropped meanwhile is skipped.
      Optional<ContinuousQuery> query = engine.query(view.queryId());
      if (query.isPresent()) {
        rows.add(new Object[] {view.name(), view.outputMode().name(), view.queryId(),
            query.get().status().name(), view.result().batchId()});
      }
    }
    return new StatementResult.Rows(List.of(ResultColumn.varchar("VIEW_NAME", 128),
        ResultColumn.varchar("OUTPUT_MODE", 8), ResultColumn.varchar("QUERY_ID", 36),
        ResultColumn.varchar("STATUS", 12), ResultColumn.bigint("BATCH_ID")), rows);
  }

  private StatementResult showQueries() {
    List<Object[]> rows = new ArrayList<>();
    for (ContinuousQuery query : engine.visibleQueries(principal)) {
      QueryStatus status = query.status();
      rows.add(new Object[] {query.id(), query.name(), status.name(),
          query.outputMode().name(), query.lastBatchId(), query.sql(),
          query.exception().map(Failures::describe).orElse(null)});
    }
    // Plain queries while they run, so that STOP QUERY can name one from another connection.
    for (PlainQueryRun run : engine.plainQueries().visibleTo(principal)) {
      rows.add(new Object[] {run.id(), run.id(), QueryStatus.ACTIVE.name(), "PLAIN", -1L,
          run.sql(), null});
    }
    return new StatementResult.Rows(List.of(ResultColumn.varchar("QUERY_ID", 36),
        ResultColumn.varchar("NAME", 128), ResultColumn.varchar("STATUS", 12),
        ResultColumn.varchar("OUTPUT_MODE", 8), ResultColumn.bigint("LAST_BATCH_ID"),
        ResultColumn.varchar("QUERY_TEXT", 4096), ResultColumn.varchar("ERROR", 4096)), rows);
  }

  private StatementResult describe(SqlDescribeTable describe) throws SQLException {
    SqlIdentifier id = describe.getTable();
    String name = id.names.get(id.names.size() - 1);
    Optional<StreamTable> stream = engine.catalog().stream(name);
    Optional<ViewTable> view = engine.catalog().view(name);
    Optional<ReferenceTable> table = engine.catalog().table(name);
    if (stream.isEmpty() && view.isEmpty() && table.isEmpty()) {
      throw CatalogErrors.objectNotFound(name);
    }
    RelDataType rowType = stream.isPresent()
        ? stream.get().getRowType(engine.planner().typeFactory())
        : view.isPresent() ? view.get().getRowType(engine.planner().typeFactory())
        : table.get().getRowType(engine.planner().typeFactory());
    List<Object[]> rows = new ArrayList<>();
    for (RelDataTypeField field : rowType.getFieldList()) {
      rows.add(new Object[] {field.getName(), field.getType().getFullTypeString(),
          stream.flatMap(StreamTable::watermark)
              .filter(w -> w.column().equals(field.getName()))
              .map(w -> "WATERMARK " + w.delayMs() + " ms").orElse(null)});
    }
    return new StatementResult.Rows(List.of(ResultColumn.varchar("COLUMN_NAME", 128),
        ResultColumn.varchar("TYPE", 64), ResultColumn.varchar("WATERMARK", 64)), rows);
  }

  private static List<ResultColumn> columns(RelDataType rowType) {
    List<ResultColumn> columns = new ArrayList<>();
    for (RelDataTypeField field : rowType.getFieldList()) {
      columns.add(ResultColumn.of(field));
    }
    return columns;
  }
}
