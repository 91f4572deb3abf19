package dev.freshet.jdbc.remote;

/**
 * The SQLSTATEs that the remote driver raises itself, on the client, without the server: a failed
 * connection, a lost result, a canceled or timed-out statement. The server's errors arrive with
 * their own state, which the driver passes on.
 *
 * <p>Separate from the engine's {@code dev.freshet.common.errors.SqlState} on purpose: this
 * driver depends on Avatica's client alone, so that its jar stays small for BI tools, and cannot
 * see the planner. Codes that both use ({@code 08001}, {@code 24000}, {@code HY000},
 * {@code HY008}, {@code HYT00}) mean the same on both sides.
 *
 * <pre>{@code
 * throw new SQLException("Statement canceled", ClientSqlState.OPERATION_CANCELED.code());
 * }</pre>
 */
enum ClientSqlState {
  /** {@code 08001} The driver cannot reach the server, or the URL is unusable (SQL standard). */
  UNABLE_TO_CONNECT("08001"),
  /** {@code 08S01} The server stopped answering a connection that was open (ODBC). */
  COMMUNICATION_LINK_FAILURE("08S01"),
  /** {@code 24000} A result the server no longer has (SQL standard). */
  INVALID_CURSOR_STATE("24000"),
  /** {@code 28000} Credentials the server refused, HTTP 401 or 403 (SQL standard). */
  INVALID_AUTHORIZATION("28000"),
  /** {@code 54000} A request larger than the server accepts, HTTP 413 (SQL standard). */
  PROGRAM_LIMIT_EXCEEDED("54000"),
  /** {@code HY000} A server error that came without a state of its own (ODBC). */
  GENERAL_ERROR("HY000"),
  /** {@code HY008} A statement canceled by its caller (ODBC). */
  OPERATION_CANCELED("HY008"),
  /** {@code HYT00} A statement that ran out of its query timeout (ODBC). */
  TIMEOUT_EXPIRED("HYT00");

  private final String code;

  ClientSqlState(String code) {
    this.code = code;
  }

  /** The five-character SQLSTATE, e.g. {@code 08001}. */
  String code() {
    return code;
  }
}
