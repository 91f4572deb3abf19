package dev.freshet.server.ui;

import dev.freshet.engine.Engine;
import java.io.IOException;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/** {@code GET /metrics}: the engine's metrics in Prometheus' text format. (Stub.) */
final class MetricsEndpoint {
  private final Engine engine;

  MetricsEndpoint(Engine engine) {
    this.engine = engine;
  }

  void handle(HttpServletRequest request, HttpServletResponse response) throws IOException {
    response.sendError(HttpServletResponse.SC_NOT_FOUND);
  }
}
