package dev.freshet.engine;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.errors.Failures;
import dev.freshet.engine.errors.TransactionErrors;
import dev.freshet.planner.catalog.StreamTable;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.checkerframework.checker.nullness.qual.Nullable;
import dev.freshet.engine.store.CatalogStore;
import dev.freshet.engine.options.SessionOptions;
import dev.freshet.engine.options.StateStoreProviderKind;
import dev.freshet.engine.query.CancelSignal;
import dev.freshet.engine.query.InsertExecutor;
import dev.freshet.engine.query.PendingInserts;
import dev.freshet.engine.query.PlainQueryRun;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.engine.security.CurrentPrincipal;
import dev.freshet.engine.security.Principal;
import dev.freshet.engine.security.Redaction;
import dev.freshet.engine.security.StatementSecrets;

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

  /** The session's options, which {@code SET 'key' = 'value'} changes. */
  SessionOptions options() {
    return options;
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
  interface PlainStep {
    StatementResult.@Nullable Rows run(PlainQueryRun run) throws SQLException;
  }

  /**
   * Runs a plain query as a listed {@link PlainQueryRun} with the session's budget, which
   * {@code cancel} and STOP QUERY cancel.
   */
  StatementResult.@Nullable Rows runPlain(String sql, CancelSignal cancel,
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
      return CheckedStatement.execute(new StatementContext(this, sql, cancel), node);
    }
    StatementAudit audit = StatementAudit.of(engine.audit(), principal, node, sql);
    try {
      StatementResult result =
          CheckedStatement.execute(new StatementContext(this, sql, cancel), node);
      audit.ok();
      return result;
    } catch (SQLException e) {
      audit.failed(e);
      throw e;
    }
  }

  /**
   * Appends the rows of an INSERT into a stream, or with auto-commit off adds them to the
   * session's transaction.
   */
  StatementResult insertIntoStream(SqlInsert insert) throws SQLException {
    if (autoCommit) {
      return new StatementResult.UpdateCount(InsertExecutor.insert(engine.planner(), insert));
    }
    InsertExecutor.Rows rows = InsertExecutor.evaluate(engine.planner(), insert);
    synchronized (pending) {
      pending.add(rows);
    }
    return new StatementResult.UpdateCount(rows.rows().size());
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

  /**
   * Parses one statement with Freshet's grammar.
   *
   * @throws SQLException 42601 if it is empty or cannot be parsed, 54001 if it nests too deeply
   */
  public static SqlNode parse(String sql) throws SQLException {
    return StatementParser.parse(sql);
  }
}
