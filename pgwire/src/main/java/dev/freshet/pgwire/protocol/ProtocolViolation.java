package dev.freshet.pgwire.protocol;

import java.sql.SQLException;

/**
 * A client broke PostgreSQL's protocol (a length out of range, a truncated or unknown message):
 * the connection ends with a FATAL ErrorResponse of SQLSTATE 08P01, or another state given.
 */
final class ProtocolViolation extends SQLException {
  private static final long serialVersionUID = 1L;

  ProtocolViolation(String message) {
    super(message, "08P01");
  }

  ProtocolViolation(String sqlState, String message) {
    super(message, sqlState);
  }
}
