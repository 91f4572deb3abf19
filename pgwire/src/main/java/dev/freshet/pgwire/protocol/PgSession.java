package dev.freshet.pgwire.protocol;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.Session;
import dev.freshet.engine.StatementParameters;
import dev.freshet.engine.options.SessionOption;
import dev.freshet.engine.query.CancelSignal;
import dev.freshet.engine.query.ResultColumn;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.engine.push.PushQuery;
import dev.freshet.pgwire.live.LiveColumns;
import dev.freshet.pgwire.live.LiveStatement;
import dev.freshet.pgwire.names.PgNames;
import dev.freshet.pgwire.settings.PgSettings;
import dev.freshet.pgwire.settings.SettingStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One PostgreSQL connection's conversation with Freshet: runs each statement where it belongs
 * (transaction control, PostgreSQL's settings, the catalog, or the Freshet session) and keeps
 * the transaction status that ReadyForQuery reports.
 *
 * <pre>{@code
 * PgSession s = new PgSession(engine.openSession(principal), settings, CatalogQueries.NONE, out,
 *     channel.eventLoop());
 * s.execute("BEGIN", cancel);                               // status 'T'
 * s.execute("INSERT INTO clicks VALUES ('u1', 1.0)", cancel);
 * s.execute("COMMIT", cancel);                              // status 'I'
 * }</pre>
 *
 * <p>Transactions are the Freshet session's: BEGIN turns auto-commit off, COMMIT appends the
 * pending INSERTs and turns it on again, ROLLBACK drops them. After an error inside a
 * transaction the status is 'E' and every statement but COMMIT or ROLLBACK is refused with
 * 25P02, as PostgreSQL does; COMMIT then rolls back.
 */
final class PgSession {
  /** ReadyForQuery's status byte: idle, not in a transaction. */
  static final char IDLE = 'I';
  /** In a transaction block. */
  static final char IN_TRANSACTION = 'T';
  /** In a failed transaction block. */
  static final char FAILED = 'E';

  private final Session session;
  private final PgSettings settings;
  private final CatalogQueries catalog;
  private final MessageWriter out;
  /** Where {@code statement_timeout} cancels a statement from. */
  private final ScheduledExecutorService timer;
  private char status = IDLE;
  /** The cancellation of the statement running now, or null between statements. */
  private volatile @Nullable CancelSignal running;
  /** Set by a CancelRequest that came between statements: it cancels the next one. */
  private volatile boolean cancelPending;

  PgSession(Session session, PgSettings settings, CatalogQueries catalog, MessageWriter out,
      ScheduledExecutorService timer) {
    this.timer = requireNonNull(timer, "timer");
    this.session = requireNonNull(session, "session");
    this.settings = requireNonNull(settings, "settings");
    // The connection's own catalog, closed with the connection (close()).
    this.catalog = requireNonNull(catalog, "catalog").open(session, settings);
    this.out = requireNonNull(out, "out");
  }

  /**
   * A statement's outcome: its rows (columns null for a command) and its tag; for a push query
   * (SELECT STREAM) no rows but the push query, whose rows {@link LiveResults} sends.
   */
  record Outcome(@Nullable List<ResultColumn> columns, List<Object[]> rows, String tag,
      @Nullable PushQuery push) {
    Outcome(@Nullable List<ResultColumn> columns, List<Object[]> rows, String tag) {
      this(columns, rows, tag, null);
    }

    static Outcome command(String tag) {
      return new Outcome(null, List.of(), tag);
    }
  }

  Session session() {
    return session;
  }

  PgSettings settings() {
    return settings;
  }

  /** The status byte of ReadyForQuery. */
  char status() {
    return status;
  }

  /**
   * Cancels the running statement (a CancelRequest); if none runs yet but the connection is
   * {@code busy} with a message that will run one, that one is cancelled when it starts.
   */
  void cancel(boolean busy) {
    CancelSignal signal = running;
    if (signal != null) {
      signal.cancel();
    } else if (busy) {
      cancelPending = true;
    }
  }

  /**
   * Takes a CancelRequest that came while no statement of the session ran: a live result that
   * starts is cancelled by it.
   */
  boolean takeCancel() {
    boolean pending = cancelPending;
    cancelPending = false;
    return pending;
  }

  /** The client was told the connection is ready: a cancel that came before is spent. */
  void ready() {
    cancelPending = false;
  }

  /** A statement failed: inside a transaction block, the block is failed until it ends. */
  void failed() {
    if (status == IN_TRANSACTION) {
      status = FAILED;
    }
  }

  /** Ends what the connection left open: pending INSERTs are dropped, as a closed socket does. */
  void close() {
    cancel(false);
    catalog.close();
    session.rollback();
    try {
      session.setAutoCommit(true);
    } catch (SQLException e) {
      // Nothing pending after rollback: turning auto-commit on appends nothing.
    }
  }

  /** Executes one statement of PostgreSQL text without parameters. */
  Outcome execute(String sql) throws SQLException {
    return execute(sql, StatementKind.of(sql), null, List.of());
  }

  /**
   * Executes one statement of {@code kind}; with {@code parameters}, a Freshet statement with
   * {@code ?} markers and {@code values} for them (in marker order).
   */
  Outcome execute(String sql, StatementKind kind, @Nullable StatementParameters parameters,
      List<Object> values) throws SQLException {
    if (status == FAILED && kind != StatementKind.COMMIT && kind != StatementKind.ROLLBACK) {
      throw new SQLException("Current transaction is aborted, commands ignored until end of"
          + " transaction block. Send ROLLBACK", "25P02");
    }
    switch (kind) {
    case EMPTY:
      return Outcome.command("");
    case BEGIN:
      if (status != IDLE) {
        notice("25001", "There is already a transaction in progress");
      } else {
        session.setAutoCommit(false);
        status = IN_TRANSACTION;
      }
      return Outcome.command("BEGIN");
    case COMMIT:
      if (status == FAILED) {
        endTransaction(false);
        return Outcome.command("ROLLBACK");
      }
      if (status == IDLE) {
        notice("25P01", "There is no transaction in progress");
        return Outcome.command("COMMIT");
      }
      endTransaction(true);
      return Outcome.command("COMMIT");
    case ROLLBACK:
      if (status == IDLE) {
        notice("25P01", "There is no transaction in progress");
      } else {
        endTransaction(false);
      }
      return Outcome.command("ROLLBACK");
    default:
      break;
    }
    // A live result's WITH (since_version = N) is the hint Freshet's SQL takes.
    sql = LiveStatement.sinceVersion(sql);
    Optional<SettingStatement> setting = setting(sql);
    if (setting.isPresent()) {
      return setting(setting.get());
    }
    CancelSignal cancel = new CancelSignal();
    running = cancel;
    if (cancelPending) {
      cancelPending = false;
      cancel.cancel();
    }
    long timeoutMs = settings.statementTimeoutMillis();
    AtomicBoolean timedOut = new AtomicBoolean();
    ScheduledFuture<?> timeout = timeoutMs <= 0 ? null : timer.schedule(() -> {
      timedOut.set(true);
      cancel.cancel();
    }, timeoutMs, TimeUnit.MILLISECONDS);
    try {
      StatementResult result;
      if (catalog.answers(sql)) {
        result = catalog.execute(sql, session);
      } else if (parameters != null) {
        result = session.execute(parameters, values, cancel);
      } else {
        result = session.execute(PgNames.toFreshet(sql), cancel);
      }
      return outcome(sql, result);
    } catch (SQLException e) {
      if (timedOut.get() && "57014".equals(e.getSQLState())) {
        throw new SQLException("Canceling statement due to statement timeout (" + timeoutMs
            + " ms). Raise it with SET statement_timeout = '...' (0 for none), or make the"
            + " statement read less", "57014", e);
      }
      throw e;
    } finally {
      if (timeout != null) {
        timeout.cancel(false);
      }
      running = null;
    }
  }

  /** Whether {@code sql} is one of PostgreSQL's setting statements this session answers. */
  boolean isSetting(String sql) {
    return setting(sql).isPresent();
  }

  /** The catalog's answer to whether it takes {@code sql}. */
  boolean isCatalog(String sql) {
    return catalog.answers(sql);
  }

  /**
   * The setting statement {@code sql} is, if PostgreSQL's settings answer it: a SET or RESET of
   * a name that is not a Freshet session option ({@code SET 'state.partitions' = '4'} and
   * {@code SET trigger = 'once'} stay the session's), and a SHOW of a setting PostgreSQL has.
   */
  private Optional<SettingStatement> setting(String sql) {
    List<String> words = SqlText.leadingWords(sql, 1);
    if (!words.isEmpty()
        && (words.get(0).equals("SAVEPOINT") || words.get(0).equals("RELEASE"))) {
      // psycopg's nested transaction(): a savepoint that is released changes nothing here.
      return Optional.of(new SettingStatement.Ignored(words.get(0)));
    }
    if (!words.isEmpty() && words.get(0).equals("DISCARD")) {
      // Npgsql's pool resets a connection with DISCARD ALL: nothing is kept beyond settings.
      return Optional.of(new SettingStatement.Ignored("DISCARD ALL"));
    }
    if (words.isEmpty() || !(words.get(0).equals("SET") || words.get(0).equals("RESET")
        || words.get(0).equals("SHOW"))) {
      return Optional.empty();
    }
    Optional<SettingStatement> parsed = SettingStatement.parse(sql.strip());
    if (parsed.isEmpty()) {
      return parsed;
    }
    SettingStatement s = parsed.get();
    if (s instanceof SettingStatement.Set set && isFreshetOption(set.name())) {
      return Optional.empty();
    }
    if (s instanceof SettingStatement.Reset reset && isFreshetOption(reset.name())) {
      return Optional.empty();
    }
    if (s instanceof SettingStatement.Show show && !show.name().equals("all")
        && !settings.knows(show.name())) {
      // SHOW STREAMS, SHOW VIEWS, SHOW QUERIES: Freshet's.
      return Optional.empty();
    }
    return parsed;
  }

  private static boolean isFreshetOption(String name) {
    return SessionOption.of(name.toLowerCase(Locale.ROOT)).isPresent();
  }

  private Outcome setting(SettingStatement statement) throws SQLException {
    if (statement instanceof SettingStatement.Set set) {
      boolean report = set.value() == null ? settings.reset(set.name())
          : settings.set(set.name(), set.value());
      if (report) {
        report(set.name());
      }
      return Outcome.command("SET");
    }
    if (statement instanceof SettingStatement.Reset reset) {
      if (reset.name().equals("all")) {
        for (String name : settings.resetAll()) {
          report(name);
        }
      } else if (settings.reset(reset.name())) {
        report(reset.name());
      }
      return Outcome.command("RESET");
    }
    if (statement instanceof SettingStatement.Show show) {
      if (show.name().equals("all")) {
        List<Object[]> rows = new ArrayList<>();
        for (Map.Entry<String, String> e : settings.all().entrySet()) {
          rows.add(new Object[] {e.getKey(), e.getValue(), ""});
        }
        return new Outcome(List.of(ResultColumn.varchar("name", 64),
            ResultColumn.varchar("setting", 1024), ResultColumn.varchar("description", 256)),
            rows, "SHOW");
      }
      String value = settings.get(show.name()).orElse("");
      return new Outcome(List.of(ResultColumn.varchar(show.name(), 1024)),
          List.<Object[]>of(new Object[] {value}), "SHOW");
    }
    return Outcome.command(((SettingStatement.Ignored) statement).tag());
  }

  private void report(String name) {
    String shown = settings.spelling(name);
    out.parameterStatus(shown, settings.get(name).orElse(""));
  }

  private void endTransaction(boolean commit) throws SQLException {
    status = IDLE;
    if (commit) {
      session.commit();
    } else {
      session.rollback();
    }
    session.setAutoCommit(true);
  }

  private void notice(String state, String message) {
    out.errorOrNotice('N', ErrorFields.of("WARNING", state, message));
  }

  private Outcome outcome(String sql, StatementResult result) throws SQLException {
    if (result instanceof StatementResult.Rows rows) {
      return new Outcome(rows.columns(), rows.rows(), CommandTags.of(sql, result));
    }
    if (result instanceof StatementResult.Push push) {
      return new Outcome(LiveColumns.of(push.columns()), List.of(), "SELECT", push.query());
    }
    StatementResult.UpdateCount count = (StatementResult.UpdateCount) result;
    for (String warning : count.warnings()) {
      out.errorOrNotice('N', ErrorFields.of("WARNING", "01000", warning));
    }
    return Outcome.command(CommandTags.of(sql, result));
  }
}
