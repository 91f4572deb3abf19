package dev.freshet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.engine.query.StatementResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table in the engine's own database survives restarts with its rows, and a view that joins
 * a stream with it resumes from its checkpoint, running the plan it stored (a lookup-join
 * node and all) against the table as it is after the restart.
 */
class TableRestoreTest {
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  @TempDir Path dataDir;
  private final List<Engine> engines = new ArrayList<>();

  @AfterEach void close() {
    engines.forEach(Engine::close);
  }

  private Session open() {
    Engine engine = new Engine("tables", Optional.of(dataDir));
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

  @Test void aTableKeepsItsRowsAndAViewJoiningItResumesAfterARestart() throws Exception {
    Session first = open();
    first.execute("CREATE TABLE products (id BIGINT PRIMARY KEY, category VARCHAR)");
    first.execute("INSERT INTO products VALUES (1, 'books'), (2, 'toys')");
    first.execute("CREATE STREAM orders (id BIGINT, product_id BIGINT)");
    first.execute("CREATE MATERIALIZED VIEW per_category AS SELECT p.category, COUNT(*) AS n"
        + " FROM orders o JOIN products p ON o.product_id = p.id GROUP BY p.category");
    first.execute("INSERT INTO orders VALUES (10, 1), (11, 2)");
    awaitIdle(first, "PER_CATEGORY");
    first.execute("CREATE TABLE gone (id BIGINT)");
    first.execute("DROP TABLE gone");
    first.engine().close();

    Session second = open();
    assertEquals(List.of(List.of(1L, "books"), List.of(2L, "toys")),
        rows(second, "SELECT * FROM products ORDER BY id"));
    assertEquals(List.of(), rows(second, "SELECT * FROM INFORMATION_SCHEMA.TABLES WHERE"
        + " TABLE_NAME = 'GONE'"));
    String plan = Files.readString(dataDir.resolve("checkpoints").resolve("PER_CATEGORY")
        .resolve("plan"));
    assertTrue(plan.contains("\"kind\" : \"lookup-join\"") && plan.contains(
        "\"table\" : \"PRODUCTS\""), plan);
    second.execute("UPDATE products SET category = 'comics' WHERE id = 1");
    second.execute("INSERT INTO orders VALUES (12, 1)");
    awaitIdle(second, "PER_CATEGORY");
    assertEquals(List.of(List.of("books", 1L), List.of("comics", 1L), List.of("toys", 1L)),
        rows(second, "SELECT * FROM per_category ORDER BY category"));
  }

  @Test void aJdbcTableWhoseDatabaseIsGoneAtTheRestartSaysSoAndCanBeDropped() throws Exception {
    String url = "jdbc:h2:mem:" + java.util.UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    try (java.sql.Connection external = java.sql.DriverManager.getConnection(url);
         java.sql.Statement e = external.createStatement()) {
      e.execute("CREATE TABLE regions (code VARCHAR(4), name VARCHAR(40))");
      Session first = open();
      first.execute("CREATE TABLE regions (code VARCHAR(4), name VARCHAR(40)) WITH (connector ="
          + " 'jdbc', 'url' = '" + url + "', 'table-name' = 'regions')");
      first.engine().close();
      e.execute("DROP TABLE regions");
    }
    Session second = open();
    SQLException gone = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
        () -> second.execute("SELECT * FROM regions"));
    assertEquals("42S02", gone.getSQLState());
    assertTrue(gone.getMessage().startsWith("Table REGIONS could not be declared again when the"
        + " engine started: Table REGIONS cannot read its columns from 'regions' at " + url),
        gone.getMessage());
    second.execute("DROP TABLE regions");
    second.engine().close();
    // Forgotten: the next start has nothing to declare again, and the name is free.
    Session third = open();
    assertTrue(third.engine().notRestored().isEmpty(), third.engine().notRestored().toString());
    third.execute("CREATE TABLE regions (code VARCHAR(4))");
  }
}
