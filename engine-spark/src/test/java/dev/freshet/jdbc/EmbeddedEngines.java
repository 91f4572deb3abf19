package dev.freshet.jdbc;

import dev.freshet.engine.Engine;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;

/**
 * The engine behind embedded connections to a data directory, for tests outside the driver's
 * module that must wait for a query or restart the engine (close it: the next connection starts
 * a new one on the same directory, as a server restart would).
 *
 * <pre>{@code
 * EmbeddedEngines.of(dataDir).close();   // the next jdbc:freshet:dataDir=... starts it again
 * }</pre>
 */
public final class EmbeddedEngines {
  private EmbeddedEngines() {
  }

  /** The engine of {@code jdbc:freshet:dataDir=<dataDir>}, started if none runs. */
  public static Engine of(Path dataDir) throws SQLException {
    return EngineRegistry.INSTANCE.resolve(Map.of(EngineRegistry.DATA_DIR, dataDir.toString()));
  }

  /** The in-memory engine of {@code jdbc:freshet:engine=<name>}, started if none runs. */
  public static Engine named(String name) throws SQLException {
    return EngineRegistry.INSTANCE.resolve(Map.of(EngineRegistry.ENGINE, name));
  }
}
