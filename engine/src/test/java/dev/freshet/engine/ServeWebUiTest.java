package dev.freshet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Serving the web UI needs the server module; without it the engine says so. */
class ServeWebUiTest {
  @Test void shouldSayWhichModuleServesTheUiWhenItIsMissing() {
    try (Engine engine = new Engine("no-ui")) {
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> engine.serveWebUi(0));
      assertEquals("Cannot serve the web UI of engine no-ui: no web UI on the class path. Add"
          + " dev.freshet:freshet-server to it", e.getMessage());
    }
  }
}
