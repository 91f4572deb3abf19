package dev.freshet.server.ui;

import dev.freshet.engine.Engine;
import dev.freshet.server.http.LoopbackHostCheck;
import java.io.IOException;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.AbstractHandler;

/**
 * Everything the web UI's port answers: the pages under {@code /ui/} (and the chart library
 * under {@code /webjars/}), their JSON endpoints under {@code /api/}, and Prometheus metrics at
 * {@code /metrics}; {@code /} redirects to the pages. Authentication, where the server requires
 * it, happens before a request gets here (Jetty's security handler, the same as for JDBC).
 *
 * <pre>{@code
 * server.setHandler(new WebUiRoutes(engine, false));   // no authentication: loopback only
 * }</pre>
 */
public final class WebUiRoutes extends AbstractHandler {
  private final MetricsEndpoint metrics;
  private final ApiEndpoints api;
  private final StaticFiles files;
  private final boolean authenticated;

  /**
   * Routes requests to the UI of {@code engine}; {@code authenticated} says whether a security
   * handler admits only users with credentials before requests get here. Without it the UI must
   * listen on loopback, and it answers only requests that name a loopback host
   * ({@link LoopbackHostCheck}).
   */
  public WebUiRoutes(Engine engine, boolean authenticated) {
    this.authenticated = authenticated;
    this.metrics = new MetricsEndpoint(engine);
    this.api = new ApiEndpoints(engine);
    this.files = new StaticFiles();
  }

  @Override public void handle(String target, Request baseRequest, HttpServletRequest request,
      HttpServletResponse response) throws IOException {
    baseRequest.setHandled(true);
    if (!authenticated && !LoopbackHostCheck.namesLoopback(request)) {
      // 421 Misdirected Request: this UI serves no host of that name.
      JsonResponses.error(response, 421, "42501", "This web UI has no authentication and"
          + " answers only requests to a loopback host (localhost, 127.0.0.1 or [::1]), not to "
          + request.getHeader("Host") + ". Open it as http://localhost:" + request.getLocalPort()
          + "/ui/, or serve it with freshet serve --auth");
      return;
    }
    if (target.equals("/") || target.equals("/ui")) {
      response.sendRedirect("/ui/");
    } else if (target.equals("/metrics")) {
      metrics.handle(request, response);
    } else if (target.startsWith("/api/")) {
      api.handle(target.substring("/api".length()), request, response);
    } else if (target.startsWith("/ui/") || target.startsWith("/webjars/")) {
      files.handle(target, request, response);
    } else {
      response.sendError(HttpServletResponse.SC_NOT_FOUND);
    }
  }

  @Override protected void doStop() throws Exception {
    api.close();
    metrics.close();
    super.doStop();
  }
}
