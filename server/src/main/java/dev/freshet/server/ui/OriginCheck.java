package dev.freshet.server.ui;

import java.net.URI;
import java.util.Locale;
import java.util.Optional;
import javax.servlet.http.HttpServletRequest;

/**
 * Refuses requests that a page of another site made: a browser names the page's origin in the
 * {@code Origin} header of every POST, and it must be the UI's own, the scheme, host and port the
 * request was sent to. Without this a page on any site the user visits could run SQL with the
 * user's credentials, which the browser adds by itself.
 *
 * <p>A request without {@code Origin} is allowed: browsers always send it on POST, so it comes
 * from a program such as curl, which no other site can make the user's browser run.
 *
 * <pre>{@code
 * Optional<String> refusal = OriginCheck.refusal(request);   // empty: same origin, or no Origin
 * }</pre>
 */
final class OriginCheck {
  private OriginCheck() {
  }

  /** Why the request is refused, or empty if it may run. */
  static Optional<String> refusal(HttpServletRequest request) {
    String origin = request.getHeader("Origin");
    if (origin == null) {
      return Optional.empty();
    }
    String own = ownOrigin(request);
    Optional<String> sent = normalize(origin.trim());
    if (sent.isPresent() && sent.get().equals(own)) {
      return Optional.empty();
    }
    return Optional.of("Cross-site request refused: the page at origin " + origin
        + " is not the web UI's (" + own + "). Send the request from the UI's own pages, or"
        + " from a program without an Origin header");
  }

  /** The origin the request was sent to: its scheme, and its Host header's host and port. */
  private static String ownOrigin(HttpServletRequest request) {
    String scheme = request.isSecure() ? "https" : "http";
    String host = request.getHeader("Host");
    if (host == null || host.isBlank()) {
      host = request.getServerName() + ":" + request.getServerPort();
    }
    return normalize(scheme + "://" + host.trim()).orElse(scheme + "://" + host.trim());
  }

  /** {@code scheme://host:port} in lower case with the port spelled out, or empty if malformed. */
  private static Optional<String> normalize(String origin) {
    try {
      URI uri = new URI(origin);
      if (uri.getScheme() == null || uri.getHost() == null) {
        // "null" (a sandboxed page or a file) and the like: no origin we could be.
        return Optional.empty();
      }
      String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
      int port = uri.getPort() != -1 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
      return Optional.of(scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + ":" + port);
    } catch (java.net.URISyntaxException e) {
      return Optional.empty();
    }
  }
}
