package dev.freshet.server;

import static dev.freshet.server.RemoteTesting.awaitView;
import static dev.freshet.server.RemoteTesting.readAll;
import static dev.freshet.server.RemoteTesting.uniqueName;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Statement parameters ({@code ?}) through the server, with Freshet's remote driver and
 * Avatica's stock driver (protobuf, the server's serialization): the values travel as Avatica's typed values and
 * the server binds them, as the embedded driver does.
 */
class RemoteStatementParametersTest {
  private static FreshetServer server;

  @BeforeAll static void startServer() {
    server = FreshetServer.builder().port(0).start();
  }

  @AfterAll static void stopServer() {
    server.close();
  }

  private static String url(String driver) {
    switch (driver) {
    case "freshet":
      return "jdbc:freshet:remote:url=" + server.url();
    default:
      return "jdbc:avatica:remote:url=" + server.url() + ";serialization=PROTOBUF";
    }
  }

  private static List<Object> row(Object... values) {
    return java.util.Arrays.asList(values);
  }

  @ParameterizedTest @ValueSource(strings = {"stock", "freshet"})
  void shouldBindParametersOnTheServer(String driver) throws Exception {
    String clicks = uniqueName("clicks");
    String perUser = uniqueName("per_user");
    Timestamp ts = Timestamp.valueOf("2024-05-01 12:34:56.789");
    try (Connection c = DriverManager.getConnection(url(driver));
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM " + clicks + " (user_id VARCHAR(20) NOT NULL, page VARCHAR,"
          + " amount DECIMAL(10, 2), ts TIMESTAMP(3))");
      s.execute("CREATE MATERIALIZED VIEW " + perUser + " AS SELECT user_id, COUNT(*) AS n"
          + " FROM " + clicks + " GROUP BY user_id");

      // Described at prepare, with the columns' types.
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + clicks
          + " VALUES (?, ?, ?, ?)")) {
        ParameterMetaData md = ps.getParameterMetaData();
        assertEquals(4, md.getParameterCount());
        assertEquals(List.of(Types.VARCHAR, Types.VARCHAR, Types.DECIMAL, Types.TIMESTAMP),
            List.of(md.getParameterType(1), md.getParameterType(2), md.getParameterType(3),
                md.getParameterType(4)));

        // NULL, a timestamp, a decimal and a Unicode string.
        ps.setString(1, "日本語 😀 'q'");
        ps.setNull(2, Types.VARCHAR);
        ps.setBigDecimal(3, new BigDecimal("12345678.91"));
        ps.setTimestamp(4, ts);
        assertEquals(1, ps.executeUpdate());

        // A missing value is refused, and nothing is inserted.
        ps.clearParameters();
        ps.setString(1, "nobody");
        SQLException e = assertThrows(SQLException.class, ps::executeUpdate);
        assertEquals("07001", e.getSQLState(), e.toString());
      }

      // A batch of three parameter sets: three rows, one offset each.
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + clicks
          + " (user_id, page) VALUES (?, ?)")) {
        for (String[] set : new String[][] {{"ann", "/a"}, {"bob", "/b"}, {"bob", "/d"}}) {
          ps.setString(1, set[0]);
          ps.setString(2, set[1]);
          ps.addBatch();
        }
        assertArrayEquals(new int[] {1, 1, 1}, ps.executeBatch());
      }
      awaitView(server, perUser);
      long endOffset = 0;
      try (PreparedStatement ps = c.prepareStatement(
          "SELECT json FROM sys.query_progress WHERE name = ?")) {
        ps.setString(1, perUser.toUpperCase(java.util.Locale.ROOT));
        for (List<Object> progress : readAll(ps.executeQuery())) {
          JsonNode json = new ObjectMapper().readTree((String) progress.get(0));
          endOffset = Math.max(endOffset, json.at("/sources/0/endOffset").asLong());
        }
      }
      assertEquals(4, endOffset);

      // Pull queries over a stream and over a view.
      try (PreparedStatement ps = c.prepareStatement("SELECT user_id, page, amount, ts FROM "
          + clicks + " WHERE amount = ?")) {
        ps.setBigDecimal(1, new BigDecimal("12345678.91"));
        assertEquals(List.of(row("日本語 😀 'q'", null, new BigDecimal("12345678.91"), ts)),
            readAll(ps.executeQuery()));
      }
      try (PreparedStatement ps = c.prepareStatement("SELECT user_id, n FROM " + perUser
          + " WHERE user_id = ?")) {
        ps.setString(1, "bob");
        assertEquals(List.of(row("bob", 2L)), readAll(ps.executeQuery()));
      }

      // A push query bound at execute gets only the matching rows, from the stream's start
      // (the stock client, PROGRESS rows too).
      try (PreparedStatement ps = c.prepareStatement("SELECT STREAM user_id, page FROM "
          + clicks + " WHERE user_id = ?")) {
        ps.setString(1, "bob");
        try (ResultSet rs = ps.executeQuery()) {
          List<List<Object>> rows = RemoteTesting.readSkippingProgress(rs, 2);
          assertEquals(List.of(row("bob", "/b"), row("bob", "/d")),
              List.of(rows.get(0).subList(0, 2), rows.get(1).subList(0, 2)));
        }
      }
    }
  }
}
