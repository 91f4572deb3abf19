package dev.freshet.server;

import java.sql.SQLException;
import org.h2.tools.Server;

/**
 * An H2 TCP server on loopback for a test: the legal form, on a Freshet server, of a JDBC table's
 * or sink's database ({@code jdbc:h2:mem:} would run inside the Freshet server, and is refused).
 *
 * <pre>{@code
 * try (H2TcpServer h2 = H2TcpServer.start()) {
 *   String url = h2.url("totals");   // jdbc:h2:tcp://localhost:PORT/mem:totals;DB_CLOSE_DELAY=-1
 * }
 * }</pre>
 */
public final class H2TcpServer implements AutoCloseable {
  private final Server server;

  private H2TcpServer(Server server) {
    this.server = server;
  }

  /**
   * Starts a server on a free port, accepting connections from this machine only; it creates
   * the databases its clients name.
   */
  public static H2TcpServer start() throws SQLException {
    return new H2TcpServer(Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start());
  }

  /** The URL of in-memory database {@code name} on this server, kept while the server runs. */
  public String url(String name) {
    return "jdbc:h2:tcp://localhost:" + server.getPort() + "/mem:" + name + ";DB_CLOSE_DELAY=-1";
  }

  @Override public void close() {
    server.stop();
  }
}
