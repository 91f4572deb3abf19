package dev.freshet.server.ui;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.Engine;
import dev.freshet.server.http.LoopbackHostCheck;
import dev.freshet.engine.security.Principal;
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
 * server.setHandler(WebUiRoutes.withoutAuthentication(engine));   // loopback only
 * server.setHandler(WebUiRoutes.withAuthentication(engine, "admin"));
 * }</pre>
 *
 * <p>Each request runs as its user, by the JDBC port's rule: the authenticated user of the
 * request, an administrator if the users file gives it the administrator role; without
 * authentication the one anonymous user, {@link Principal#LOCAL}, the process's administrator.
 * The endpoints show that user only what it may see and run its SQL as that user.
 */
public final class WebUiRoutes extends AbstractHandler {
  private final MetricsEndpoint metrics;
  private final ApiEndpoints api;
  private final StaticFiles files;
  private final boolean authenticated;
  /** The role of the users file whose users administer the engine; unused without one. */
  private final String adminRole;

  private WebUiRoutes(Engine engine, boolean authenticated, String adminRole) {
    this.authenticated = authenticated;
    this.adminRole = adminRole;
    this.metrics = new MetricsEndpoint(engine);
    this.api = new ApiEndpoints(engine);
    this.files = new StaticFiles();
  }

  /**
   * Routes requests to the UI of {@code engine} with no authentication: the UI must listen on
   * loopback, it answers only requests that name a loopback host ({@link LoopbackHostCheck}),
   * and each runs as the process's administrator.
   */
  public static WebUiRoutes withoutAuthentication(Engine engine) {
    return new WebUiRoutes(engine, false, "");
  }

  /**
   * Routes requests to the UI of {@code engine} behind a security handler that admits only
   * users with credentials; each request runs as its user, an administrator if it has
   * {@code adminRole} in the users file.
   */
  public static WebUiRoutes withAuthentication(Engine engine, String adminRole) {
    return new WebUiRoutes(engine, true, requireNonNull(adminRole, "adminRole"));
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
    Principal user = Principal.LOCAL;   // without authentication: the process's administrator
    if (authenticated) {
      java.security.Principal authenticatedUser = request.getUserPrincipal();
      if (authenticatedUser == null) {
        // Jetty's security handler refuses such requests first; this is a second lock.
        JsonResponses.error(response, HttpServletResponse.SC_UNAUTHORIZED, "28000",
            "This web UI needs a user's credentials: the server runs with --auth");
        return;
      }
      user = Principal.user(authenticatedUser.getName(), request.isUserInRole(adminRole));
    }
    if (target.equals("/") || target.equals("/ui")) {
      response.sendRedirect("/ui/");
    } else if (target.equals("/metrics")) {
      metrics.handle(request, response, user);
    } else if (target.startsWith("/api/")) {
      api.handle(target.substring("/api".length()), request, response, user);
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
