package dev.freshet.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * A free port of the loopback address, for a test that must name a port before the program
 * that listens on it starts (a JDBC URL's {@code uiPort}, a Prometheus server's flag).
 *
 * <pre>{@code
 * int port = FreePorts.loopback();
 * DriverManager.getConnection("jdbc:freshet:uiPort=" + port);
 * }</pre>
 *
 * <p>The port is free when this returns; another process could take it before the test's
 * program does, which on a test machine does not happen in practice. Prefer port 0 where the
 * program can say which port it took.
 */
public final class FreePorts {
  private FreePorts() {
  }

  /** A port of 127.0.0.1 that nothing listens on now. */
  public static int loopback() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("No free port on the loopback address", e);
    }
  }
}
