package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.Engine;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data directory with a stream, a view over it and three INSERTs, to damage between two
 * engines: see {@link StreamLogDamageTest} and {@link CheckpointDamageTest}.
 */
abstract class DataDirDamage {
  static final String STREAM = "CREATE STREAM IF NOT EXISTS clicks (user_id VARCHAR)"
      + " WITH (connector = 'memory')";
  static final String VIEW = "CREATE MATERIALIZED VIEW IF NOT EXISTS per_user AS"
      + " SELECT user_id, COUNT(*) AS n FROM clicks GROUP BY user_id";

  @TempDir Path dataDir;

  @AfterEach void closeEngine() throws SQLException {
    engine().close();
  }

  Engine engine() throws SQLException {
    return EngineRegistry.INSTANCE.resolve(Map.of(EngineRegistry.DATA_DIR, dataDir.toString()));
  }

  Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
  }

  Path log() {
    return dataDir.resolve("streams").resolve("CLICKS").resolve("segment-00000000000000000001.log");
  }

  Path checkpoint() {
    return dataDir.resolve("checkpoints").resolve("PER_USER");
  }

  /** A stream with three acknowledged INSERTs and a view that has read them; engine closed. */
  void threeInserts() throws Exception {
    try (Connection c = connect(); Statement s = c.createStatement()) {
      s.execute(STREAM);
      s.execute(VIEW);
      for (int i = 0; i < 3; i++) {
        s.execute("INSERT INTO clicks VALUES ('a')");
      }
      awaitCount(s, 3);
    }
    engine().close();
  }

  static void awaitCount(Statement s, long count) throws Exception {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!List.of(List.of("a", count)).equals(rows(s, "SELECT user_id, n FROM per_user"))) {
      assertTrue(System.nanoTime() < deadline, "the view did not reach " + count);
      ViewResults.betweenPolls();
    }
  }

  static List<List<Object>> rows(Statement s, String sql) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    try (ResultSet r = s.executeQuery(sql)) {
      while (r.next()) {
        List<Object> row = new ArrayList<>();
        for (int i = 1; i <= r.getMetaData().getColumnCount(); i++) {
          row.add(r.getObject(i));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  /** The byte positions where the records of rows.log start, and its end. */
  List<Integer> recordStarts() throws Exception {
    ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(log()));
    List<Integer> starts = new ArrayList<>();
    for (int at = 3; at <= bytes.capacity(); at += 12 + bytes.getInt(at)) {
      starts.add(at);
      if (at == bytes.capacity()) {
        break;
      }
    }
    return starts;
  }

  SQLException insertFails() throws SQLException {
    try (Connection c = connect(); Statement s = c.createStatement()) {
      return assertThrows(SQLException.class, () -> s.execute("INSERT INTO clicks VALUES ('a')"));
    }
  }
}
