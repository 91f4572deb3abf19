package dev.freshet.pgwire.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.freshet.engine.Engine;
import dev.freshet.engine.Session;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.pgwire.PgServer;
import dev.freshet.pgwire.catalog.PgCatalogQueries;
import dev.freshet.pgwire.protocol.CatalogQueries;
import dev.freshet.pgwire.settings.PgSettings;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Each connection gets its own catalog ({@link CatalogQueries#open}), which the endpoint closes
 * when the connection ends, however it ends: a catalog's in-memory database must not outlive
 * its connection on a server that runs for months.
 */
class CatalogPerConnectionTest {
  @Test void shouldOpenACatalogPerConnectionAndCloseItWithTheConnection() throws Exception {
    AtomicInteger opened = new AtomicInteger();
    AtomicInteger closed = new AtomicInteger();
    try (Engine engine = new Engine("pgwire-catalog-per-connection-" + System.nanoTime())) {
      CatalogQueries real = new PgCatalogQueries(engine);
      CatalogQueries counting = new CatalogQueries() {
        @Override public CatalogQueries open(Session session, PgSettings settings) {
          opened.incrementAndGet();
          CatalogQueries connection = real.open(session, settings);
          return new CatalogQueries() {
            @Override public boolean answers(String sql) {
              return connection.answers(sql);
            }

            @Override public StatementResult execute(String sql, Session s) throws SQLException {
              return connection.execute(sql, s);
            }

            @Override public void close() {
              connection.close();
              closed.incrementAndGet();
            }
          };
        }

        @Override public boolean answers(String sql) {
          return real.answers(sql);
        }

        @Override public StatementResult execute(String sql, Session session)
            throws SQLException {
          return real.execute(sql, session);
        }
      };
      try (PgServer server = PgServer.builder(engine).port(0).catalog(counting).start()) {
        String url = "jdbc:postgresql://127.0.0.1:" + server.port() + "/freshet";
        for (int i = 0; i < 5; i++) {
          try (Connection c = DriverManager.getConnection(url, "freshet", "unused");
               Statement s = c.createStatement();
               ResultSet rs = s.executeQuery("SELECT nspname FROM pg_catalog.pg_namespace"
                   + " WHERE nspname = 'public'")) {
            rs.next();
            assertEquals("public", rs.getString(1));
          }
        }
        // A connection dropped without Terminate (a killed client) is closed too.
        Connection dropped = DriverManager.getConnection(url, "freshet", "unused");
        dropped.createStatement().executeQuery("SELECT version()").close();
        dropped.unwrap(org.postgresql.core.BaseConnection.class).getQueryExecutor()
            .abort();
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (closed.get() < 6) {
          if (System.nanoTime() > deadline) {
            fail("after 60 s, " + closed.get() + " of " + opened.get() + " catalogs closed");
          }
          LockSupport.parkNanos(10_000_000L);
        }
        assertEquals(6, opened.get());
        assertEquals(6, closed.get());
      }
    }
  }
}
