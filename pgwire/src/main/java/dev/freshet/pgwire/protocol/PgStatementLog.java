package dev.freshet.pgwire.protocol;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Where the PostgreSQL endpoint reports each statement a client ran: its text, protocol and
 * parameters, and whether it failed. Off by default ({@link #NONE}); tests record what real
 * clients send with it, as PostgreSQL's {@code log_statement = all} would.
 *
 * <pre>{@code
 * List<PgStatementLog.Entry> log = new CopyOnWriteArrayList<>();
 * PgServer.builder(engine).statementLog(log::add).start();
 * }</pre>
 *
 * <p>A simple Query message is one entry (its whole text, which may hold several statements,
 * failed if one of them failed); in the extended protocol an entry is an Execute, or the Parse,
 * Bind, Describe or Execute that failed. Passwords are never reported: a quoted string after
 * {@code PASSWORD} is replaced by {@code '***'}, and the parameters of a statement that names
 * a password are left out. Called on the thread that runs the connection's statements: an
 * implementation must be quick and thread-safe.
 */
@FunctionalInterface
public interface PgStatementLog {
  /** Reports nothing. */
  PgStatementLog NONE = entry -> { };

  /** Called once for each statement (see the class comment for what one is). */
  void statement(Entry entry);

  /**
   * One statement a client ran.
   *
   * @param connection the connection's process id (BackendKeyData)
   * @param protocol {@code simple}, {@code extended}, or {@code fetch} (another Execute of a
   *     portal suspended at its row limit)
   * @param statement the prepared statement's name in the extended protocol ({@code ""} for
   *     the unnamed one); null in the simple protocol
   * @param sql the text as the client sent it
   * @param params the bound parameters in text (binary ones as Freshet read them), null for SQL
   *     NULL
   * @param sqlState the SQLSTATE of its error, null if it succeeded
   * @param error the message of its error, null if it succeeded
   */
  record Entry(int connection, String protocol, @Nullable String statement, String sql,
      List<@Nullable String> params, @Nullable String sqlState, @Nullable String error) {
    /** Whether the statement failed. */
    public boolean failed() {
      return sqlState != null;
    }

    /** The entry of {@code sql} with its passwords hidden, failed with {@code e} if not null. */
    static Entry of(int connection, String protocol, @Nullable String statement, String sql,
        List<@Nullable String> params, @Nullable SQLException e) {
      Matcher m = PASSWORD.matcher(sql);
      boolean secret = m.find();
      String shown = secret ? m.replaceAll("$1'***'") : sql;
      List<@Nullable String> shownParams = secret ? List.of() : new ArrayList<>(params);
      return new Entry(connection, protocol, statement, shown, shownParams,
          e == null ? null : e.getSQLState() == null ? "XX000" : e.getSQLState(),
          e == null ? null : e.getMessage());
    }

    private static final Pattern PASSWORD =
        Pattern.compile("(?i)(PASSWORD\\s*(?:=\\s*)?)(?:'(?:[^']|'')*'|\\$\\d+)");
  }
}
