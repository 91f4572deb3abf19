package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded driver's {@code uiPort} property: checked, and refused with the reason when the
 * web UI cannot be served, leaving no engine behind.
 */
class WebUiPropertyTest {
  @TempDir Path dir;

  @Test void shouldRefuseAUiPortThatIsNoPort() {
    SQLException e = assertThrows(SQLException.class,
        () -> DriverManager.getConnection("jdbc:freshet:engine=ui-bad-port;uiPort=http"));
    assertEquals("08001", e.getSQLState());
    assertEquals("Connection property uiPort must be a port between 0 and 65535 (0 picks a free"
        + " one), not 'http'", e.getMessage());
  }

  @Test void shouldRefuseTheUiWithoutTheServerModuleAndReleaseTheDataDirectory() throws Exception {
    String dataDir = "dataDir=" + dir.resolve("engine");
    SQLException e = assertThrows(SQLException.class,
        () -> DriverManager.getConnection("jdbc:freshet:" + dataDir + ";uiPort=0"));
    assertEquals("08001", e.getSQLState());
    assertEquals("Cannot serve the web UI of engine dir:" + dir.resolve("engine")
        + ": no web UI on the class path. Add dev.freshet:freshet-server to it", e.getMessage());
    // The engine that could not serve its UI was closed: the directory is free for the next one.
    try (Connection connection = DriverManager.getConnection("jdbc:freshet:" + dataDir)) {
      connection.createStatement().execute(
          "CREATE STREAM s (k VARCHAR) WITH (connector = 'memory')");
    }
  }
}
