package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.freshet.engine.Engine;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The push result's trailing columns, markers and query timeout through the embedded driver. */
class PushTrailingColumnsTest {
  private final String engineName = UUID.randomUUID().toString();
  private Connection connection;

  @BeforeEach void connect() throws Exception {
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + engineName);
    try (Statement s = connection.createStatement()) {
      s.execute("CREATE STREAM clicks (user_id VARCHAR, amount DOUBLE)"
          + " WITH (connector = 'memory')");
    }
  }

  @AfterEach void close() throws Exception {
    connection.close();
  }

  @Test void shouldDescribeAndFillTheTrailingColumns() throws Exception {
    try (Statement query = connection.createStatement();
         Statement insert = connection.createStatement()) {
      query.execute("SET 'push.batch.markers' = 'true'");
      try (ResultSet rs = query.executeQuery("SELECT STREAM user_id, COUNT(*) AS n FROM clicks"
          + " GROUP BY user_id")) {
        ResultSetMetaData meta = rs.getMetaData();
        assertEquals(4, meta.getColumnCount());
        assertEquals(List.of("_BATCH_ID", "_ROW_KIND"),
            List.of(meta.getColumnLabel(3), meta.getColumnLabel(4)));
        assertEquals(List.of(Types.BIGINT, Types.VARCHAR),
            List.of(meta.getColumnType(3), meta.getColumnType(4)));
        insert.executeUpdate("INSERT INTO clicks VALUES ('a', 1)");
        assertEquals(List.of(List.of("a", 1L, 0L, "INSERT"),
            Arrays.asList(null, null, 0L, "BATCH_END")), PushResults.read(rs, 2));
        insert.executeUpdate("INSERT INTO clicks VALUES ('a', 1)");
        assertEquals(List.of(List.of("a", 2L, 1L, "UPDATE"),
            Arrays.asList(null, null, 1L, "BATCH_END")), PushResults.read(rs, 2));
      }
    }
  }

  @Test void shouldEndAPushQueryAtTheStatementsQueryTimeout() throws Exception {
    try (Statement query = connection.createStatement()) {
      query.setQueryTimeout(1);
      try (ResultSet rs = query.executeQuery("SELECT STREAM user_id FROM clicks")) {
        SQLException e = assertTimeoutPreemptively(PushResults.DEADLINE,
            () -> assertThrows(SQLException.class, rs::next));
        assertEquals("HYT00", e.getSQLState());
        assertEquals(true, e.getMessage().endsWith(" ran for its query timeout of 1 s and was"
            + " stopped. Raise Statement.setQueryTimeout, or set it to 0 for no timeout"),
            e.getMessage());
      }
    }
    Engine engine = EngineRegistry.INSTANCE.resolve(Map.of("engine", engineName));
    assertEquals(List.of(), engine.queries(), "the timed-out query is gone");
  }
}
