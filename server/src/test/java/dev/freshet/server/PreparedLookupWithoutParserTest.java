package dev.freshet.server;

import static dev.freshet.server.RemoteTesting.await;
import static dev.freshet.server.RemoteTesting.readAll;
import static dev.freshet.server.RemoteTesting.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.sql.FreshetSqlParser;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A prepared point lookup of a view (W7's {@code SELECT c, s FROM v WHERE k = ?}) executed again
 * reuses its plan without parsing its text, until a DDL statement changes the catalog.
 */
class PreparedLookupWithoutParserTest {
  private static final int LOOKUPS = 200;
  private static FreshetServer server;

  @BeforeAll static void startServer() {
    server = FreshetServer.builder().port(0).start();
  }

  @AfterAll static void stopServer() {
    server.close();
  }

  private static Connection connect(String where) throws SQLException {
    return DriverManager.getConnection(where.equals("remote")
        ? "jdbc:freshet:remote:url=" + server.url()
        : "jdbc:freshet:engine=" + PreparedLookupWithoutParserTest.class.getSimpleName());
  }

  @ParameterizedTest @ValueSource(strings = {"embedded", "remote"})
  void lookupsBuildNoParserPerExecution(String where) throws Exception {
    try (Connection c = connect(where); Statement s = c.createStatement()) {
      String stream = uniqueName("nums");
      String view = uniqueName("v");
      s.execute("CREATE STREAM " + stream + " (n BIGINT NOT NULL)");
      s.execute("CREATE MATERIALIZED VIEW " + view + " AS SELECT n % 10 AS k, COUNT(*) AS c,"
          + " SUM(n) AS s FROM " + stream + " GROUP BY n % 10");
      s.executeUpdate("INSERT INTO " + stream + " VALUES (1), (2), (12), (3)");
      await("the view's rows", () -> count(s, view) == 3);
      try (PreparedStatement lookup = c.prepareStatement("SELECT c, s FROM " + view
          + " WHERE k = ?")) {
        lookup.setLong(1, 2);
        assertEquals(List.of(List.of(2L, 14L)), readAll(lookup.executeQuery()));
        long before = FreshetSqlParser.parsersBuilt();
        for (int i = 0; i < LOOKUPS; i++) {
          lookup.setLong(1, i % 4);
          List<List<Object>> expected = i % 4 == 0 ? List.of()
              : List.of(List.of(i % 4 == 2 ? 2L : 1L, i % 4 == 2 ? 14L : (long) (i % 4)));
          assertEquals(expected, readAll(lookup.executeQuery()), "k = " + i % 4);
        }
        assertEquals(0, FreshetSqlParser.parsersBuilt() - before,
            "generated parsers built for " + LOOKUPS + " lookups");

        // A DDL statement plans the lookup again, and it still sees the view as it is.
        s.execute("CREATE STREAM " + uniqueName("other") + " (n BIGINT)");
        s.executeUpdate("INSERT INTO " + stream + " VALUES (22)");
        await("the view's new row", () -> {
          try {
            lookup.setLong(1, 2);
            return readAll(lookup.executeQuery()).equals(List.of(List.of(3L, 36L)));
          } catch (SQLException e) {
            throw new AssertionError(e);
          }
        });
      }
    }
  }

  private static long count(Statement s, String view) {
    try {
      return (Long) readAll(s.executeQuery("SELECT COUNT(*) FROM " + view)).get(0).get(0);
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
  }
}
