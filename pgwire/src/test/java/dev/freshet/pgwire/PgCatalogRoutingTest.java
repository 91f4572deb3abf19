package dev.freshet.pgwire;

import static dev.freshet.pgwire.PgTesting.connect;
import static dev.freshet.pgwire.PgTesting.row;
import static dev.freshet.pgwire.PgTesting.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.engine.Engine;
import dev.freshet.engine.Session;
import dev.freshet.engine.query.ResultColumn;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.pgwire.protocol.CatalogQueries;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The routing point of the catalog: a statement {@link CatalogQueries} answers goes there, by
 * both protocols, with extended-protocol parameters written in as literals and PostgreSQL type
 * names ({@code oid}, {@code name}) described with their OIDs; every other statement goes to
 * the Freshet session.
 */
class PgCatalogRoutingTest {
  private final List<String> asked = java.util.Collections.synchronizedList(new ArrayList<>());
  private Engine engine;
  private PgServer server;

  /** Answers queries of {@code pg_class} with the statement's text, as a stand-in catalog. */
  private final CatalogQueries catalog = new CatalogQueries() {
    @Override public boolean answers(String sql) {
      return sql.contains("pg_class");
    }

    @Override public StatementResult execute(String sql, Session session) {
      asked.add(sql);
      return new StatementResult.Rows(List.of(
          new ResultColumn("oid", java.sql.Types.INTEGER, "oid", -1, -1, false, 10,
              Long.class),
          new ResultColumn("relname", java.sql.Types.VARCHAR, "name", -1, -1, false, 64,
              String.class)),
          List.<Object[]>of(new Object[] {16384L, "clicks"}));
    }
  };

  @BeforeEach void start() {
    engine = new Engine("pgwire-catalog-routing-test");
    server = PgServer.builder(engine).port(0).catalog(catalog).start();
  }

  @AfterEach void stop() {
    server.close();
    engine.close();
  }

  @Test void shouldRouteCatalogQueriesByBothProtocols() throws Exception {
    try (Connection c = connect(server); Statement s = c.createStatement()) {
      assertEquals(List.of(row(16384L, "clicks")),
          rows(s, "SELECT oid, relname FROM pg_catalog.pg_class"));
      try (PreparedStatement p = c.prepareStatement(
          "SELECT oid, relname FROM pg_class WHERE relname = ? AND relnamespace = ?")) {
        p.setString(1, "it's");
        p.setInt(2, 2200);
        try (ResultSet rs = p.executeQuery()) {
          assertEquals("oid", rs.getMetaData().getColumnTypeName(1));
          assertEquals("name", rs.getMetaData().getColumnTypeName(2));
          assertEquals(List.of(row(16384L, "clicks")), PgTesting.rows(rs));
        }
      }
      // Anything else is the session's.
      assertEquals(List.of(row(1)), rows(s, "SELECT 1"));
    }
    assertEquals("SELECT oid, relname FROM pg_catalog.pg_class", asked.get(0));
    assertEquals("SELECT oid, relname FROM pg_class WHERE relname = 'it''s'"
        + " AND relnamespace = 2200", asked.get(asked.size() - 1));
  }
}
