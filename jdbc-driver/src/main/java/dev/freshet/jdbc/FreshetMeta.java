package dev.freshet.jdbc;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.query.CancelSignal;
import dev.freshet.engine.Engine;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.push.PushQuery;
import dev.freshet.engine.query.ResultColumn;
import dev.freshet.engine.Session;
import dev.freshet.engine.security.Principal;
import dev.freshet.engine.StatementDescriber;
import dev.freshet.engine.StatementDescription;
import dev.freshet.engine.StatementParameters;
import dev.freshet.engine.query.StatementResult;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaParameter;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.ConnectionPropertiesImpl;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.MetaImpl;
import org.apache.calcite.avatica.MissingResultsException;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.proto.Common;
import org.apache.calcite.avatica.proto.Requests;
import org.apache.calcite.avatica.remote.ProtobufMeta;
import org.apache.calcite.avatica.remote.TypedValue;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Avatica {@link Meta} that executes statements on a Freshet engine.
 *
 * <p>A push query's result never ends. Embedded, {@link #createIterable} hands the result set an
 * iterator whose {@code hasNext()} blocks until the next changed row exists and returns it at once,
 * without looking ahead. {@link #fetch} serves the same rows as frames to remote clients, with a
 * long-poll ({@link PushFrames}): it waits up to the fetch timeout for rows, then answers with an
 * empty frame that is not final. A client that does not say it long-polls ({@link #LONG_POLL}),
 * such as Avatica's stock driver, gets a PROGRESS row instead of each empty frame, the first frame
 * included, so that its {@code executeQuery} and {@code next()} return at least once per fetch
 * timeout (and a {@code cancel()} on its side is seen). Closing or cancelling the statement stops the continuous query,
 * and so does reaching the statement's row limit ({@code setMaxRows}).
 *
 * <p>On a server each connection belongs to the user who opened it (see {@link #FreshetMeta(
 * AvaticaConnection, EngineResolver, Duration, Supplier)}): a request that names another user's
 * connection is refused with SQLSTATE 42501, an open that names a connection id already open with
 * 08002, and {@link #closeIdleConnections} closes connections no request has used for a while.
 */
public class FreshetMeta extends MetaImpl implements ProtobufMeta {
  /** Finds the engine a connection's properties name. */
  @FunctionalInterface
  public interface EngineResolver {
    /** Returns the engine for {@code info}, or throws with a message naming the bad property. */
    Engine resolve(Map<String, String> info) throws SQLException;
  }

  /**
   * The connection property by which a remote client says it long-polls push results: it reads
   * without look-ahead and fetches again after an empty frame, so it needs no PROGRESS rows.
   * Freshet's remote driver sends {@code freshet_long_poll=true}; the server ignores other
   * connection properties.
   */
  public static final String LONG_POLL = "freshet_long_poll";

  /** How long a fetch of a push query waits for rows when a remote client does not say. */
  public static final Duration DEFAULT_FETCH_TIMEOUT = Duration.ofSeconds(5);

  private final EngineResolver engines;
  private final Duration fetchTimeout;
  /** Who makes the current request: the authenticated user on a server, else null. */
  private final Supplier<@Nullable Principal> caller;
  private final ConcurrentHashMap<String, ConnectionState> connections = new ConcurrentHashMap<>();
  private final AtomicInteger statementIds = new AtomicInteger();

  /**
   * Creates a Meta.
   *
   * @param connection the client connection when embedded, null on a server
   * @param engines resolves a connection's engine
   */
  public FreshetMeta(@Nullable AvaticaConnection connection, EngineResolver engines) {
    this(connection, engines, DEFAULT_FETCH_TIMEOUT);
  }

  /**
   * Creates a Meta whose {@link #fetch} of a push query waits at most {@code fetchTimeout} for
   * rows; a server keeps it below every HTTP timeout between it and its clients.
   *
   * <pre>{@code
   * Meta meta = new FreshetMeta(null, info -> engine, Duration.ofSeconds(5));
   * }</pre>
   *
   * @param connection the client connection when embedded, null on a server
   * @param engines resolves a connection's engine
   * @param fetchTimeout the long-poll bound, positive
   */
  public FreshetMeta(@Nullable AvaticaConnection connection, EngineResolver engines,
      Duration fetchTimeout) {
    this(connection, engines, fetchTimeout, () -> null);
  }

  /**
   * Creates a Meta whose connections belong to the user who opened them: {@code caller} names
   * the user making the current request (a server reads it from the request's authentication;
   * null means anonymous, who is the process's own administrator {@link Principal#LOCAL}); the
   * connection's statements run as that user, and a request on a connection that another user
   * opened is refused.
   *
   * <pre>{@code
   * Meta meta = new FreshetMeta(null, info -> engine, Duration.ofSeconds(5), CurrentUser::get);
   * }</pre>
   *
   * @param connection the client connection when embedded, null on a server
   * @param engines resolves a connection's engine
   * @param fetchTimeout the long-poll bound, positive
   * @param caller the user of the request being served, or null if anonymous
   */
  public FreshetMeta(@Nullable AvaticaConnection connection, EngineResolver engines,
      Duration fetchTimeout, Supplier<@Nullable Principal> caller) {
    super(connection);
    this.engines = requireNonNull(engines, "engines");
    this.fetchTimeout = requireNonNull(fetchTimeout, "fetchTimeout");
    this.caller = requireNonNull(caller, "caller");
    if (fetchTimeout.isNegative() || fetchTimeout.isZero()) {
      throw new IllegalArgumentException("fetchTimeout must be positive: " + fetchTimeout);
    }
  }

  /** Per connection: its owner, its session, its open statements and its JDBC settings. */
  private static final class ConnectionState {
    /** The user who opened it; null if anonymous. */
    final @Nullable Principal owner;
    final Session session;
    /** Whether its push results are sent with PROGRESS rows instead of empty frames. */
    final boolean progress;
    final ConcurrentHashMap<Integer, StatementState> statements = new ConcurrentHashMap<>();
    final ConnectionPropertiesImpl settings = ConnectionSettings.initial();
    /** {@link System#nanoTime()} of the last request on it. */
    volatile long lastUsedNanos = System.nanoTime();
    /** How many statements or fetches run on it now: a busy connection is not idle. */
    final AtomicInteger busy = new AtomicInteger();

    ConnectionState(@Nullable Principal owner, Session session, boolean progress) {
      this.owner = owner;
      this.session = session;
      this.progress = progress;
    }

    void closeStatements() {
      for (StatementState statement : statements.values()) {
        statement.closeResult();
      }
      statements.clear();
    }
  }

  /**
   * The steps of executing a statement, in order; {@link #onExecuteStep} lets a test act at each,
   * as a {@code cancel()} from another thread may land at any of them.
   */
  enum ExecuteStep {
    /** The previous result is closed and the statement runs; the engine has not started it. */
    STARTED,
    /** The engine ran the statement (a push query runs), but the statement holds no result. */
    RAN,
    /** The statement holds its result; the result set is not made yet. */
    ASSIGNED
  }

  /** Per statement: the SQL it was prepared with and its current result. */
  static final class StatementState {
    volatile String sql;
    /** The markers ({@code ?}) of {@link #sql} and their types; null until prepared. */
    volatile @Nullable StatementParameters parameters;
    /** Row limit given at prepare time ({@code setMaxRows} of a prepared statement); -1 for none. */
    volatile long maxRowCount = -1;
    volatile @Nullable PushQuery push;
    /** The push query's rows as frames for remote fetches. */
    volatile @Nullable PushFrames frames;
    volatile @Nullable List<Object> rows;
    /**
     * Whether {@code cancel()} was called since the statement started executing. Set and read
     * with the push query's assignment under this state's lock: a cancel that comes while the
     * engine starts the query (before the statement holds it) is seen when the query is assigned,
     * which then stops it.
     */
    volatile boolean cancelled;
    /** The running plain query's cancellation, new at each execution. */
    volatile CancelSignal cancelSignal = new CancelSignal();
    /**
     * The warnings of the last execution (e.g. a view whose state nothing bounds), which the
     * statement's {@code getWarnings()} returns; empty when none.
     */
    volatile List<String> warnings = List.of();

    void closeResult() {
      PushQuery p;
      synchronized (this) {
        p = push;
        push = null;
        frames = null;
        rows = null;
      }
      if (p != null) {
        p.close();
      }
    }

    /** Closes the previous result and forgets earlier cancels: a new execution starts. */
    void startExecution() {
      closeResult();
      warnings = List.of();
      synchronized (this) {
        cancelled = false;
        cancelSignal = new CancelSignal();
      }
    }

    /**
     * Makes {@code query} the statement's result; if the statement was cancelled while the
     * engine started it, stops it at once, and its result set reports the cancel.
     */
    void assignPush(PushQuery query, PushFrames queryFrames) {
      boolean stop;
      synchronized (this) {
        frames = queryFrames;
        push = query;
        stop = cancelled;
      }
      if (stop) {
        query.close();
      }
    }

    /**
     * Stops the push query the statement holds, or will hold once its execution assigns it. The
     * result stays, closed, so that reading it reports the cancel.
     */
    void cancel() {
      PushQuery p;
      CancelSignal signal;
      synchronized (this) {
        cancelled = true;
        p = push;
        signal = cancelSignal;
      }
      // A plain query running on the executing thread ends with 57014 at its next check.
      signal.cancel();
      if (p != null) {
        p.close();
      }
    }
  }

  /**
   * Opens the connection {@code ch} for the calling user. An id that is open already is refused
   * (08002), whoever opened it: taking it over would orphan its statements and push queries.
   */
  @Override public void openConnection(ConnectionHandle ch, Map<String, String> info) {
    try {
      if (connections.containsKey(ch.id)) {
        throw inUse(ch.id);
      }
      // Embedded, results are read through createIterable, never fetched: no PROGRESS rows.
      // A client that sends no properties at all sends null.
      boolean progress = connection == null
          && !(info != null && "true".equalsIgnoreCase(info.get(LONG_POLL)));
      Principal user = caller.get();
      ConnectionState state = new ConnectionState(user, engines.resolve(info)
          .openSession(user == null ? Principal.LOCAL : user), progress);
      if (connections.putIfAbsent(ch.id, state) != null) {
        throw inUse(ch.id);
      }
    } catch (SQLException e) {
      throw new RuntimeException(e);
    }
  }

  private static SQLException inUse(String id) {
    return Errors.of(SqlState.CONNECTION_NAME_IN_USE, "Connection " + id + " is open already;"
        + " each connection needs an id of its own: open a new connection");
  }

  @Override public void closeConnection(ConnectionHandle ch) {
    ConnectionState state = connections.get(ch.id);
    if (state != null) {
      checkOwner(ch.id, state);
      if (connections.remove(ch.id, state)) {
        state.closeStatements();
        // Closing without commit drops the transaction's INSERTs.
        state.session.rollback();
      }
    }
  }

  /**
   * Closes the connections that no request has used for {@code idle}, with their statements and
   * push queries: a client that went away without closing them would otherwise keep them for
   * good. A server calls this now and then; a reading client fetches at least once per fetch
   * timeout, so {@code idle} must be well above that. A client that comes back later is told its
   * connection is not open (08003).
   *
   * <pre>{@code
   * int closed = meta.closeIdleConnections(Duration.ofMinutes(30));
   * }</pre>
   *
   * @return how many connections were closed
   */
  public int closeIdleConnections(Duration idle) {
    long now = System.nanoTime();
    long idleNanos = idle.toNanos();
    int closed = 0;
    for (Map.Entry<String, ConnectionState> entry : connections.entrySet()) {
      ConnectionState state = entry.getValue();
      if (state.busy.get() == 0 && now - state.lastUsedNanos >= idleNanos
          && connections.remove(entry.getKey(), state)) {
        state.closeStatements();
        closed++;
      }
    }
    return closed;
  }

  /** How many connections are open. */
  public int openConnections() {
    return connections.size();
  }

  @Override public ConnectionProperties connectionSync(ConnectionHandle ch,
      ConnectionProperties connProps) {
    try {
      ConnectionState state = connection(ch.id);
      return ConnectionSettings.sync(state.settings, connProps, state.session);
    } catch (SQLException e) {
      throw new RuntimeException(e);
    }
  }

  @Override public StatementHandle createStatement(ConnectionHandle ch) {
    ConnectionState state = connection(ch.id);
    int id = statementIds.incrementAndGet();
    state.statements.put(id, new StatementState());
    return new StatementHandle(ch.id, id, null);
  }

  @Override public void closeStatement(StatementHandle h) {
    ConnectionState state = connections.get(h.connectionId);
    if (state != null) {
      checkOwner(h.connectionId, state);
      StatementState statement = state.statements.remove(h.id);
      if (statement != null) {
        statement.closeResult();
      }
    }
  }

  /** Stops the continuous query of a statement whose {@code cancel()} was called. */
  static void cancel(AvaticaConnection connection, StatementHandle h) {
    if (connection instanceof FreshetJdbcFactory.FreshetConnection) {
      Meta meta = ((FreshetJdbcFactory.FreshetConnection) connection).meta();
      if (meta instanceof FreshetMeta) {
        ((FreshetMeta) meta).cancelStatement(h);
      }
    }
  }

  /**
   * The warnings of the last execution of the statement {@code h} of {@code connection} as a
   * chain, or null if it had none: what an embedded {@code Statement.getWarnings()} returns.
   */
  static java.sql.@Nullable SQLWarning warnings(AvaticaConnection connection,
      StatementHandle h) {
    if (!(connection instanceof FreshetJdbcFactory.FreshetConnection freshet)
        || !(freshet.meta() instanceof FreshetMeta meta)) {
      return null;
    }
    ConnectionState state = meta.connections.get(h.connectionId);
    StatementState statement = state == null ? null : state.statements.get(h.id);
    java.sql.SQLWarning first = null;
    for (String message : statement == null ? List.<String>of() : statement.warnings) {
      java.sql.SQLWarning warning = new java.sql.SQLWarning(message, "01000");
      if (first == null) {
        first = warning;
      } else {
        first.setNextWarning(warning);
      }
    }
    return first;
  }

  /** Forgets the warnings of the statement {@code h}: {@code Statement.clearWarnings()}. */
  static void clearWarnings(AvaticaConnection connection, StatementHandle h) {
    if (connection instanceof FreshetJdbcFactory.FreshetConnection freshet
        && freshet.meta() instanceof FreshetMeta meta) {
      ConnectionState state = meta.connections.get(h.connectionId);
      StatementState statement = state == null ? null : state.statements.get(h.id);
      if (statement != null) {
        statement.warnings = List.of();
      }
    }
  }

  void cancelStatement(StatementHandle h) {
    ConnectionState state = connections.get(h.connectionId);
    StatementState statement = state == null ? null : state.statements.get(h.id);
    if (statement != null) {
      statement.cancel();
    }
  }

  /** What {@link #onExecuteStep} was given; does nothing by default. */
  private volatile Consumer<ExecuteStep> executeSteps = step -> { };

  /**
   * Runs {@code hook} on the executing thread at each {@link ExecuteStep} of every statement
   * this Meta executes: a seam for tests of what a {@code cancel()} does at each step.
   *
   * <pre>{@code
   * meta.onExecuteStep(step -> { if (step == ExecuteStep.RAN) statement.cancel(); });
   * }</pre>
   */
  void onExecuteStep(Consumer<ExecuteStep> hook) {
    executeSteps = requireNonNull(hook, "hook");
  }

  @Override public StatementHandle prepare(ConnectionHandle ch, String sql, long maxRowCount) {
    // Planned, not run: the statement's columns are known before it executes.
    StatementParameters parameters = parameters(ch, sql);
    Signature signature = describe(ch, sql, parameters);
    StatementHandle h = createStatement(ch);
    StatementState statement = statement(h);
    statement.sql = sql;
    statement.parameters = parameters;
    statement.maxRowCount = maxRowCount;
    h.signature = signature;
    return h;
  }

  @Override public ExecuteResult prepareAndExecute(StatementHandle h, String sql,
      long maxRowCount, PrepareCallback callback) throws NoSuchStatementException {
    return prepareAndExecute(h, sql, maxRowCount, -1, callback);
  }

  @Override public ExecuteResult prepareAndExecute(StatementHandle h, String sql,
      long maxRowCount, int maxRowsInFirstFrame, PrepareCallback callback)
      throws NoSuchStatementException {
    StatementState statement = statementOrThrow(h);
    statement.sql = sql;
    statement.parameters = null;
    try {
      synchronized (callback.getMonitor()) {
        callback.clear();
      }
      // Outside the monitor: a server's callbacks share one monitor (LocalService.class), and
      // holding it while the engine runs the statement would run every client's statements one
      // at a time.
      MetaResultSet result = execute(h, statement, sql, maxRowCount);
      synchronized (callback.getMonitor()) {
        callback.assign(result.signature, result.firstFrame, result.updateCount);
        callback.execute();
        return new ExecuteResult(List.of(result));
      }
    } catch (SQLException e) {
      throw new RuntimeException(e);
    }
  }

  @Override public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues,
      long maxRowCount) throws NoSuchStatementException {
    return execute(h, parameterValues, (int) Math.min(maxRowCount, Integer.MAX_VALUE));
  }

  @Override public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues,
      int maxRowsInFirstFrame) throws NoSuchStatementException {
    StatementState statement = statementOrThrow(h);
    try {
      Bound bound = bound(h, statement, parameterValues);
      return new ExecuteResult(List.of(execute(h, statement, bound, statement.maxRowCount)));
    } catch (SQLException e) {
      throw new RuntimeException(e);
    }
  }

  private MetaResultSet execute(StatementHandle h, StatementState statement, String sql,
      long maxRowCount) throws SQLException {
    return execute(h, statement, sql, null, maxRowCount);
  }

  private MetaResultSet execute(StatementHandle h, StatementState statement, Bound bound,
      long maxRowCount) throws SQLException {
    return execute(h, statement, bound.parameters().sql(), bound, maxRowCount);
  }

  /** Runs {@code sql}, or with {@code bound} a prepared statement's text with its values. */
  private MetaResultSet execute(StatementHandle h, StatementState statement, String sql,
      @Nullable Bound bound, long maxRowCount) throws SQLException {
    ConnectionState connection = connection(h.connectionId);
    connection.busy.incrementAndGet();
    try {
      return executeBusy(h, statement, sql, bound, maxRowCount);
    } finally {
      connection.lastUsedNanos = System.nanoTime();
      connection.busy.decrementAndGet();
    }
  }

  private MetaResultSet executeBusy(StatementHandle h, StatementState statement, String sql,
      @Nullable Bound bound, long maxRowCount) throws SQLException {
    statement.startExecution();
    executeSteps.accept(ExecuteStep.STARTED);
    ConnectionState state = connection(h.connectionId);
    // A plain query keeps its markers, and its plan, from one execution to the next.
    CancelSignal cancel = statement.cancelSignal;
    StatementResult result = bound == null ? state.session.execute(sql, cancel)
        : state.session.execute(bound.parameters(), bound.values(), cancel);
    executeSteps.accept(ExecuteStep.RAN);
    if (result instanceof StatementResult.UpdateCount count) {
      statement.warnings = count.warnings();
      return MetaResultSet.count(h.connectionId, h.id, count.count());
    }
    if (result instanceof StatementResult.Rows) {
      StatementResult.Rows rows = (StatementResult.Rows) result;
      List<Object> list = new ArrayList<>(rows.rows());
      if (maxRowCount > 0 && list.size() > maxRowCount) {
        list = new ArrayList<>(list.subList(0, (int) maxRowCount));
      }
      statement.rows = list;
      Signature signature = signature(sql, rows.columns(), StatementType.SELECT);
      return MetaResultSet.create(h.connectionId, h.id, false, signature,
          Frame.create(0, true, list));
    }
    StatementResult.Push push = (StatementResult.Push) result;
    PushFrames frames = new PushFrames(push.query(), Math.max(maxRowCount, 0), state.progress);
    statement.assignPush(push.query(), frames);
    executeSteps.accept(ExecuteStep.ASSIGNED);
    // Embedded, the statement is at hand: its setQueryTimeout ends the push query. Avatica's wire
    // protocol does not carry the timeout; the remote driver enforces it on its side.
    AvaticaStatement client = connection == null ? null : connection.statementMap.get(h.id);
    int timeoutSeconds = client == null ? 0 : client.getQueryTimeout();
    if (timeoutSeconds > 0) {
      push.query().expireAfter(Duration.ofSeconds(timeoutSeconds));
    }
    if (!frames.progress()) {
      // Never wait for rows here: the first frame is empty and not final; rows come by iteration.
      return MetaResultSet.create(h.connectionId, h.id, false,
          signature(sql, push.columns(), StatementType.SELECT), Frame.create(0, false, List.of()));
    }
    // A client that cannot long-poll would fetch in its executeQuery until a row exists: it gets
    // the rows ready now or a PROGRESS row, whose null data and _BATCH_ID the columns admit.
    List<ResultColumn> columns = new ArrayList<>(push.columns().size());
    for (ResultColumn column : push.columns()) {
      columns.add(column.asNullable());
    }
    return MetaResultSet.create(h.connectionId, h.id, false,
        signature(sql, columns, StatementType.SELECT), frames.fetch(0, 0, Duration.ZERO));
  }

  @Override public ExecuteBatchResult prepareAndExecuteBatch(StatementHandle h,
      List<String> sqlCommands) throws NoSuchStatementException {
    StatementState statement = statementOrThrow(h);
    long[] counts = new long[sqlCommands.size()];
    try {
      for (int i = 0; i < counts.length; i++) {
        MetaResultSet r = execute(h, statement, sqlCommands.get(i), -1);
        counts[i] = r.updateCount;
        statement.closeResult();
      }
    } catch (SQLException e) {
      throw new RuntimeException(e);
    }
    return new ExecuteBatchResult(counts);
  }

  /**
   * Runs a prepared statement once per parameter set, in order, each as a statement of its own:
   * an INSERT's every set is one offset of the stream. Stops at the first set that fails.
   */
  @Override public ExecuteBatchResult executeBatch(StatementHandle h,
      List<List<TypedValue>> parameterValues) throws NoSuchStatementException {
    StatementState statement = statementOrThrow(h);
    long[] counts = new long[parameterValues.size()];
    try {
      for (int i = 0; i < counts.length; i++) {
        Bound bound = bound(h, statement, parameterValues.get(i));
        MetaResultSet r = execute(h, statement, bound, -1);
        counts[i] = r.updateCount;
        statement.closeResult();
      }
    } catch (SQLException e) {
      throw new RuntimeException(e);
    }
    return new ExecuteBatchResult(counts);
  }

  /**
   * {@link #executeBatch} for a protobuf server: Avatica's {@code LocalService} hands a batch's
   * parameter sets only to a {@link ProtobufMeta}, in their protobuf form.
   */
  @Override public ExecuteBatchResult executeBatchProtobuf(StatementHandle h,
      List<Requests.UpdateBatch> updateBatches) throws NoSuchStatementException {
    List<List<TypedValue>> sets = new ArrayList<>(updateBatches.size());
    for (Requests.UpdateBatch batch : updateBatches) {
      List<TypedValue> values = new ArrayList<>(batch.getParameterValuesCount());
      for (Common.TypedValue value : batch.getParameterValuesList()) {
        // An implicit null is a marker the client never set: refused when bound.
        values.add(value.getImplicitlyNull() ? null : TypedValue.fromProto(value));
      }
      sets.add(values);
    }
    return executeBatch(h, sets);
  }

  /** A prepared statement's markers and the values of one execution, in the engine's terms. */
  private record Bound(StatementParameters parameters, List<@Nullable Object> values) {}

  /** The statement's markers with {@code values}. */
  private Bound bound(StatementHandle h, StatementState statement,
      @Nullable List<TypedValue> values) throws SQLException {
    StatementParameters parameters = statement.parameters;
    if (parameters == null) {
      parameters = parameters(new ConnectionHandle(h.connectionId), statement.sql);
      statement.parameters = parameters;
    }
    return new Bound(parameters, ParameterValues.of(values == null ? List.of() : values,
        parameters.count()));
  }

  private StatementParameters parameters(ConnectionHandle ch, String sql) {
    try {
      return StatementParameters.of(connection(ch.id).session, sql);
    } catch (SQLException e) {
      throw new RuntimeException(e);
    }
  }

  @Override public Iterable<Object> createIterable(StatementHandle h, QueryState state,
      Signature signature, List<TypedValue> parameterValues, Frame firstFrame) {
    ConnectionState connection = connections.get(h.connectionId);
    StatementState statement = connection == null ? null : connection.statements.get(h.id);
    if (statement != null && statement.push != null) {
      PushFrames frames = statement.frames;
      return new PushRowIterable(statement.push, () -> statement.cancelled,
          frames == null ? 0 : frames.maxRows());
    }
    return super.createIterable(h, state, signature, parameterValues, firstFrame);
  }

  @Override public Frame fetch(StatementHandle h, long offset, int fetchMaxRowCount)
      throws NoSuchStatementException, MissingResultsException {
    StatementState statement = statementOrThrow(h);
    PushFrames frames = statement.frames;
    if (frames == null) {
      List<Object> rows = statement.rows;
      if (rows == null) {
        throw new MissingResultsException(h);
      }
      int from = (int) Math.min(offset, rows.size());
      int to = fetchMaxRowCount <= 0 ? rows.size()
          : Math.min(rows.size(), from + fetchMaxRowCount);
      return Frame.create(offset, to == rows.size(), new ArrayList<>(rows.subList(from, to)));
    }
    ConnectionState connection = connection(h.connectionId);
    connection.busy.incrementAndGet();
    try {
      return frames.fetch(offset, fetchMaxRowCount, fetchTimeout);
    } catch (SQLException e) {
      throw new RuntimeException(e);
    } finally {
      connection.lastUsedNanos = System.nanoTime();
      connection.busy.decrementAndGet();
    }
  }

  /**
   * Closes the push results that no client has fetched from for {@code idle}, stopping their
   * queries: a client that died mid-stream never closes its statement, and its query would run
   * and queue rows for nobody. A server calls this now and then; embedded results are read
   * without fetches and are never closed by it. A client that comes back later finds its result
   * gone ({@link MissingResultsException}).
   *
   * <pre>{@code
   * int stopped = meta.closeAbandonedPushResults(Duration.ofMinutes(5));
   * }</pre>
   *
   * @return how many results were closed
   */
  public int closeAbandonedPushResults(Duration idle) {
    long now = System.nanoTime();
    int closed = 0;
    for (ConnectionState connection : connections.values()) {
      for (StatementState statement : connection.statements.values()) {
        PushFrames frames = statement.frames;
        if (frames != null && frames.idleSince(now, idle)) {
          statement.closeResult();
          closed++;
        }
      }
    }
    return closed;
  }

  @Override public boolean syncResults(StatementHandle sh, QueryState state, long offset) {
    return false;
  }

  /**
   * Appends the connection's pending INSERTs (auto-commit off), one offset per stream; with
   * auto-commit on nothing is pending and this does nothing.
   */
  @Override public void commit(ConnectionHandle ch) {
    try {
      connection(ch.id).session.commit();
    } catch (SQLException e) {
      throw new RuntimeException(e);
    }
  }

  /** Drops the connection's pending INSERTs. */
  @Override public void rollback(ConnectionHandle ch) {
    connection(ch.id).session.rollback();
  }

  private ConnectionState connection(String id) {
    ConnectionState state = connections.get(id);
    if (state == null) {
      throw new RuntimeException(Errors.of(SqlState.CONNECTION_DOES_NOT_EXIST,
          "Connection " + id + " is not open (it was closed, or the server closed it after it"
          + " was idle for the server's connection idle timeout); open a new connection"));
    }
    checkOwner(id, state);
    return state;
  }

  /**
   * Refuses a request on a connection that another user opened (42501), and otherwise marks the
   * connection used now.
   */
  private void checkOwner(String id, ConnectionState state) {
    Principal user = caller.get();
    if (!Objects.equals(state.owner == null ? null : state.owner.name(),
        user == null ? null : user.name())) {
      throw new RuntimeException(Errors.of(SqlState.INSUFFICIENT_PRIVILEGE, "Connection " + id
          + " belongs to another user; a user may only use the connections they opened"));
    }
    state.lastUsedNanos = System.nanoTime();
  }

  private StatementState statement(StatementHandle h) {
    StatementState statement = connection(h.connectionId).statements.get(h.id);
    if (statement == null) {
      throw new RuntimeException(Errors.of(SqlState.FUNCTION_SEQUENCE_ERROR,
          "Statement " + h.id + " is not open"));
    }
    return statement;
  }

  private StatementState statementOrThrow(StatementHandle h) throws NoSuchStatementException {
    ConnectionState state = connections.get(h.connectionId);
    if (state != null) {
      checkOwner(h.connectionId, state);
    }
    StatementState statement = state == null ? null : state.statements.get(h.id);
    if (statement == null) {
      throw new NoSuchStatementException(h);
    }
    return statement;
  }

  private static Signature signature(String sql, List<ResultColumn> columns, StatementType type) {
    return signature(sql, columns, List.of(), type);
  }

  private static Signature signature(String sql, List<ResultColumn> columns,
      List<AvaticaParameter> parameters, StatementType type) {
    List<ColumnMetaData> metaData = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      metaData.add(columnMetaData(i, columns.get(i)));
    }
    return Signature.create(metaData, sql, parameters, CursorFactory.ARRAY, type);
  }

  private static ColumnMetaData columnMetaData(int ordinal, ResultColumn column) {
    ColumnMetaData.AvaticaType type = ColumnMetaData.scalar(column.jdbcType(), column.typeName(),
        ColumnMetaData.Rep.of(column.valueClass()));
    boolean signed = column.jdbcType() != Types.VARCHAR && column.jdbcType() != Types.CHAR
        && column.jdbcType() != Types.BOOLEAN;
    return new ColumnMetaData(ordinal, false, true, false, false,
        column.nullable() ? DatabaseMetaData.columnNullable : DatabaseMetaData.columnNoNulls,
        signed, column.displaySize(), column.name(), column.name(), null,
        Math.max(column.precision(), 0), Math.max(column.scale(), 0), null, null, type, true,
        false, false, type.columnClassName());
  }

  // DatabaseMetaData and prepared statements' metadata. FreshetMetadata and StatementDescriber
  // make the answers; these methods hand them to Avatica, embedded and (in LocalService) on a
  // server, where MetaImpl's defaults would fail for want of a client connection.

  /** The columns of {@code sql}, planned but not run, as the signature of a prepared statement. */
  private Signature describe(ConnectionHandle ch, String sql, StatementParameters parameters) {
    try {
      StatementDescription description =
          StatementDescriber.describe(connection(ch.id).session, sql);
      StatementType type;
      switch (description.kind()) {
      case INSERT:
        type = StatementType.INSERT;
        break;
      case OTHER:
        type = StatementType.OTHER_DDL;
        break;
      default:
        type = StatementType.SELECT;
      }
      return signature(sql, description.columns(), ParameterValues.describe(parameters), type);
    } catch (SQLException e) {
      throw new RuntimeException(e);
    }
  }

  private FreshetMetadata metadata(ConnectionHandle ch) {
    Session session = connection(ch.id).session;
    return new FreshetMetadata(session.engine(), session.principal());
  }

  /** A metadata result as a statement of its own, which closes when the result set does. */
  private MetaResultSet metaResultSet(ConnectionHandle ch, MetadataRows result) {
    StatementHandle h = createStatement(ch);
    statement(h).rows = new ArrayList<>(result.rows());
    Signature signature = Signature.create(result.layout().columns(), "", List.of(),
        CursorFactory.ARRAY, StatementType.SELECT);
    return MetaResultSet.create(ch.id, h.id, true, signature,
        Frame.create(0, true, result.rows()));
  }

  private MetaResultSet empty(ConnectionHandle ch, ResultLayout layout) {
    return metaResultSet(ch, FreshetMetadata.empty(layout));
  }

  @Override public Map<DatabaseProperty, Object> getDatabaseProperties(ConnectionHandle ch) {
    return FreshetMetadata.properties();
  }

  @Override public MetaResultSet getTables(ConnectionHandle ch, String catalog,
      Pat schemaPattern, Pat tableNamePattern, List<String> typeList) {
    return metaResultSet(ch,
        metadata(ch).tables(catalog, schemaPattern.s, tableNamePattern.s, typeList));
  }

  @Override public MetaResultSet getColumns(ConnectionHandle ch, String catalog,
      Pat schemaPattern, Pat tableNamePattern, Pat columnNamePattern) {
    return metaResultSet(ch, metadata(ch).columns(catalog, schemaPattern.s,
        tableNamePattern.s, columnNamePattern.s));
  }

  @Override public MetaResultSet getSchemas(ConnectionHandle ch, String catalog,
      Pat schemaPattern) {
    return metaResultSet(ch, metadata(ch).schemas(catalog, schemaPattern.s));
  }

  @Override public MetaResultSet getCatalogs(ConnectionHandle ch) {
    return metaResultSet(ch, FreshetMetadata.catalogs());
  }

  @Override public MetaResultSet getTableTypes(ConnectionHandle ch) {
    return metaResultSet(ch, FreshetMetadata.tableTypes());
  }

  @Override public MetaResultSet getPrimaryKeys(ConnectionHandle ch, String catalog,
      String schema, String table) {
    return metaResultSet(ch, metadata(ch).primaryKeys(catalog, schema, table));
  }

  @Override public MetaResultSet getTypeInfo(ConnectionHandle ch) {
    return metaResultSet(ch, FreshetMetadata.typeInfo());
  }

  @Override public MetaResultSet getProcedures(ConnectionHandle ch, String catalog,
      Pat schemaPattern, Pat procedureNamePattern) {
    return empty(ch, MetadataLayouts.PROCEDURES);
  }

  @Override public MetaResultSet getProcedureColumns(ConnectionHandle ch, String catalog,
      Pat schemaPattern, Pat procedureNamePattern, Pat columnNamePattern) {
    return empty(ch, MetadataLayouts.PROCEDURE_COLUMNS);
  }

  @Override public MetaResultSet getFunctions(ConnectionHandle ch, String catalog,
      Pat schemaPattern, Pat functionNamePattern) {
    return empty(ch, MetadataLayouts.FUNCTIONS);
  }

  @Override public MetaResultSet getFunctionColumns(ConnectionHandle ch, String catalog,
      Pat schemaPattern, Pat functionNamePattern, Pat columnNamePattern) {
    return empty(ch, MetadataLayouts.FUNCTION_COLUMNS);
  }

  @Override public MetaResultSet getColumnPrivileges(ConnectionHandle ch, String catalog,
      String schema, String table, Pat columnNamePattern) {
    return empty(ch, MetadataLayouts.COLUMN_PRIVILEGES);
  }

  @Override public MetaResultSet getTablePrivileges(ConnectionHandle ch, String catalog,
      Pat schemaPattern, Pat tableNamePattern) {
    return empty(ch, MetadataLayouts.TABLE_PRIVILEGES);
  }

  @Override public MetaResultSet getBestRowIdentifier(ConnectionHandle ch, String catalog,
      String schema, String table, int scope, boolean nullable) {
    return empty(ch, MetadataLayouts.ROW_IDENTIFIER);
  }

  @Override public MetaResultSet getVersionColumns(ConnectionHandle ch, String catalog,
      String schema, String table) {
    return empty(ch, MetadataLayouts.ROW_IDENTIFIER);
  }

  @Override public MetaResultSet getImportedKeys(ConnectionHandle ch, String catalog,
      String schema, String table) {
    return empty(ch, MetadataLayouts.KEYS);
  }

  @Override public MetaResultSet getExportedKeys(ConnectionHandle ch, String catalog,
      String schema, String table) {
    return empty(ch, MetadataLayouts.KEYS);
  }

  @Override public MetaResultSet getCrossReference(ConnectionHandle ch, String parentCatalog,
      String parentSchema, String parentTable, String foreignCatalog, String foreignSchema,
      String foreignTable) {
    return empty(ch, MetadataLayouts.KEYS);
  }

  @Override public MetaResultSet getIndexInfo(ConnectionHandle ch, String catalog,
      String schema, String table, boolean unique, boolean approximate) {
    return empty(ch, MetadataLayouts.INDEX_INFO);
  }

  @Override public MetaResultSet getUDTs(ConnectionHandle ch, String catalog,
      Pat schemaPattern, Pat typeNamePattern, int[] types) {
    return empty(ch, MetadataLayouts.UDTS);
  }

  @Override public MetaResultSet getSuperTypes(ConnectionHandle ch, String catalog,
      Pat schemaPattern, Pat typeNamePattern) {
    return empty(ch, MetadataLayouts.SUPER_TYPES);
  }

  @Override public MetaResultSet getSuperTables(ConnectionHandle ch, String catalog,
      Pat schemaPattern, Pat tableNamePattern) {
    return empty(ch, MetadataLayouts.SUPER_TABLES);
  }

  @Override public MetaResultSet getAttributes(ConnectionHandle ch, String catalog,
      Pat schemaPattern, Pat typeNamePattern, Pat attributeNamePattern) {
    return empty(ch, MetadataLayouts.ATTRIBUTES);
  }

  @Override public MetaResultSet getClientInfoProperties(ConnectionHandle ch) {
    return empty(ch, MetadataLayouts.CLIENT_INFO_PROPERTIES);
  }

  @Override public MetaResultSet getPseudoColumns(ConnectionHandle ch, String catalog,
      Pat schemaPattern, Pat tableNamePattern, Pat columnNamePattern) {
    return empty(ch, MetadataLayouts.PSEUDO_COLUMNS);
  }
}
