package dev.freshet.server.ui;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.freshet.engine.push.PushQuery;
import dev.freshet.engine.query.ResultColumn;
import dev.freshet.engine.query.StatementResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import javax.servlet.ServletOutputStream;
import javax.servlet.http.HttpServletResponse;

/**
 * Sends a push query's rows as server-sent events while they arrive: {@code columns} once,
 * {@code rows} for each group of rows read together, {@code error} if the query fails, and a
 * {@code : keepalive} comment while it is idle. The push query stops when the stream ends,
 * whichever side ends it.
 *
 * <pre>{@code
 * new PushStream(push, response).run();   // returns when the query or the client stops
 * }</pre>
 *
 * <p>Nothing piles up here: each write blocks until the client takes it, and meanwhile the
 * {@link PushQuery} keeps the unread rows within its own bound (one row per key of an UPDATE
 * result; an APPEND result fails with 53000 beyond its buffer).
 */
final class PushStream {
  /**
   * How long the stream may stay silent. A client that went away is noticed only when a write
   * fails, so this also bounds how long its push query outlives it (plus a write or two that
   * the socket's buffer still takes).
   */
  static final Duration KEEPALIVE = Duration.ofSeconds(2);
  /** Most rows in one event, so that a burst goes out in pieces a page can draw at once. */
  static final int ROWS_PER_EVENT = 1000;

  private final StatementResult.Push push;
  private final HttpServletResponse response;

  PushStream(StatementResult.Push push, HttpServletResponse response) {
    this.push = push;
    this.response = response;
  }

  /**
   * Streams until the query stops (an error event if it failed) or a write fails because the
   * client went away; stops the query either way.
   *
   * @throws IOException if the client went away
   */
  void run() throws IOException {
    PushQuery query = push.query();
    List<ResultColumn> columns = push.columns();
    try {
      response.setStatus(HttpServletResponse.SC_OK);
      response.setHeader("Cache-Control", "no-store");
      response.setContentType("text/event-stream;charset=utf-8");
      ServletOutputStream out = response.getOutputStream();
      send(out, "event: columns\ndata: " + SqlValues.columns(columns) + "\n\n");
      try {
        while (true) {
          Object[] row = query.next(KEEPALIVE);
          if (row == null) {
            if (query.isClosed()) {
              return;   // stopped: STOP QUERY, the server or the engine closing
            }
            send(out, ": keepalive\n\n");
            continue;
          }
          ArrayNode rows = JsonResponses.MAPPER.createArrayNode();
          rows.add(SqlValues.row(columns, row));
          // The rows ready now go out together; waiting for more would delay these.
          while (rows.size() < ROWS_PER_EVENT && (row = query.next(Duration.ZERO)) != null) {
            rows.add(SqlValues.row(columns, row));
          }
          send(out, "event: rows\ndata: " + rows + "\n\n");
        }
      } catch (SQLException e) {
        send(out, "event: error\ndata: " + JsonResponses.error(e) + "\n\n");
      }
    } finally {
      query.close();
    }
  }

  private static void send(ServletOutputStream out, String event) throws IOException {
    out.write(event.getBytes(StandardCharsets.UTF_8));
    out.flush();
  }
}
