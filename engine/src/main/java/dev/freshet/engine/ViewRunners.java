package dev.freshet.engine;

import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.spi.ViewRunner;
import dev.freshet.engine.spi.ViewRunnerProvider;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * The runners of views on other engines (e.g. {@code spark}) an engine has opened, by name: each
 * opened with the engine's settings at its first use, found with {@link java.util.ServiceLoader},
 * and closed with the engine.
 *
 * <pre>{@code
 * ViewRunner spark = runners.get("spark");   // 0A000 if engine-spark is not on the class path
 * }</pre>
 */
final class ViewRunners {
  private final String engineName;
  private final ViewEngines viewEngines;
  /** Guarded by itself. */
  private final Map<String, ViewRunner> opened = new HashMap<>();
  private boolean closed;

  ViewRunners(String engineName, ViewEngines viewEngines) {
    this.engineName = engineName;
    this.viewEngines = viewEngines;
  }

  /**
   * The runner of views on engine {@code name}, opened now if it is its first use.
   *
   * @throws SQLException (0A000) if no runner of that name is on the class path; or the runner's
   *     own error if it cannot be opened
   * @throws IllegalStateException if the engine is closed
   */
  ViewRunner get(String name) throws SQLException {
    synchronized (opened) {
      if (closed) {
        throw new IllegalStateException("engine " + engineName + " is closed");
      }
      ViewRunner runner = opened.get(name);
      if (runner == null) {
        ViewRunnerProvider provider = ViewRunnerProvider.named(name).orElseThrow(() ->
            Errors.notSupported("Engine '" + name + "' is not"
                + " on this server's class path, so no view can run on it. Add the module that"
                + " provides it (for 'spark': dev.freshet:freshet-engine-spark and Spark's jars;"
                + " ./freshet serve --engine spark does), or leave 'engine' out to run the view"
                + " on Freshet's own executor"));
        runner = provider.open(viewEngines.settings());
        opened.put(name, runner);
      }
      return runner;
    }
  }

  /** Closes every runner opened; none opens after. */
  void closeAll() {
    synchronized (opened) {
      closed = true;
      opened.values().forEach(ViewRunner::close);
      opened.clear();
    }
  }
}
