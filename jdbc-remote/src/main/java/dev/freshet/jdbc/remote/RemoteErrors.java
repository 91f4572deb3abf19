package dev.freshet.jdbc.remote;

import java.net.ConnectException;
import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.avatica.AvaticaClientRuntimeException;
import org.apache.calcite.avatica.AvaticaSqlException;
import org.apache.calcite.avatica.remote.Service.ErrorResponse;

/**
 * Turns what Avatica's remote client throws (unchecked exceptions, HTTP statuses inside message
 * text) into {@link SQLException}s with a SQLSTATE and a message that says what to do.
 */
final class RemoteErrors {
  /** How Avatica's HTTP client reports a status it does not handle: "... got HTTP/401". */
  private static final Pattern HTTP_STATUS = Pattern.compile("HTTP/(\\d{3})");
  private static final String UNKNOWN_SQL_STATE = ErrorResponse.UNKNOWN_SQL_STATE;
  /** The longest message of an error made here from Avatica's (which may quote a statement). */
  private static final int MAX_MESSAGE_CHARS = 2000;
  /** What Avatica's client puts before the server's message. */
  private static final String AVATICA_PREFIX = "Remote driver error: ";

  private RemoteErrors() {
  }

  /**
   * The error of a connection attempt to {@code serverUrl} that failed with {@code e}.
   *
   * <pre>{@code
   * SQLException e = RemoteErrors.cannotConnect("http://db:8765", failure);
   * e.getSQLState();   // 28000 for HTTP 401 and 403, else 08001
   * }</pre>
   */
  static SQLException cannotConnect(String serverUrl, RuntimeException e) {
    SQLException fromServer = fromServer(e);
    if (fromServer != null) {
      return fromServer;
    }
    if (e.getCause() instanceof SQLException own && own.getSQLState() != null) {
      // The driver's own error from inside the row iterator (a query timeout, a lost result).
      return own;
    }
    int status = httpStatus(e);
    if (status == 401) {
      return new SQLException("Cannot connect to " + serverUrl + ": HTTP 401 Unauthorized. The"
          + " server requires authentication and did not accept the credentials given: check"
          + " user and password, and set authentication=DIGEST if the server uses digest"
          + " authentication", ClientSqlState.INVALID_AUTHORIZATION.code(), e);
    }
    if (status == 403) {
      return new SQLException("Cannot connect to " + serverUrl + ": HTTP 403 Forbidden. The"
          + " user is known but lacks the role the server requires; or the server has no"
          + " authentication and the URL names a host other than localhost, 127.0.0.1 or [::1]"
          + " (which it refuses, as a web page could point its own name at that machine)",
          ClientSqlState.INVALID_AUTHORIZATION.code(), e);
    }
    if (status > 0) {
      return new SQLException("Cannot connect to " + serverUrl + ": the server answered HTTP "
          + status + "; is it a Freshet server?", ClientSqlState.UNABLE_TO_CONNECT.code(), e);
    }
    if (hasCause(e, ConnectException.class)) {
      return new SQLException("Cannot connect to " + serverUrl + ": nothing accepts connections"
          + " there. Start the server with: freshet serve",
          ClientSqlState.UNABLE_TO_CONNECT.code(), e);
    }
    return new SQLException("Cannot connect to " + serverUrl + " (see the cause)",
        ClientSqlState.UNABLE_TO_CONNECT.code(), e);
  }

  /**
   * The error of a call on an open connection: the server's own SQLException (its message and
   * SQLSTATE travel in Avatica's error response), or a communication failure (08S01).
   */
  static SQLException onCall(String what, RuntimeException e) {
    SQLException fromServer = fromServer(e);
    if (fromServer != null) {
      return fromServer;
    }
    if (e.getCause() instanceof SQLException own && own.getSQLState() != null) {
      // The driver's own error from inside the row iterator (a query timeout, a lost result).
      return own;
    }
    int status = httpStatus(e);
    if (status == 413) {
      return tooLarge(e);
    }
    return new SQLException(what + " failed: "
        + (status > 0 ? "the server answered HTTP " + status : "the server cannot be reached")
        + " (see the cause)", ClientSqlState.COMMUNICATION_LINK_FAILURE.code(), e);
  }

  /**
   * The error of a statement that Avatica's statement class reported: the server's message and
   * SQLSTATE, without the SQL text and the prefixes that Avatica adds; else {@code e} itself.
   */
  static SQLException statementFailed(SQLException e) {
    SQLException fromServer = fromServer(e);
    if (fromServer != null) {
      return fromServer;
    }
    if (httpStatus(e) == 413) {
      return tooLarge(e);
    }
    String message = e.getMessage();
    if (message != null && message.length() > MAX_MESSAGE_CHARS) {
      // Avatica's message quotes the whole statement, however long.
      return new SQLException(message.substring(0, MAX_MESSAGE_CHARS) + "... ("
          + (message.length() - MAX_MESSAGE_CHARS) + " more characters not shown)",
          e.getSQLState(), e.getErrorCode(), e);
    }
    return e;
  }

  /** The server refused a request as too large (HTTP 413). */
  private static SQLException tooLarge(Throwable e) {
    return new SQLException("The request is larger than the server accepts (its"
        + " --max-request-bytes). Send shorter statements, or fewer rows per INSERT or batch",
        ClientSqlState.PROGRAM_LIMIT_EXCEEDED.code(), e);
  }

  private static SQLException fromServer(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof AvaticaSqlException) {
        // Avatica's statement wraps the server's message as "Error while executing SQL ...:
        // Remote driver error: <message>" and drops the exception that held it alone.
        AvaticaSqlException a = (AvaticaSqlException) t;
        return new SQLException(serverMessage(a.getErrorMessage()),
            knownState(a.getSQLState()), a.getErrorCode(), whereReported(a));
      }
      if (t instanceof SQLException && ((SQLException) t).getSQLState() != null) {
        return (SQLException) t;
      }
      if (t instanceof AvaticaClientRuntimeException) {
        AvaticaClientRuntimeException r = (AvaticaClientRuntimeException) t;
        return new SQLException(serverMessage(r.getMessage()), knownState(r.getSqlState()),
            r.getErrorCode(), r);
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return null;
  }

  /**
   * Where Avatica's client reported an error, without its message: that quotes the whole
   * statement, with any password written in it, which an application logging the error's
   * causes would log.
   */
  private static Throwable whereReported(AvaticaSqlException avatica) {
    Throwable where = new Throwable("Avatica's client reported the server's error here (its"
        + " message, which quotes the statement, is left out)");
    where.setStackTrace(avatica.getStackTrace());
    return where;
  }

  /** The server's own message: what follows Avatica's prefix, if it is there. */
  private static String serverMessage(String message) {
    if (message == null) {
      return null;
    }
    int at = message.indexOf(AVATICA_PREFIX);
    return at < 0 ? message : message.substring(at + AVATICA_PREFIX.length());
  }

  /** Avatica sends 00000 ("success") when the server's exception had no SQLSTATE. */
  private static String knownState(String state) {
    return state == null || UNKNOWN_SQL_STATE.equals(state) ? ClientSqlState.GENERAL_ERROR.code()
        : state;
  }

  private static int httpStatus(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String message = t.getMessage();
      if (message != null) {
        Matcher m = HTTP_STATUS.matcher(message);
        if (m.find()) {
          return Integer.parseInt(m.group(1));
        }
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return -1;
  }

  private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }
}
