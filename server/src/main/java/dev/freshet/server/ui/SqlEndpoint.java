package dev.freshet.server.ui;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.freshet.engine.Engine;
import dev.freshet.engine.Session;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.server.http.OriginCheck;
import dev.freshet.engine.security.Principal;
import java.io.IOException;
import java.io.InputStream;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code POST /api/sql} with {@code {"sql": "..."}}: runs one statement in a session of its own
 * and answers its rows or update count as JSON, or a push query's rows as server-sent events
 * ({@link PushStream}).
 *
 * <pre>{@code
 * curl -u ann -H 'Content-Type: application/json' -d '{"sql":"SHOW STREAMS"}' \
 *     http://localhost:8766/api/sql
 * }</pre>
 *
 * <p>Only POST with a JSON body from the UI's own origin ({@link OriginCheck}): a cross-site HTML
 * form cannot send {@code application/json}, and a cross-site script cannot either without a
 * CORS preflight, which this server never answers.
 *
 * <p>Each request gets a fresh {@link Session}, so no request sees another's options or pending
 * INSERTs; it needs no closing (it holds nothing once auto-commit has committed each INSERT).
 * The session is the request's user's ({@link Engine#openSession(Principal)}): the statement is
 * checked against that user's privileges, as over JDBC, and a refusal answers 400 with SQLSTATE
 * 42501; a push query it starts is that user's, and ends with 42501 if the user loses
 * {@code SELECT} on what it reads.
 */
final class SqlEndpoint implements AutoCloseable {
  /** Most rows of a finite result in one answer; beyond, {@code "truncated": true}. */
  static final int MAX_ROWS = 10_000;
  /** Largest request body: a statement, not a data load. */
  private static final int MAX_BODY_BYTES = 1 << 20;
  /** Pages of the UI's own origin only. */
  private static final OriginCheck ORIGINS = OriginCheck.sameOrigin();

  private final Engine engine;
  /** The push queries streaming now, to stop when the server stops. */
  private final Set<StatementResult.Push> streaming = ConcurrentHashMap.newKeySet();

  SqlEndpoint(Engine engine) {
    this.engine = engine;
  }

  /** Runs the request's statement as {@code user}. */
  void handle(HttpServletRequest request, HttpServletResponse response, Principal user)
      throws IOException {
    if (!request.getMethod().equals("POST")) {
      response.setHeader("Allow", "POST");
      JsonResponses.error(response, HttpServletResponse.SC_METHOD_NOT_ALLOWED, "0A000",
          "Method " + request.getMethod() + " is not allowed on /api/sql. POST the statement"
              + " as {\"sql\": \"...\"}");
      return;
    }
    Optional<String> refusal = ORIGINS.refusal(request);
    if (refusal.isPresent()) {
      JsonResponses.error(response, HttpServletResponse.SC_FORBIDDEN, "42501", refusal.get());
      return;
    }
    if (!isJson(request.getContentType())) {
      JsonResponses.error(response, HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE, "0A000",
          "Content-Type " + request.getContentType() + " is not accepted on /api/sql. Send"
              + " Content-Type: application/json with a body {\"sql\": \"...\"}");
      return;
    }
    Optional<String> sql = statement(request, response);
    if (sql.isEmpty()) {
      return;
    }
    StatementResult result;
    try {
      result = engine.openSession(user).execute(sql.get());
    } catch (SQLException e) {
      JsonResponses.error(response, e);
      return;
    }
    if (result instanceof StatementResult.Push push) {
      stream(push, response);
    } else if (result instanceof StatementResult.Rows rows) {
      JsonResponses.send(response, HttpServletResponse.SC_OK, rows(rows));
    } else {
      ObjectNode count = JsonResponses.object();
      count.put("updateCount", ((StatementResult.UpdateCount) result).count());
      JsonResponses.send(response, HttpServletResponse.SC_OK, count);
    }
  }

  /** Stops the push queries that are streaming; their streams end. */
  @Override public void close() {
    for (StatementResult.Push push : streaming) {
      push.query().close();
    }
  }

  private void stream(StatementResult.Push push, HttpServletResponse response)
      throws IOException {
    streaming.add(push);
    try {
      new PushStream(push, response).run();
    } finally {
      streaming.remove(push);
    }
  }

  private static boolean isJson(String contentType) {
    if (contentType == null) {
      return false;
    }
    int semicolon = contentType.indexOf(';');
    String type = semicolon < 0 ? contentType : contentType.substring(0, semicolon);
    return type.trim().toLowerCase(Locale.ROOT).equals("application/json");
  }

  /** The body's {@code sql}, or empty after answering 400 if the body has none. */
  private static Optional<String> statement(HttpServletRequest request,
      HttpServletResponse response) throws IOException {
    byte[] body;
    try (InputStream in = request.getInputStream()) {
      body = in.readNBytes(MAX_BODY_BYTES + 1);
    }
    if (body.length > MAX_BODY_BYTES) {
      JsonResponses.error(response, HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE, "54000",
          "The request body is larger than " + MAX_BODY_BYTES + " bytes. Send one statement;"
              + " load data with INSERT over JDBC or a connector");
      return Optional.empty();
    }
    JsonNode json;
    try {
      json = JsonResponses.MAPPER.readTree(body);
    } catch (JsonProcessingException e) {
      json = null;
    }
    JsonNode sql = json == null ? null : json.get("sql");
    if (sql == null || !sql.isTextual()) {
      JsonResponses.error(response, HttpServletResponse.SC_BAD_REQUEST, "22032",
          "The request body is not a JSON object with a string \"sql\". Send"
              + " {\"sql\": \"SELECT ...\"}");
      return Optional.empty();
    }
    return Optional.of(sql.asText());
  }

  /** {@code {"columns", "rows"}}, and {@code "truncated": true} beyond {@link #MAX_ROWS}. */
  private static ObjectNode rows(StatementResult.Rows result) {
    ObjectNode json = JsonResponses.object();
    json.set("columns", SqlValues.columns(result.columns()));
    ArrayNode rows = json.putArray("rows");
    List<Object[]> all = result.rows();
    for (Object[] row : all.subList(0, Math.min(all.size(), MAX_ROWS))) {
      rows.add(SqlValues.row(result.columns(), row));
    }
    if (all.size() > MAX_ROWS) {
      json.put("truncated", true);
    }
    return json;
  }
}
