package dev.freshet.engine;

import java.net.URI;

/**
 * A web UI that is being served; closing it stops serving.
 *
 * <pre>{@code
 * try (ServedWebUi ui = engine.serveWebUi(0)) {
 *   System.out.println(ui.url().resolve("/ui/"));
 * }
 * }</pre>
 */
public interface ServedWebUi extends AutoCloseable {
  /** The UI's address, e.g. {@code http://127.0.0.1:8766/}. */
  URI url();

  /** Stops serving. Idempotent. */
  @Override void close();
}
