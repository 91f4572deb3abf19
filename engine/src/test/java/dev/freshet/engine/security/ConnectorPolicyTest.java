package dev.freshet.engine.security;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** An embedded engine's policy lets everything through; a server's delegates to its rules. */
class ConnectorPolicyTest {
  private static final ConnectorPolicy EMBEDDED = ConnectorPolicy.unrestricted();
  private static final ConnectorPolicy SERVER = ConnectorPolicy.restricted(List.of());

  @Test void shouldLetAnEmbeddedEngineReachWhatItsProcessMay() throws SQLException {
    assertEquals(Path.of("/etc/../etc"), EMBEDDED.fileDirectory("Stream S",
        Path.of("/etc/../etc")));
    assertDoesNotThrow(() -> EMBEDDED.checkJdbcUrl("Table T",
        "jdbc:h2:mem:x;INIT=RUNSCRIPT FROM '/tmp/x.sql'"));
    assertDoesNotThrow(() -> EMBEDDED.checkKafkaProperties("Stream S",
        Map.of("interceptor.classes", "x.Y")));
    assertEquals(Optional.empty(), EMBEDDED.jdbcPassword(Optional.empty()));
  }

  @Test void shouldRefuseOnAServer() {
    assertEquals("42501", assertThrows(SQLException.class,
        () -> SERVER.fileDirectory("Stream S", Path.of("/etc"))).getSQLState());
    assertEquals("42501", assertThrows(SQLException.class,
        () -> SERVER.checkJdbcUrl("Table T", "jdbc:h2:mem:x")).getSQLState());
    assertEquals("42501", assertThrows(SQLException.class,
        () -> SERVER.checkKafkaProperties("Stream S", Map.of("interceptor.classes", "x.Y")))
        .getSQLState());
  }

  /** Without a password, pgjdbc would look one up in the server's own ~/.pgpass. */
  @Test void shouldConnectWithAnEmptyPasswordOnAServerWhenNoneIsGiven() {
    assertEquals(Optional.of(""), SERVER.jdbcPassword(Optional.empty()));
    assertEquals(Optional.of("s"), SERVER.jdbcPassword(Optional.of("s")));
  }

  @Test void shouldKeepTheRootsAbsoluteAndNormalized() {
    assertEquals(List.of(Path.of("/srv/data")),
        ConnectorPolicy.restricted(List.of(Path.of("/srv/x/../data/"))).fileRoots());
  }
}
