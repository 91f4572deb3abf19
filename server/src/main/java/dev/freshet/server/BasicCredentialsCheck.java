package dev.freshet.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.HandlerWrapper;

/**
 * Answers a request whose {@code Authorization: Basic} header is malformed (empty, not base64, no
 * {@code user:password}) with HTTP 401 and a challenge, before Jetty's authenticator sees it:
 * Jetty's answers some of them with HTTP 500 and logs a stack trace, for what is a client's
 * mistake.
 *
 * <pre>{@code
 * BasicCredentialsCheck check = new BasicCredentialsCheck("Avatica");
 * check.setHandler(server.getHandler());
 * server.setHandler(check);
 * }</pre>
 */
final class BasicCredentialsCheck extends HandlerWrapper {
  private static final String SCHEME = "basic";

  private final String realm;

  /** Creates the check; {@code realm} goes into the challenge of its 401 answers. */
  BasicCredentialsCheck(String realm) {
    this.realm = realm;
  }

  @Override public void handle(String target, Request baseRequest, HttpServletRequest request,
      HttpServletResponse response) throws IOException, ServletException {
    String header = request.getHeader("Authorization");
    if (header != null && malformedBasic(header.trim())) {
      baseRequest.setHandled(true);
      response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
      response.setHeader("WWW-Authenticate", "Basic realm=\"" + realm + "\"");
      response.setContentType("text/plain;charset=utf-8");
      response.getOutputStream().write(("Malformed Authorization header: expected 'Basic '"
          + " followed by the base64 encoding of user:password").getBytes(StandardCharsets.UTF_8));
      return;
    }
    super.handle(target, baseRequest, request, response);
  }

  /** Whether {@code header} names the Basic scheme but does not hold {@code base64(u:p)}. */
  static boolean malformedBasic(String header) {
    int space = header.indexOf(' ');
    String scheme = space < 0 ? header : header.substring(0, space);
    if (!SCHEME.equals(scheme.toLowerCase(Locale.ROOT))) {
      return false;
    }
    String credentials = space < 0 ? "" : header.substring(space + 1).trim();
    if (credentials.isEmpty()) {
      return true;
    }
    byte[] decoded;
    try {
      decoded = Base64.getDecoder().decode(credentials);
    } catch (IllegalArgumentException e) {
      return true;
    }
    int colon = new String(decoded, StandardCharsets.ISO_8859_1).indexOf(':');
    return colon <= 0;
  }
}
