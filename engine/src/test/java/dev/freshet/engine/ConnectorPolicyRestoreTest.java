package dev.freshet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.engine.security.ConnectorPolicy;
import dev.freshet.engine.security.EngineSecurity;
import dev.freshet.executor.limits.MemoryPool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server's engine checks its connectors again when it restarts: a {@code filesystem} stream
 * whose directory the operator no longer allows is not declared again, statements naming it say
 * why (42501), and nothing of it is lost: allowed again, it comes back with the view over it,
 * which resumes where it was.
 */
class ConnectorPolicyRestoreTest {
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  @TempDir Path dir;
  private Path dataDir;
  private Path root;
  private final List<Engine> engines = new ArrayList<>();

  @BeforeEach void files() throws Exception {
    dataDir = dir.resolve("data");
    root = Files.createDirectories(dir.resolve("root"));
    Files.createDirectories(root.resolve("orders"));
    Files.writeString(root.resolve("orders/1.csv"), "1,tea\n2,cake\n3,tea\n");
  }

  @AfterEach void close() {
    engines.forEach(Engine::close);
  }

  private Session open(List<Path> fileRoots) {
    Engine engine = new Engine("policy", Optional.of(dataDir), MemoryPool.UNLIMITED,
        ViewEngines.DEFAULT, new EngineSecurity(ConnectorPolicy.restricted(fileRoots),
            Optional.empty(), Optional.empty()));
    engines.add(engine);
    return engine.openSession();
  }

  private static List<List<Object>> rows(Session session, String sql) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    for (Object[] row : ((StatementResult.Rows) session.execute(sql)).rows()) {
      rows.add(Arrays.asList(row));
    }
    return rows;
  }

  private static void awaitIdle(Session session, String view) throws InterruptedException {
    ContinuousQuery query = session.engine().query(view).orElseThrow();
    assertTrue(query.processAllAvailable(DEADLINE), view + " did not catch up within " + DEADLINE);
  }

  private Session declare() throws Exception {
    Session session = open(List.of(root));
    session.execute("CREATE STREAM orders (id BIGINT, item VARCHAR) WITH (connector ="
        + " 'filesystem', 'path' = '" + root.resolve("orders") + "', 'format' = 'csv')");
    session.execute("CREATE MATERIALIZED VIEW by_item AS SELECT item, COUNT(*) AS n FROM orders"
        + " GROUP BY item");
    awaitIdle(session, "BY_ITEM");
    assertEquals(List.of(List.of("cake", 1L), List.of("tea", 2L)),
        rows(session, "SELECT * FROM by_item ORDER BY item"));
    session.engine().close();
    return session;
  }

  @Test void shouldLeaveOutAStreamWhoseRootIsNoLongerAllowedAndBringItBackWhenItIs()
      throws Exception {
    declare();

    Session restricted = open(List.of());
    assertEquals(List.of(), rows(restricted, "SHOW STREAMS"));
    SQLException e = assertThrows(SQLException.class,
        () -> restricted.execute("SELECT * FROM orders"));
    assertEquals("42501", e.getSQLState());
    assertEquals("Stream ORDERS could not be declared again when the engine started: Stream"
        + " ORDERS cannot read files: this server lets the filesystem connector read only below"
        + " directories its operator allows, and it allows none. Have the server started with"
        + " --allow-file-root DIR (repeatable) for the directory that holds the files, and give"
        + " a 'path' below it. Fix the cause and restart the engine, or DROP it", e.getMessage());
    assertThrows(SQLException.class, () -> restricted.execute("SELECT * FROM by_item"));

    // Put in while the stream was left out: read when it is back, as any file put in while down.
    Files.writeString(root.resolve("orders/2.csv"), "4,tea\n");
    restricted.engine().close();
    Session allowed = open(List.of(root));
    assertEquals(List.of(List.of("ORDERS")), rows(allowed, "SHOW STREAMS"));
    awaitIdle(allowed, "BY_ITEM");
    // Each file counted once: the view resumed from its checkpoint.
    assertEquals(List.of(List.of("cake", 1L), List.of("tea", 3L)),
        rows(allowed, "SELECT * FROM by_item ORDER BY item"));
  }

  @Test void shouldDropAStreamThatWasNotDeclaredAgain() throws Exception {
    declare();

    Session restricted = open(List.of(dir.resolve("elsewhere")));
    SQLException e = assertThrows(SQLException.class,
        () -> restricted.execute("SELECT * FROM orders"));
    assertEquals("42501", e.getSQLState());
    assertTrue(e.getMessage().contains("is not below a directory this server allows ("
        + dir.resolve("elsewhere") + ")"), e.getMessage());
    restricted.execute("DROP MATERIALIZED VIEW by_item");
    restricted.execute("DROP STREAM orders");
    restricted.engine().close();

    Session allowed = open(List.of(root));
    assertEquals(List.of(), rows(allowed, "SHOW STREAMS"));
    assertEquals(List.of(), rows(allowed, "SHOW VIEWS"));
    assertTrue(Files.exists(root.resolve("orders/1.csv")), "the stream's files are the user's");
  }
}
