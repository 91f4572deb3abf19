package dev.freshet.server.ui;

import dev.freshet.engine.Engine;
import java.io.IOException;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/** The JSON endpoints under {@code /api/} behind the pages. (Stub.) */
final class ApiEndpoints implements AutoCloseable {
  private final Engine engine;

  ApiEndpoints(Engine engine) {
    this.engine = engine;
  }

  /** Answers {@code path}, the request's path after {@code /api}. */
  void handle(String path, HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    response.sendError(HttpServletResponse.SC_NOT_FOUND);
  }

  /** Stops the push queries the SQL box started. */
  @Override public void close() {
  }
}
