package dev.freshet.pgwire.protocol;

import dev.freshet.engine.StatementDescriber;
import dev.freshet.engine.StatementDescription;
import dev.freshet.engine.StatementParameters;
import dev.freshet.engine.query.ResultColumn;
import dev.freshet.pgwire.live.LiveColumns;
import dev.freshet.pgwire.live.LiveStatement;
import dev.freshet.pgwire.names.PgNames;
import io.netty.buffer.ByteBuf;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The extended query protocol of one connection: prepared statements (Parse), portals (Bind),
 * Describe, Execute with a row limit, Close. Each statement's {@code $n} parameters become
 * Freshet's {@code ?} markers, whose types Freshet infers where the client declared none.
 *
 * <pre>
 * Parse("S_1", "SELECT n FROM v WHERE k = $1", [0])  → ParseComplete
 * Bind("", "S_1", ["42"])                            → BindComplete
 * Describe(portal "") Execute("", 100) Sync          → RowDescription, DataRow...,
 *                                                      CommandComplete
 * </pre>
 *
 * <p>A portal's statement runs at its first Execute, or at its Describe if it is a query (which
 * changes nothing), so that its columns are known; its rows are then handed out up to each
 * Execute's limit, with PortalSuspended while some remain.
 */
final class ExtendedProtocol {
  /** How many prepared statements a connection may hold: pgjdbc caches 256 by default. */
  private static final int MAX_STATEMENTS = 10_000;

  private final PgSession session;
  private final MessageWriter out;
  private final PgValues.Formats formats;
  private final Map<String, Prepared> statements = new HashMap<>();
  private final Map<String, Portal> portals = new HashMap<>();
  private final LiveResults live;

  /** Where statements are reported, and this connection's process id there. */
  private PgStatementLog log = PgStatementLog.NONE;
  private int connection;
  /** The statement the last Parse, Bind or Execute was about: reported if it fails. */
  private String lastSql = "";
  private @Nullable String lastName;
  private List<@Nullable String> lastParams = List.of();

  ExtendedProtocol(PgSession session, MessageWriter out, PgValues.Formats formats,
      LiveResults live) {
    this.session = session;
    this.out = out;
    this.formats = formats;
    this.live = live;
  }

  /** A parsed statement. */
  private record Prepared(String sql, StatementKind kind, SqlText.Markers markers, int[] oids,
      @Nullable StatementParameters parameters) {
    /** The type Freshet inferred for parameter {@code number} (1-based), or null. */
    @Nullable ResultColumn inferred(int number) {
      if (parameters == null) {
        return null;
      }
      int[] occurrences = markers.occurrences();
      for (int i = 0; i < occurrences.length; i++) {
        if (occurrences[i] == number) {
          return parameters.types().get(i);
        }
      }
      return null;
    }
  }

  /** A bound statement and, once run, its outcome and how many rows were handed out. */
  private static final class Portal {
    final Prepared statement;
    final List<Object> values;
    final short[] resultFormats;
    PgSession.@Nullable Outcome outcome;
    PgColumn @Nullable [] columns;
    int position;

    /** The statement's name and the parameters as text, for the statement log. */
    final String statementName;
    final List<@Nullable String> params;

    Portal(Prepared statement, List<Object> values, short[] resultFormats,
        String statementName, List<@Nullable String> params) {
      this.statementName = statementName;
      this.params = params;
      this.statement = statement;
      this.values = values;
      this.resultFormats = resultFormats;
    }
  }

  /** Reports each statement to {@code log} as connection {@code connection}'s. */
  void log(PgStatementLog log, int connection) {
    this.log = log;
    this.connection = connection;
  }

  /** The last Parse, Bind, Describe or Execute failed with {@code e}: reported. */
  void failed(SQLException e) {
    log.statement(PgStatementLog.Entry.of(connection, "extended", lastName, lastSql, lastParams,
        e));
  }

