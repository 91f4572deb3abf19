package dev.freshet.engine;

/**
 * Serves an engine's web UI (pages, their JSON endpoints and Prometheus metrics) on a port of its
 * own. The engine knows no HTTP: the server module provides the implementation, found with
 * {@link java.util.ServiceLoader} when an engine is asked to serve its UI ({@link
 * Engine#serveWebUi}).
 *
 * <pre>{@code
 * // META-INF/services/dev.freshet.engine.WebUiProvider names the implementation
 * ServedWebUi ui = provider.serve(engine, "127.0.0.1", 8766);
 * }</pre>
 */
public interface WebUiProvider {
  /**
   * Starts serving {@code engine}'s web UI, without authentication, on {@code bindAddress} (a
   * loopback address: anyone who reaches the port can run SQL) and {@code port} (0 picks one).
   *
   * @throws IllegalStateException if the port is taken; the message says which
   */
  ServedWebUi serve(Engine engine, String bindAddress, int port);
}
