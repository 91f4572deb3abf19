package dev.freshet.server;

import dev.freshet.common.errors.SqlState;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.List;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.calcite.avatica.AvaticaSeverity;
import org.apache.calcite.avatica.metrics.MetricsSystem;
import org.apache.calcite.avatica.metrics.noop.NoopMetricsSystem;
import org.apache.calcite.avatica.remote.Handler.HandlerResponse;
import org.apache.calcite.avatica.remote.ProtobufHandler;
import org.apache.calcite.avatica.remote.ProtobufTranslation;
import org.apache.calcite.avatica.remote.ProtobufTranslationImpl;
import org.apache.calcite.avatica.remote.Service;
import org.apache.calcite.avatica.remote.Service.ErrorResponse;
import org.apache.calcite.avatica.remote.Service.RpcMetadataResponse;
import org.apache.calcite.avatica.server.AbstractAvaticaHandler;
import org.eclipse.jetty.server.Request;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's HTTP endpoint: Avatica's protobuf protocol, served as Avatica's own handler serves
 * it, but run as the authenticated user ({@link CurrentUser}), bounded in request size, and with
 * errors that carry a SQLSTATE and a capped message and never a Java stack trace.
 *
 * <pre>{@code
 * HttpServer.Builder.newBuilder()
 *     .withHandler(new FreshetHttpHandler(service, 8 << 20, true, "admin")) ...
 * }</pre>
 *
 * <p>Avatica's handler puts the server's stack traces into every error response and answers a
 * malformed body with HTTP 500. Here a client's error (a statement the engine refuses, a request
 * on another user's connection, a malformed or oversized body) is answered with its SQLSTATE and
 * message only, and logged without a trace; only a failure of the server itself is logged with
 * its trace, and its response still holds none.
 *
 * <p>Statuses: 200 for an answer, 500 for an error response (Avatica's clients read the error only
 * with these two), 400 for a body that is not a protobuf request or a method other than POST, 413
 * for a body larger than the limit (read to its end and dropped, so that the client gets the
 * answer rather than a broken connection), 401 for a request without authentication when the
 * server requires it. A request a web page could have sent (a foreign {@code Origin} or {@code
 * Host}, a content type other than protobuf's) never gets here: {@link JdbcRequestGuard} answers
 * it with 403 or 415 before authentication.
 */
final class FreshetHttpHandler extends AbstractAvaticaHandler {
  private static final Logger LOG = LoggerFactory.getLogger(FreshetHttpHandler.class);

  /** The longest error message sent; a longer one (e.g. quoting a huge statement) is cut. */
  static final int MAX_MESSAGE_CHARS = 2000;

  private final Service service;
  /** Serializes error responses of requests that never reached a handler's translation. */
  private static final ProtobufTranslation ERRORS = new ProtobufTranslationImpl();

  private final ProtobufTranslation translation = new ProtobufTranslationImpl();
  private final ProtobufHandler protobuf;
  private final long maxRequestBytes;
  private final boolean authenticationRequired;
  /** The role of the users file whose users administer the engine. */
  private final String adminRole;
  private volatile RpcMetadataResponse rpcMetadata;

  /**
   * Creates the handler.
   *
   * @param service the service that answers requests (a {@code LocalService} over the Meta)
   * @param maxRequestBytes the largest request body accepted
   * @param authenticationRequired whether a request without an authenticated user is refused
   * @param adminRole the role whose users administer the engine
   */
  FreshetHttpHandler(Service service, long maxRequestBytes, boolean authenticationRequired,
      String adminRole) {
    this.adminRole = adminRole;
    this.service = service;
    this.protobuf = new ProtobufHandler(service, translation, NoopMetricsSystem.getInstance());
    this.maxRequestBytes = maxRequestBytes;
    this.authenticationRequired = authenticationRequired;
  }

  @Override public void handle(String target, Request baseRequest, HttpServletRequest request,
      HttpServletResponse response) throws IOException {
    baseRequest.setHandled(true);
    if (!"POST".equals(request.getMethod())) {
      response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
      response.setContentType("text/plain;charset=utf-8");
      response.getOutputStream().write(("This server expects only POST calls of Avatica's"
          + " protobuf protocol; connect with jdbc:freshet:remote:url=...")
          .getBytes(StandardCharsets.UTF_8));
      return;
    }
    Principal principal = request.getUserPrincipal();
    if (authenticationRequired && principal == null) {
      // Jetty's security handler refuses such requests first; this is a second lock.
      error(response, HttpServletResponse.SC_UNAUTHORIZED, ErrorResponse.UNAUTHORIZED_ERROR_CODE,
          ErrorResponse.UNAUTHORIZED_SQL_STATE, "User is not authenticated");
      return;
    }
    byte[] body;
    try {
      body = readBody(request);
    } catch (IOException | RuntimeException e) {
      // A client that sent too slowly (Jetty's minimum data rate, or its idle timeout) or went
      // away: its fault, and it may not even read an answer.
      LOG.debug("Could not read a request from {}: {}", request.getRemoteAddr(), e.toString());
      response.setStatus(HttpServletResponse.SC_REQUEST_TIMEOUT);
      return;
    }
    if (body == null) {
      error(response, HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE, 0,
          SqlState.PROGRAM_LIMIT_EXCEEDED.code(), "The request is larger than the server accepts ("
          + maxRequestBytes + " bytes, the server's --max-request-bytes). Send shorter"
          + " statements, or fewer rows per INSERT or batch");
      return;
    }
    try {
      translation.parseRequest(body);
    } catch (IOException | RuntimeException e) {
      LOG.debug("Malformed request from {}: {}", request.getRemoteAddr(), e.toString());
      error(response, HttpServletResponse.SC_BAD_REQUEST, 0, SqlState.PROTOCOL_VIOLATION.code(),
          "The request is not a message of Avatica's protobuf protocol. Connect with"
          + " jdbc:freshet:remote:url=... (or Avatica's remote driver with"
          + " serialization=PROTOBUF)");
      return;
    }
    // Without authentication the one anonymous user is the process's administrator (null).
    dev.freshet.engine.security.Principal user = principal == null ? null
        : dev.freshet.engine.security.Principal.user(principal.getName(),
            request.isUserInRole(adminRole));
    // Avatica's handler runs the request (Request.accept is not public); its error responses
    // are rewritten below.
    HandlerResponse<byte[]> answer = CurrentUser.as(user, () -> protobuf.apply(body));
    if (answer.getStatusCode() == HttpServletResponse.SC_OK) {
      response.setStatus(HttpServletResponse.SC_OK);
      response.setContentType("application/octet-stream;charset=utf-8");
      response.getOutputStream().write(answer.getResponse());
      return;
    }
    failed(response, (ErrorResponse) translation.parseResponse(answer.getResponse()));
  }

  /**
   * The request body, or null if it is larger than the limit (then read to its end and dropped:
   * a client still sending would otherwise see its connection reset instead of the answer).
   */
  private byte[] readBody(HttpServletRequest request) throws IOException {
    long declared = request.getContentLengthLong();
    InputStream in = request.getInputStream();
    byte[] buffer = new byte[8192];
    if (declared > maxRequestBytes) {
      drain(in, buffer);
      return null;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(
        (int) Math.max(0, Math.min(declared, 1 << 20)));
    for (int n; (n = in.read(buffer)) >= 0; ) {
      if (out.size() + (long) n > maxRequestBytes) {
        drain(in, buffer);
        return null;
      }
      out.write(buffer, 0, n);
    }
    return out.toByteArray();
  }

  private static void drain(InputStream in, byte[] buffer) throws IOException {
    while (in.read(buffer) >= 0) {
      // Dropped; Jetty's minimum data rate and idle timeout bound how long this takes.
    }
  }

  /**
   * Answers a request that failed with Avatica's {@code failure}, which holds the server's stack
   * traces: they go to the log if the server is at fault, never to the client.
   */
  private void failed(HttpServletResponse response, ErrorResponse failure) throws IOException {
    String sqlState = failure.sqlState;
    String message = failure.errorMessage;
    if (failure.errorCode == ErrorResponse.MISSING_CONNECTION_ERROR_CODE) {
      // The error code makes Avatica's client reconnect if it is told to.
      sqlState = SqlState.CONNECTION_DOES_NOT_EXIST.code();
    } else if (sqlState == null || sqlState.equals(ErrorResponse.UNKNOWN_SQL_STATE)) {
      // Not an engine error (those carry a SQLSTATE): the message is Java's, for the log.
      LOG.warn("A request failed: {}\n{}", message, failure.exceptions == null ? ""
          : String.join("\n", failure.exceptions));
      sqlState = SqlState.SYSTEM_ERROR.code();
      message = "The server failed to answer the request; its log has the details";
    } else if (sqlState.startsWith("58") || sqlState.startsWith("XX")) {
      LOG.warn("A request failed: {} {}\n{}", sqlState, message, failure.exceptions == null
          ? "" : String.join("\n", failure.exceptions));
    } else {
      LOG.debug("A request was refused: {} {}", sqlState, message);
    }
    error(response, HttpServletResponse.SC_INTERNAL_SERVER_ERROR, failure.errorCode, sqlState,
        message);
  }

  /** Writes an Avatica error response: SQLSTATE and capped message, no stack trace. */
  private void error(HttpServletResponse response, int status, int code, String sqlState,
      String message) throws IOException {
    error(response, status, code, sqlState, message, rpcMetadata);
  }

  /**
   * Writes an Avatica error response with {@code status}, as this handler's own errors are
   * written; {@code rpcMetadata} may be null (e.g. for a request refused before it got here).
   */
  static void error(HttpServletResponse response, int status, int code, String sqlState,
      String message, RpcMetadataResponse rpcMetadata) throws IOException {
    ErrorResponse error = new ErrorResponse(List.of(), cap(message), code, sqlState,
        AvaticaSeverity.ERROR, rpcMetadata);
    byte[] bytes = ERRORS.serializeResponse(error);
    response.setStatus(status);
    response.setContentType("application/octet-stream;charset=utf-8");
    response.getOutputStream().write(bytes);
  }

  /** {@code message}, cut to {@link #MAX_MESSAGE_CHARS} with a note of how much was cut. */
  static String cap(String message) {
    if (message == null) {
      return "(no message)";
    }
    if (message.length() <= MAX_MESSAGE_CHARS) {
      return message;
    }
    return message.substring(0, MAX_MESSAGE_CHARS) + "... (" + (message.length()
        - MAX_MESSAGE_CHARS) + " more characters not shown)";
  }

  @Override public void setServerRpcMetadata(RpcMetadataResponse metadata) {
    this.rpcMetadata = metadata;
    service.setRpcMetadata(metadata);
    protobuf.setRpcMetadata(metadata);
  }

  @Override public MetricsSystem getMetrics() {
    return NoopMetricsSystem.getInstance();
  }
}