  void parse(ByteBuf body) throws SQLException {
    String name = FrameReader.cstring(body);
    String sql = FrameReader.cstring(body);
    lastSql = sql;
    lastName = name;
    lastParams = List.of();
    int count = FrameReader.int16(body);
    FrameReader.need(body, 4 * Math.max(count, 0));
    int[] declared = new int[Math.max(count, 0)];
    for (int i = 0; i < declared.length; i++) {
      declared[i] = body.readInt();
    }
    FrameReader.end(body);
    if (!name.isEmpty() && statements.containsKey(name)) {
      throw new SQLException("Prepared statement \"" + name + "\" already exists. Close it"
          + " first, or use another name", "42P05");
    }
    if (SqlText.split(sql).size() > 1) {
      throw new SQLException("Cannot insert multiple commands into a prepared statement."
          + " Prepare one statement at a time", "42601");
    }
    if (statements.size() >= MAX_STATEMENTS && !statements.containsKey(name)) {
      throw new SQLException("This connection holds " + MAX_STATEMENTS + " prepared"
          + " statements. Close some (Close message, or DEALLOCATE)", "53400");
    }
    StatementKind kind = StatementKind.of(sql);
    if (kind == StatementKind.FRESHET && session.isSetting(sql)) {
      kind = StatementKind.SETTING;
    } else if (kind == StatementKind.FRESHET && session.isCatalog(sql)) {
      kind = StatementKind.CATALOG;
    }
    SqlText.Markers markers = kind == StatementKind.FRESHET
        ? SqlText.markers(PgNames.toFreshet(sql))
        : new SqlText.Markers(sql, new int[0], SqlText.markers(sql).count());
    StatementParameters parameters = null;
    if (kind == StatementKind.FRESHET && markers.occurrences().length > 0) {
      parameters = StatementParameters.of(session.session(), markers.sql());
      if (parameters.count() != markers.occurrences().length) {
        throw new SQLException("The statement has " + markers.occurrences().length
            + " parameters ($n) but Freshet found " + parameters.count() + " markers. Write"
            + " parameters as $1, $2, ... and no ? of your own", "42601");
      }
    }
    int[] oids = new int[Math.max(markers.count(), declared.length)];
    Prepared draft = new Prepared(sql, kind, markers, oids, parameters);
    for (int i = 0; i < oids.length; i++) {
      if (i < declared.length && declared[i] != 0) {
        oids[i] = declared[i];
      } else {
        ResultColumn inferred = draft.inferred(i + 1);
        oids[i] = inferred == null ? PgColumn.TEXT_OID : ParameterValues.describedOid(inferred);
      }
    }
    // Declared types are the client's; a parameter it left open is read as Freshet inferred.
    int[] declaredFull = Arrays.copyOf(declared, oids.length);
    statements.put(name, new Prepared(sql, kind, markers, declaredFull, parameters));
    described.put(name, oids);
    out.parseComplete();
  }

  /** Each statement's parameter types as ParameterDescription reports them. */
  private final Map<String, int[]> described = new HashMap<>();

