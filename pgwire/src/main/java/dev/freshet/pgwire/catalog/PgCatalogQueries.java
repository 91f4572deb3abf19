package dev.freshet.pgwire.catalog;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.Engine;
import dev.freshet.engine.Session;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.pgwire.protocol.CatalogQueries;
import dev.freshet.pgwire.settings.PgSettings;
import java.sql.SQLException;
import java.util.List;

/**
 * The PostgreSQL endpoint's catalog: each connection gets its own {@link PgCatalog}, opened for
 * the connection's user when it is authenticated and closed when it ends; its
 * {@code pg_catalog} and {@code information_schema} queries are answered there, with
 * PostgreSQL's types ({@link CatalogResults}) and the connection's settings in
 * {@code pg_settings} and {@code current_setting()}. The endpoint's default
 * ({@code PgServer.builder(engine)}).
 *
 * <pre>{@code
 * PgServer.builder(engine).catalog(new PgCatalogQueries(engine)).port(5432).start();
 * }</pre>
 */
public final class PgCatalogQueries implements CatalogQueries {
  private final Engine engine;

  /** The catalog of the endpoint over {@code engine}. */
  public PgCatalogQueries(Engine engine) {
    this.engine = requireNonNull(engine, "engine");
  }

  @Override public CatalogQueries open(Session session, PgSettings settings) {
    PgCatalog catalog = PgCatalog.open(engine, session.principal());
    catalog.settings(settings::all);
    return new Connection(catalog);
  }

  @Override public boolean answers(String sql) {
    return PgCatalog.answers(sql);
  }

  /** Without a connection (a client of the endpoint always has one): a catalog of its own. */
  @Override public StatementResult execute(String sql, Session session) throws SQLException {
    try (PgCatalog catalog = PgCatalog.open(engine, session.principal())) {
      return CatalogResults.rows(catalog.query(sql, List.of()));
    }
  }

  /** One connection's catalog. */
  private static final class Connection implements CatalogQueries {
    private final PgCatalog catalog;

    Connection(PgCatalog catalog) {
      this.catalog = catalog;
    }

    @Override public boolean answers(String sql) {
      return PgCatalog.answers(sql);
    }

    @Override public StatementResult execute(String sql, Session session) throws SQLException {
      return CatalogResults.rows(catalog.query(sql, List.of()));
    }

    @Override public void close() {
      try {
        catalog.close();
      } catch (SQLException e) {
        // An in-memory database that fails to close holds nothing a later connection needs.
      }
    }
  }
}
