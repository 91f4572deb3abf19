package dev.freshet.server.ui;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.sql.SQLException;
import javax.servlet.http.HttpServletResponse;

/**
 * Writes the API's JSON answers: UTF-8, never cached (they show live state), and errors as
 * {@code {"sqlState", "message"}} like the JDBC driver's, never a stack trace.
 *
 * <pre>{@code
 * JsonResponses.error(response, 404, "42704", "No query named V1. GET /api/overview lists them");
 * }</pre>
 */
final class JsonResponses {
  /** Shared: an ObjectMapper is thread-safe once configured. */
  static final ObjectMapper MAPPER = new ObjectMapper();

  private JsonResponses() {
  }

  /** A new JSON object to fill. */
  static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  /** Answers {@code status} with {@code body}. */
  static void send(HttpServletResponse response, int status, Object body) throws IOException {
    byte[] bytes = MAPPER.writeValueAsBytes(body);
    response.setStatus(status);
    response.setHeader("Cache-Control", "no-store");
    response.setContentType("application/json;charset=utf-8");
    response.setContentLength(bytes.length);
    response.getOutputStream().write(bytes);
  }

  /** Answers {@code status} with an error that says what is wrong and how to fix it. */
  static void error(HttpServletResponse response, int status, String sqlState, String message)
      throws IOException {
    send(response, status, error(sqlState, message));
  }

  /** Answers 400 with the engine's SQLSTATE and message. */
  static void error(HttpServletResponse response, SQLException e) throws IOException {
    send(response, HttpServletResponse.SC_BAD_REQUEST, error(e));
  }

  /** The body of an error: {@code {"sqlState", "message"}}. */
  static ObjectNode error(String sqlState, String message) {
    ObjectNode error = object();
    error.put("sqlState", sqlState);
    error.put("message", message);
    return error;
  }

  /** The body of the engine's error; 58000 (system error) if it has no SQLSTATE. */
  static ObjectNode error(SQLException e) {
    String state = e.getSQLState() == null ? "58000" : e.getSQLState();
    String message = e.getMessage() == null ? e.toString() : e.getMessage();
    return error(state, message);
  }

}