  void bind(ByteBuf body) throws SQLException {
    // The whole message is read before anything is looked up: a malformed one is a protocol
    // violation whatever it names.
    String portalName = FrameReader.cstring(body);
    String statementName = FrameReader.cstring(body);
    short[] paramFormats = shorts(body);
    int count = FrameReader.int16(body);
    if (count < 0) {
      throw new ProtocolViolation("Bind message with " + count + " parameters");
    }
    ByteBuf[] raw = new ByteBuf[count];
    for (int i = 0; i < count; i++) {
      int length = FrameReader.int32(body);
      if (length != -1) {
        FrameReader.need(body, length);
        raw[i] = body.readSlice(length);
      }
    }
    short[] resultFormats = shorts(body);
    FrameReader.end(body);
    if (paramFormats.length > 1 && paramFormats.length != count) {
      throw new ProtocolViolation("Bind message has " + paramFormats.length
          + " parameter formats but " + count + " parameters");
    }
    Prepared statement = statement(statementName);
    lastSql = statement.sql();
    lastName = statementName;
    lastParams = List.of();
    if (count != statement.oids().length) {
      throw new ProtocolViolation("Bind message supplies " + count
          + " parameters, but prepared statement \"" + statementName + "\" requires "
          + statement.oids().length);
    }
    List<Object> values = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      if (raw[i] == null) {
        values.add(null);
        continue;
      }
      int format = paramFormats.length == 0 ? 0
          : paramFormats.length == 1 ? paramFormats[0] : paramFormats[i];
      ResultColumn inferred = statement.inferred(i + 1);
      int oid = statement.oids()[i];
      values.add(format == PgColumn.BINARY ? ParameterValues.binary(oid, raw[i], inferred)
          : ParameterValues.text(oid, raw[i].toString(java.nio.charset.StandardCharsets.UTF_8),
              inferred));
    }
    List<@Nullable String> texts = new ArrayList<>(count);
    for (Object value : values) {
      texts.add(value == null ? null : value.toString());
    }
    lastParams = texts;
    portals.put(portalName, new Portal(statement, values, resultFormats, statementName, texts));
    out.bindComplete();
  }

  void describe(ByteBuf body) throws SQLException {
    FrameReader.need(body, 1);
    byte what = body.readByte();
    String name = FrameReader.cstring(body);
    FrameReader.end(body);
    if (what == 'S') {
      Prepared statement = statement(name);
      out.parameterDescription(described.get(name));
      List<ResultColumn> columns = describeColumns(statement);
      if (columns == null || columns.isEmpty()) {
        out.noData();
      } else {
        Rows.rowDescription(out, Rows.columns(columns, new short[0]));
      }
    } else if (what == 'P') {
      Portal portal = portal(name);
      List<ResultColumn> fetched = portal.statement.kind() == StatementKind.FRESHET
          ? live.fetchColumns(portal.statement.sql()) : null;
      if (fetched != null) {
        // A FETCH runs at Execute: its rows are the cursor's.
        Rows.rowDescription(out, Rows.columns(fetched, portal.resultFormats));
        return;
      }
      if (portal.outcome == null && returnsRows(portal.statement)) {
        run(portal);
      }
      if (portal.columns == null) {
        out.noData();
      } else {
        Rows.rowDescription(out, portal.columns);
      }
    } else {
      throw new ProtocolViolation("Describe of '" + (char) what + "': send 'S' or 'P'");
    }
  }

  /**
   * Executes a portal; when it is a push portal, a live result takes the connection over
   * and {@code resumed} runs when it ended, with whether it failed.
   */
  void execute(ByteBuf body, java.util.function.Consumer<Boolean> resumed) throws SQLException {
    String name = FrameReader.cstring(body);
    int maxRows = FrameReader.int32(body);
    FrameReader.end(body);
    Portal portal = portal(name);
    lastSql = portal.statement.sql();
    lastName = portal.statementName;
    lastParams = portal.params;
    String protocol = portal.position > 0 ? "fetch" : "extended";
    if (portal.statement.kind() == StatementKind.EMPTY) {
      out.emptyQueryResponse();
      return;
    }
    if (portal.outcome == null && portal.statement.kind() == StatementKind.FRESHET
        && live.fetch(portal.statement.sql(), portal.resultFormats, maxRows, resumed)) {
      return;
    }
    if (portal.outcome == null) {
      run(portal);
    }
    log.statement(PgStatementLog.Entry.of(connection, protocol, lastName, lastSql, lastParams,
        null));
    PgSession.Outcome outcome = portal.outcome;
    if (outcome.push() != null) {
      live.execute(outcome.push(), portal.columns, maxRows, resumed);
      return;
    }
    if (portal.columns == null) {
      out.commandComplete(outcome.tag());
      return;
    }
    List<Object[]> rows = outcome.rows();
    int end = maxRows > 0 ? (int) Math.min(rows.size(), (long) portal.position + maxRows)
        : rows.size();
    int sent = end - portal.position;
    for (int i = portal.position; i < end; i++) {
      Rows.dataRow(out, portal.columns, rows.get(i), formats);
    }
    portal.position = end;
    if (end < rows.size()) {
      out.portalSuspended();
    } else {
      String tag = outcome.tag();
      out.commandComplete(tag.startsWith("SELECT ") ? "SELECT " + sent : tag);
    }
  }

  void close(ByteBuf body) throws SQLException {
    FrameReader.need(body, 1);
    byte what = body.readByte();
    String name = FrameReader.cstring(body);
    FrameReader.end(body);
    if (what == 'S') {
      statements.remove(name);
      described.remove(name);
    } else if (what == 'P') {
      release(portals.remove(name));
    } else {
      throw new ProtocolViolation("Close of '" + (char) what + "': send 'S' or 'P'");
    }
    out.closeComplete();
  }

  /** Sync: the unnamed portal ends with the implicit transaction PostgreSQL would end. */
  void sync() {
    release(portals.remove(""));
  }

  /** A portal closed: its push query, if it has one, stops. */
  private void release(@Nullable Portal portal) {
    if (portal != null && portal.outcome != null) {
      live.release(portal.outcome.push());
    }
  }

  private void run(Portal portal) throws SQLException {
    Prepared s = portal.statement;
    PgSession.Outcome outcome;
    switch (s.kind()) {
    case FRESHET:
      if (s.parameters() != null) {
        int[] occurrences = s.markers().occurrences();
        List<Object> values = new ArrayList<>(occurrences.length);
        for (int number : occurrences) {
          values.add(portal.values.get(number - 1));
        }
        outcome = session.execute(s.markers().sql(), s.kind(), s.parameters(), values);
      } else {
        PgSession.Outcome cursor = live.command(s.sql());
        outcome = cursor != null ? cursor
            : session.execute(s.sql(), s.kind(), null, List.of());
      }
      break;
    case CATALOG:
      outcome = session.execute(SqlText.bindLiterals(s.sql(), portal.values), s.kind(), null,
          List.of());
      break;
    default:
      outcome = session.execute(s.sql(), s.kind(), null, List.of());
      break;
    }
    portal.outcome = outcome;
    portal.columns = outcome.columns() == null ? null
        : Rows.columns(outcome.columns(), portal.resultFormats);
  }

  private boolean returnsRows(Prepared s) {
    return switch (s.kind()) {
      case CATALOG -> true;
      case SETTING -> SqlText.leadingWords(s.sql(), 1).equals(List.of("SHOW"));
      case FRESHET -> StatementKind.returnsRows(s.sql());
      default -> false;
    };
  }

  /** The columns {@code s} returns, known without running it; null for none. */
  private @Nullable List<ResultColumn> describeColumns(Prepared s) throws SQLException {
    List<ResultColumn> fetched = s.kind() == StatementKind.FRESHET ? live.fetchColumns(s.sql())
        : null;
    if (fetched != null) {
      return fetched;
    }
    if (!returnsRows(s)) {
      return null;
    }
    switch (s.kind()) {
    case FRESHET: {
      StatementDescription d = StatementDescriber.describe(session.session(),
          LiveStatement.sinceVersion(s.markers().sql()));
      return LiveColumns.of(d.columns());
    }
    default: {
      // A SHOW or a catalog query reads and changes nothing: run with NULL parameters.
      String sql = s.kind() == StatementKind.CATALOG ? SqlText.bindLiterals(s.sql(), List.of())
          : s.sql();
      return session.execute(sql, s.kind(), null, List.of()).columns();
    }
    }
  }

  private Prepared statement(String name) throws SQLException {
    Prepared statement = statements.get(name);
    if (statement == null) {
      throw new SQLException("Prepared statement \"" + name + "\" does not exist. Parse it"
          + " first", "26000");
    }
    return statement;
  }

  private Portal portal(String name) throws SQLException {
    Portal portal = portals.get(name);
    if (portal == null) {
      throw new SQLException("Portal \"" + name + "\" does not exist. Bind it first", "34000");
    }
    return portal;
  }

  private static short[] shorts(ByteBuf body) throws ProtocolViolation {
    int count = FrameReader.int16(body);
    FrameReader.need(body, 2 * Math.max(count, 0));
    short[] values = new short[Math.max(count, 0)];
    for (int i = 0; i < values.length; i++) {
      values[i] = body.readShort();
    }
    return values;
  }
}
