package dev.freshet.server.ui;

import dev.freshet.engine.Engine;
import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.engine.security.Principal;
import java.io.IOException;
import java.sql.SQLException;
import java.util.Optional;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * The JSON endpoints under {@code /api/} behind the pages:
 * <ul>
 *   <li>{@code GET /api/overview}: streams, views, sinks and queries ({@link ObjectsJson});
 *   <li>{@code GET /api/queries/{name}}: one query with its plan;
 *   <li>{@code GET /api/queries/{name}/progress?after=N}: its batches after N
 *       ({@link BatchProgressJson});
 *   <li>{@code POST /api/sql}: runs a statement ({@link SqlEndpoint}).
 * </ul>
 * Any other path answers 404 with a JSON error; no answer is cached.
 *
 * <p>Each answers as the request's user sees the engine: the objects and queries it owns, was
 * granted a privilege on, or opened (its push queries); all of them for an administrator. A
 * query the user may not see answers 404 as one that does not exist, as {@code STOP QUERY}
 * does, so that no user learns the names of another's queries.
 *
 * <pre>{@code
 * curl http://127.0.0.1:8766/api/queries/CLICKS_PER_USER/progress?after=41
 * }</pre>
 */
final class ApiEndpoints implements AutoCloseable {
  private static final String QUERIES = "/queries/";
  private static final String PROGRESS = "/progress";

  private final ObjectsJson objects;
  private final SqlEndpoint sql;

  ApiEndpoints(Engine engine) {
    this.objects = new ObjectsJson(engine);
    this.sql = new SqlEndpoint(engine);
  }

  /** Answers {@code path}, the request's path after {@code /api}, as {@code user} sees it. */
  void handle(String path, HttpServletRequest request, HttpServletResponse response,
      Principal user) throws IOException {
    if (path.equals("/sql")) {
      sql.handle(request, response, user);
      return;
    }
    boolean known = path.equals("/overview") || path.startsWith(QUERIES);
    if (known && !request.getMethod().equals("GET")) {
      response.setHeader("Allow", "GET");
      JsonResponses.error(response, HttpServletResponse.SC_METHOD_NOT_ALLOWED, "0A000",
          "Method " + request.getMethod() + " is not allowed on /api" + path + ". Use GET");
      return;
    }
    try {
      if (path.equals("/overview")) {
        JsonResponses.send(response, HttpServletResponse.SC_OK, objects.overview(user));
      } else if (path.startsWith(QUERIES) && path.endsWith(PROGRESS)) {
        // Jetty has percent-decoded the path already: the segment is the name.
        progress(path.substring(QUERIES.length(), path.length() - PROGRESS.length()), request,
            response, user);
      } else if (path.startsWith(QUERIES) && path.indexOf('/', QUERIES.length()) < 0) {
        String name = path.substring(QUERIES.length());
        Optional<?> query = objects.query(name, user);
        if (query.isPresent()) {
          JsonResponses.send(response, HttpServletResponse.SC_OK, query.get());
        } else {
          noSuchQuery(response, name);
        }
      } else {
        JsonResponses.error(response, HttpServletResponse.SC_NOT_FOUND, "42704",
            "No endpoint /api" + path + ". The endpoints: GET /api/overview,"
                + " GET /api/queries/{name}, GET /api/queries/{name}/progress?after=N,"
                + " POST /api/sql");
      }
    } catch (SQLException e) {
      JsonResponses.error(response, e);
    }
  }

  private void progress(String name, HttpServletRequest request, HttpServletResponse response,
      Principal user) throws IOException {
    Optional<ContinuousQuery> query = objects.visibleQuery(name, user);
    if (query.isEmpty()) {
      noSuchQuery(response, name);
      return;
    }
    long after = -1;   // batch ids start at 0: every batch
    String text = request.getParameter("after");
    if (text != null) {
      try {
        after = Long.parseLong(text.trim());
      } catch (NumberFormatException e) {
        JsonResponses.error(response, HttpServletResponse.SC_BAD_REQUEST, "22023",
            "after=" + text + " is not a batch id. Give the last batchId you have, e.g."
                + " after=41, or leave it out for every batch kept");
        return;
      }
    }
    JsonResponses.send(response, HttpServletResponse.SC_OK,
        BatchProgressJson.after(query.get(), after));
  }

  private static void noSuchQuery(HttpServletResponse response, String name) throws IOException {
    JsonResponses.error(response, HttpServletResponse.SC_NOT_FOUND, "42704", "No continuous"
        + " query has the id or name " + name + ". GET /api/overview lists the queries");
  }

  /** Stops the push queries the SQL box started. */
  @Override public void close() {
    sql.close();
  }
}
