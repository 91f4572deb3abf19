package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.Engine;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which connections share an engine, and what one INSERT statement means to a query. */
class EngineSharingTest {
  @TempDir Path dataDir;

  @Test void shouldShareOneEngineBetweenConnectionsToTheSameDataDirectory() throws Exception {
    try (Connection a = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
         Connection b = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir + "/.");
         Connection other = DriverManager.getConnection(
             "jdbc:freshet:dataDir=" + dataDir.resolve("other"))) {
      a.createStatement().execute("CREATE STREAM shared (k VARCHAR) WITH (connector = 'memory')");
      try (ResultSet rs = b.createStatement().executeQuery("SHOW STREAMS")) {
        assertTrue(rs.next());
        assertEquals("SHARED", rs.getString(1));
      }
      SQLException e = assertThrows(SQLException.class,
          () -> other.createStatement().executeQuery("SELECT * FROM shared"));
      assertEquals("42S02", e.getSQLState());
    }
  }

  @Test void shouldKeepTheRowsOfAStreamInTheDataDirectory() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir)) {
      c.createStatement().execute("CREATE STREAM kept (k VARCHAR) WITH (connector = 'memory')");
      c.createStatement().executeUpdate("INSERT INTO kept VALUES ('a'), ('b')");
      Path stream = dataDir.resolve("streams").resolve("KEPT");
      assertEquals("v1\nstream\tKEPT\ncolumn\tK\tVARCHAR\n",
          Files.readString(stream.resolve("metadata")));
      assertTrue(Files.size(stream.resolve("segment-00000000000000000001.log")) > 3, "one record after the header");
      // The engine of the directory holds it: no second engine may append to its logs.
      UncheckedIOException e = assertThrows(UncheckedIOException.class,
          () -> new Engine("second", Optional.of(dataDir)));
      assertTrue(e.getMessage().startsWith("Data directory " + dataDir + " is in use"),
          e.getMessage());
    }
  }

  @Test void shouldRefuseAConnectionToADataDirectoryThatAnotherEngineUses() throws Exception {
    Path elsewhere = dataDir.resolve("elsewhere");
    try (Engine engine = new Engine("elsewhere", Optional.of(elsewhere))) {
      SQLException e = assertThrows(SQLException.class,
          () -> DriverManager.getConnection("jdbc:freshet:dataDir=" + elsewhere));
      assertEquals("08001", e.getSQLState());
      assertEquals("Data directory " + elsewhere + " is in use by another Freshet engine, which"
          + " holds " + elsewhere.resolve("lock") + ". Stop that engine, or use another data"
          + " directory", e.getMessage());
    }
  }

  @Test void shouldDeliverTheRowsOfOneInsertInOneBatch() throws Exception {
    String url = "jdbc:freshet:engine=" + UUID.randomUUID();
    int statements = 20;
    int rowsPerStatement = 250;
    StringBuilder values = new StringBuilder();
    for (int i = 0; i < rowsPerStatement; i++) {
      values.append(i == 0 ? "" : ", ").append("('a')");
    }
    ExecutorService writer = Executors.newSingleThreadExecutor();
    try (Connection a = DriverManager.getConnection(url);
         Connection b = DriverManager.getConnection(url)) {
      a.createStatement().execute("CREATE STREAM s (k VARCHAR) WITH (connector = 'memory')");
      try (Statement query = b.createStatement();
           ResultSet rs = query.executeQuery("SELECT STREAM k, COUNT(*) FROM s GROUP BY k")) {
        Future<?> inserts = writer.submit(() -> {
          try (Statement insert = a.createStatement()) {
            for (int i = 0; i < statements; i++) {
              insert.executeUpdate("INSERT INTO s VALUES " + values);
            }
          }
          return null;
        });
        // A batch may take several statements if the writer is ahead, but never part of one.
        long count = 0;
        while (count < (long) statements * rowsPerStatement) {
          List<Object> row = PushResults.readData(rs, 1).get(0);
          count = (Long) row.get(1);
          assertEquals(0, count % rowsPerStatement, "a batch split a statement: " + row);
        }
        inserts.get();
      }
    } finally {
      writer.shutdownNow();
    }
  }
}
