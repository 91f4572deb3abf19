package dev.freshet.server;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.security.AuditEvent;
import dev.freshet.engine.security.AuditLog;
import dev.freshet.server.http.LoopbackHostCheck;
import dev.freshet.server.http.OriginCheck;
import java.io.IOException;
import java.util.Locale;
import java.util.Optional;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.HandlerWrapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refuses, on the JDBC port, every request a web page could have made: the browser of a user of
 * the server would otherwise let any site the user visits run statements on it, with the
 * user's credentials or on a server without any. It wraps Jetty's security handler, so that
 * such a request is refused before authentication (no browser shows a password prompt for it)
 * and before its body is read: nothing of it reaches the engine.
 *
 * <pre>{@code
 * JdbcRequestGuard guard = new JdbcRequestGuard("freshet-ui",
 *     OriginCheck.allowing(List.of("https://bi.example.com")), true, engine.audit());
 * guard.setHandler(server.getHandler());
 * server.setHandler(guard);
 * }</pre>
 *
 * <p>In this order, each answered with an Avatica error response (its SQLSTATE and a message that
 * says what to change) and recorded in the audit log as {@value AuditEvent#REFUSED_HTTP}:
 * <ul>
 *   <li>on a server without authentication, a {@code Host} other than a loopback name or address
 *       ({@link LoopbackHostCheck}, against DNS rebinding): 403, {@code 42501};
 *   <li>an {@code Origin} the operator did not allow ({@link OriginCheck}; a program sends none):
 *       403, {@code 42501};
 *   <li>a POST whose content type is not Avatica's protobuf ({@link ProtobufContentType}): 415,
 *       {@code 08P01}. A page can send {@code text/plain}, a form or no content type to any
 *       site without asking; for any other type the browser asks the site first (a CORS
 *       preflight), which this server answers only for allowed origins.
 * </ul>
 *
 * <p>A page of an allowed origin ({@code --allowed-origin}) gets CORS headers, so that the
 * browser lets it read the answers: the preflight ({@code OPTIONS}) is answered here, also on a
 * server with authentication (a preflight carries no credentials), and the page must send its
 * credentials in the {@code Authorization} header itself (the browser's stored ones are not
 * allowed, so no other page of that origin gets them for free).
 *
 * <p>A request that Jetty's security handler then answers with 401 although it carried
 * credentials (a wrong user name or password) is recorded in the audit log as well; its first
 * request without credentials, which every client sends to learn the challenge, is not.
 * Requests of the web UI's connector pass untouched: the UI checks its own.
 */
final class JdbcRequestGuard extends HandlerWrapper {
  private static final Logger LOG = LoggerFactory.getLogger(JdbcRequestGuard.class);
  /** How long a browser may keep an answered preflight, in seconds. */
  private static final String PREFLIGHT_MAX_AGE = "600";
  /** SQLSTATE 28000, invalid authorization specification: wrong credentials. */
  private static final String INVALID_AUTHORIZATION = "28000";

  private final String uiConnector;
  private final OriginCheck origins;
  private final boolean loopbackOnly;
  private final AuditLog audit;

  /** A refused request: its status, SQLSTATE and the message that says what to change. */
  private record Refusal(int status, SqlState sqlState, String message) {
  }

  /**
   * Creates the guard.
   *
   * @param uiConnector the name of the web UI's connector, whose requests pass untouched
   * @param origins the origins whose pages may send requests
   * @param loopbackOnly whether the server has no authentication (so it listens on loopback,
   *     and answers only requests naming a loopback host)
   * @param audit where refusals are recorded
   */
  JdbcRequestGuard(String uiConnector, OriginCheck origins, boolean loopbackOnly,
      AuditLog audit) {
    this.uiConnector = requireNonNull(uiConnector, "uiConnector");
    this.origins = requireNonNull(origins, "origins");
    this.loopbackOnly = loopbackOnly;
    this.audit = requireNonNull(audit, "audit");
  }

  @Override public void handle(String target, Request baseRequest, HttpServletRequest request,
      HttpServletResponse response) throws IOException, ServletException {
    if (uiConnector.equals(baseRequest.getHttpChannel().getConnector().getName())) {
      super.handle(target, baseRequest, request, response);
      return;
    }
    Optional<Refusal> refusal = refusal(request);
    if (refusal.isPresent()) {
      baseRequest.setHandled(true);
      refuse(request, response, refusal.get());
      return;
    }
    if (origins.namesAllowedOrigin(request)) {
      response.setHeader("Access-Control-Allow-Origin", request.getHeader("Origin"));
      response.addHeader("Vary", "Origin");
      if ("OPTIONS".equals(request.getMethod())
          && request.getHeader("Access-Control-Request-Method") != null) {
        baseRequest.setHandled(true);
        response.setHeader("Access-Control-Allow-Methods", "POST");
        response.setHeader("Access-Control-Allow-Headers", "Content-Type, Authorization");
        response.setHeader("Access-Control-Max-Age", PREFLIGHT_MAX_AGE);
        response.setStatus(HttpServletResponse.SC_NO_CONTENT);
        return;
      }
    }
    super.handle(target, baseRequest, request, response);
    if (response.getStatus() == HttpServletResponse.SC_UNAUTHORIZED
        && request.getHeader("Authorization") != null && !staleNonce(response)) {
      audit.record(AuditEvent.refused(null, AuditEvent.REFUSED_HTTP, null,
          INVALID_AUTHORIZATION, "Authentication failed: wrong user name or"
          + " password (HTTP 401)").from(request.getRemoteAddr()));
    }
  }

  /** Why {@code request} is refused, if it is; checks only its headers. */
  private Optional<Refusal> refusal(HttpServletRequest request) {
    if (loopbackOnly && !LoopbackHostCheck.namesLoopback(request)) {
      return Optional.of(new Refusal(HttpServletResponse.SC_FORBIDDEN,
          SqlState.INSUFFICIENT_PRIVILEGE, "Request refused: this server has no authentication"
          + " and answers only requests to a loopback host (localhost, 127.0.0.1 or [::1]), not"
          + " to " + request.getHeader("Host") + ", whose name a web page could point at this"
          + " machine. Connect with jdbc:freshet:remote:url=http://localhost:"
          + request.getLocalPort() + ", or serve with --auth BASIC and --users-file"));
    }
    Optional<String> foreign = origins.refusal(request);
    if (foreign.isPresent()) {
      return Optional.of(new Refusal(HttpServletResponse.SC_FORBIDDEN,
          SqlState.INSUFFICIENT_PRIVILEGE, foreign.get()));
    }
    String contentType = request.getContentType();
    if ("POST".equals(request.getMethod()) && !ProtobufContentType.accepted(contentType)) {
      return Optional.of(new Refusal(HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE,
          SqlState.PROTOCOL_VIOLATION, (contentType == null ? "A request without Content-Type"
              : "Content-Type " + contentType) + " is not accepted: the JDBC port reads only"
          + " Avatica's protobuf requests, of Content-Type " + String.join(" or ",
              ProtobufContentType.ACCEPTED) + ". Connect with jdbc:freshet:remote:url=... (or"
          + " Avatica's remote driver with serialization=PROTOBUF and its default HTTP client)"));
    }
    return Optional.empty();
  }

  private void refuse(HttpServletRequest request, HttpServletResponse response,
      Refusal refusal) throws IOException {
    LOG.debug("Refused a request from {}: {}", request.getRemoteAddr(), refusal.message());
    audit.record(AuditEvent.refused(null, AuditEvent.REFUSED_HTTP, null,
        refusal.sqlState().code(), refusal.message()).from(request.getRemoteAddr()));
    FreshetHttpHandler.error(response, refusal.status(), 0, refusal.sqlState().code(),
        refusal.message(), null);
  }

  /**
   * Whether a 401 only says that a Digest nonce expired: the client answers the new challenge
   * with the same credentials, which is no failed attempt.
   */
  private static boolean staleNonce(HttpServletResponse response) {
    for (String challenge : response.getHeaders("WWW-Authenticate")) {
      if (challenge.toLowerCase(Locale.ROOT).replace(" ", "").contains("stale=true")) {
        return true;
      }
    }
    return false;
  }
}
