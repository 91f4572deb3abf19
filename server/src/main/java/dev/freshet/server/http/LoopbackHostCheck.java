package dev.freshet.server.http;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;
import javax.servlet.http.HttpServletRequest;

/**
 * Guards a port without authentication (the web UI's or the JDBC port) against DNS rebinding: a
 * page of another site whose name the attacker points at 127.0.0.1 is, to the browser, of the
 * same origin as the port it then reaches: the web UI's {@link OriginCheck} takes it for the UI's
 * own, and a browser may send no {@code Origin} at all on such a same-origin request (older ones
 * do so on POST too). Its requests still name the attacker's host in the {@code Host} header, so a port
 * that serves loopback only answers only requests that name a loopback host: {@code localhost},
 * {@code 127.x.y.z} or {@code [::1]}, with or without a port.
 *
 * <p>A port with authentication needs no such check: the browser does not send the user's
 * credentials to the attacker's host name.
 *
 * <pre>{@code
 * if (!LoopbackHostCheck.namesLoopback(request)) { response.sendError(421); }
 * }</pre>
 */
public final class LoopbackHostCheck {
  private LoopbackHostCheck() {
  }

  /** Whether the request's {@code Host} header names this machine's loopback address. */
  public static boolean namesLoopback(HttpServletRequest request) {
    String host = request.getHeader("Host");
    if (host == null || host.isBlank()) {
      // HTTP/1.0 without Host: no browser sends that, so it is no page of another site.
      return true;
    }
    String name;
    try {
      name = new URI("http://" + host.trim() + "/").getHost();
    } catch (URISyntaxException e) {
      return false;
    }
    if (name == null) {
      return false;
    }
    name = name.toLowerCase(Locale.ROOT);
    if (name.equals("localhost")) {
      return true;
    }
    if (!isAddressLiteral(name)) {
      return false;   // any other name could be rebound
    }
    try {
      return InetAddress.getByName(name).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /** An IPv4 or bracketed IPv6 literal, which {@link InetAddress} parses without a lookup. */
  private static boolean isAddressLiteral(String name) {
    return name.startsWith("[") || name.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'));
  }
}
