package dev.freshet.server.ui;

import dev.freshet.engine.Engine;
import dev.freshet.engine.ServedWebUi;
import dev.freshet.engine.WebUiProvider;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Serves an embedded engine's web UI on a Jetty server of its own, on loopback and without
 * authentication ({@link Engine#serveWebUi}); found by {@link java.util.ServiceLoader}.
 *
 * <pre>{@code
 * Connection c = DriverManager.getConnection("jdbc:freshet:uiPort=8766");
 * // http://127.0.0.1:8766/ui/
 * }</pre>
 */
public final class EmbeddedWebUi implements WebUiProvider {
  /** For {@link java.util.ServiceLoader}. */
  public EmbeddedWebUi() {
  }

  @Override public ServedWebUi serve(Engine engine, String bindAddress, int port) {
    try {
      if (!InetAddress.getByName(bindAddress).isLoopbackAddress()) {
        throw new IllegalArgumentException("An embedded engine serves its web UI on loopback"
            + " only, not " + bindAddress + ": it has no authentication. Serve the engine with"
            + " freshet serve --ui-port for other machines");
      }
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("Cannot resolve the address " + bindAddress, e);
    }
    QueuedThreadPool threads = new QueuedThreadPool(32, 2);
    threads.setName("freshet-ui-" + engine.name());
    threads.setDaemon(true);
    Server server = new Server(threads);
    ServerConnector connector = new ServerConnector(server);
    connector.setHost(bindAddress);
    connector.setPort(port);
    server.addConnector(connector);
    ErrorHandler errors = new ErrorHandler();
    errors.setShowStacks(false);
    errors.setShowServlet(false);
    server.setErrorHandler(errors);
    server.setHandler(WebUiRoutes.withoutAuthentication(engine));
    server.setStopTimeout(1000);
    try {
      server.start();
    } catch (Exception e) {
      stop(server);
      throw new IllegalStateException("Cannot serve the web UI of engine " + engine.name()
          + " on " + bindAddress + ":" + port + ": " + e.getMessage()
          + ". Choose another port (uiPort=0 picks a free one)", e);
    }
    String host = bindAddress.contains(":") ? "[" + bindAddress + "]" : bindAddress;
    URI url = URI.create("http://" + host + ":" + connector.getLocalPort() + "/");
    AtomicBoolean closed = new AtomicBoolean();
    return new ServedWebUi() {
      @Override public URI url() {
        return url;
      }

      @Override public void close() {
        if (closed.compareAndSet(false, true)) {
          stop(server);
        }
      }
    };
  }

  private static void stop(Server server) {
    try {
      server.stop();
    } catch (Exception e) {
      // Stopping a server that failed to start, or at engine close: nothing more to release.
    }
  }
}
