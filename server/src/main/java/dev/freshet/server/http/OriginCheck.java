package dev.freshet.server.http;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import javax.servlet.http.HttpServletRequest;

/**
 * Refuses requests that a page of another site made: a browser names the page's origin in the
 * {@code Origin} header of every POST (and every cross-site request), and it must be one this
 * check allows. Without this a page on any site the user visits could run SQL with the user's
 * credentials, which the browser adds by itself, or against a server on loopback without any.
 *
 * <p>The web UI allows its own origin, the scheme, host and port the request was sent to
 * ({@link #sameOrigin()}); the JDBC port serves no pages, so it allows only the origins the
 * operator named ({@link #allowing}), none by default.
 *
 * <p>A request without {@code Origin} is allowed: browsers always send it on POST and on
 * cross-site requests, so it comes from a program such as curl or a JDBC driver, which no other
 * site can make the user's browser run.
 *
 * <pre>{@code
 * OriginCheck ui = OriginCheck.sameOrigin();
 * OriginCheck jdbc = OriginCheck.allowing(List.of("https://bi.example.com"));
 * Optional<String> refusal = jdbc.refusal(request);   // empty: an allowed Origin, or none
 * }</pre>
 */
public final class OriginCheck {
  /** Whether the origin the request was sent to is allowed (a port serving its own pages). */
  private final boolean ownOrigin;
  /** The allowed origins, normalised by {@link #origin(String)}. */
  private final Set<String> allowed;

  private OriginCheck(boolean ownOrigin, Set<String> allowed) {
    this.ownOrigin = ownOrigin;
    this.allowed = allowed;
  }

  /** The web UI's check: only pages of the origin the request was sent to. */
  public static OriginCheck sameOrigin() {
    return new OriginCheck(true, Set.of());
  }

  /**
   * The JDBC port's check: only pages of {@code origins} (none if empty).
   *
   * @throws IllegalArgumentException if one of {@code origins} is not an origin
   */
  public static OriginCheck allowing(Collection<String> origins) {
    Set<String> normalised = new LinkedHashSet<>();
    for (String origin : origins) {
      normalised.add(origin(origin));
    }
    return new OriginCheck(false, Set.copyOf(normalised));
  }

  /**
   * {@code origin} as this check compares it, {@code scheme://host:port} in lower case with the
   * port spelled out.
   *
   * <pre>{@code
   * OriginCheck.origin("https://BI.example.com");   // "https://bi.example.com:443"
   * }</pre>
   *
   * @throws IllegalArgumentException if {@code origin} is not an http or https origin (a
   *     path, a query or user information make it a URL, not an origin)
   */
  public static String origin(String origin) {
    requireNonNull(origin, "origin");
    return normalize(origin.trim()).orElseThrow(() -> new IllegalArgumentException("'" + origin
        + "' is not a web origin: give the scheme, host and port a page is served from, e.g."
        + " https://bi.example.com or http://localhost:3000 (no path)"));
  }

  /** Why the request is refused, or empty if it may run. */
  public Optional<String> refusal(HttpServletRequest request) {
    String origin = request.getHeader("Origin");
    if (origin == null) {
      return Optional.empty();
    }
    Optional<String> sent = normalize(origin.trim());
    if (sent.isPresent() && (allowed.contains(sent.get())
        || ownOrigin && sent.get().equals(ownOrigin(request)))) {
      return Optional.empty();
    }
    if (ownOrigin) {
      return Optional.of("Cross-site request refused: the page at origin " + origin
          + " is not the web UI's (" + ownOrigin(request) + "). Send the request from the UI's"
          + " own pages, or from a program without an Origin header");
    }
    return Optional.of("Cross-site request refused: the JDBC port answers no web page of origin "
        + origin + (allowed.isEmpty() ? " (it allows none)" : " (it allows " + String.join(", ",
            allowed) + ")") + ". Connect with a JDBC driver, which sends no Origin header"
        + sent.map(s -> ", or, if pages of that site may run any statement with their visitors'"
            + " access, start the server with --allowed-origin " + origin.trim()).orElse(""));
  }

  /**
   * Whether {@code request} carries an {@code Origin} this check allows by name (not merely no
   * {@code Origin}): a page that may read the answer, so it gets CORS headers.
   */
  public boolean namesAllowedOrigin(HttpServletRequest request) {
    String origin = request.getHeader("Origin");
    return origin != null && refusal(request).isEmpty();
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
      if (uri.getScheme() == null || uri.getHost() == null || uri.getRawUserInfo() != null
          || uri.getRawQuery() != null || uri.getRawFragment() != null
          || !(uri.getRawPath() == null || uri.getRawPath().isEmpty()
              || uri.getRawPath().equals("/"))) {
        // "null" (a sandboxed page or a file), a URL with a path and the like: no origin.
        return Optional.empty();
      }
      String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https")) {
        return Optional.empty();
      }
      int port = uri.getPort() != -1 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
      return Optional.of(scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + ":" + port);
    } catch (URISyntaxException e) {
      return Optional.empty();
    }
  }
}
