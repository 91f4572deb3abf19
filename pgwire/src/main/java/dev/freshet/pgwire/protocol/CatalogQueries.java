package dev.freshet.pgwire.protocol;

import dev.freshet.engine.Session;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.pgwire.settings.PgSettings;
import java.sql.SQLException;

/**
 * The routing point for the catalog queries PostgreSQL's clients send ({@code pg_catalog},
 * {@code information_schema}, {@code version()}, {@code current_schema()}, ...): every statement
 * of the simple and the extended protocol is offered to {@link #answers} before it goes to the
 * Freshet session, and one it answers is executed here instead.
 *
 * <pre>{@code
 * PgServer.builder(engine).catalog(new PgCatalogQueries(engine)).start();   // the default
 * }</pre>
 *
 * <p>The endpoint holds one instance and asks it to {@link #open} the catalog of each
 * connection once it is authenticated; that one answers the connection's statements and is
 * {@link #close closed} with it.
 *
 * <p>A result's column whose {@link dev.freshet.engine.query.ResultColumn#typeName} is no
 * Freshet type but a PostgreSQL type name ({@code oid}, {@code name}, {@code _text},
 * {@code regclass}, ...) is described with that type's OID and written by its value's
 * {@code toString()}.
 */
public interface CatalogQueries {
  /** Answers nothing: every statement goes to the Freshet session. */
  CatalogQueries NONE = new CatalogQueries() {
    @Override public boolean answers(String sql) {
      return false;
    }

    @Override public StatementResult execute(String sql, Session session) {
      throw new IllegalStateException("answers nothing");
    }
  };

  /**
   * The catalog of one connection of {@code session}'s user, whose PostgreSQL settings are
   * {@code settings} ({@code current_setting()} and {@code pg_settings} show them). This one by
   * default: a catalog without per-connection state.
   */
  default CatalogQueries open(Session session, PgSettings settings) {
    return this;
  }

  /** Releases what {@link #open} took; called once when the connection ends. */
  default void close() {
  }

  /**
   * Whether this catalog answers statement {@code sql}: one statement as the client wrote it,
   * with its {@code $n} parameters when it comes by Parse (extended protocol); called for every
   * statement, so it must be cheap.
   */
  boolean answers(String sql);

  /**
   * Executes statement {@code sql}, which {@link #answers} accepted, for the user of
   * {@code session}; a query returns {@link StatementResult.Rows}. Parameters of the extended
   * protocol are written in as literals ({@code 'text'} with quotes doubled, numbers as they
   * are, {@code NULL}); to describe a prepared statement's columns before it is bound, it is
   * executed with {@code NULL} for every parameter.
   *
   * @throws SQLException with a SQLSTATE, sent to the client as an ErrorResponse
   */
  StatementResult execute(String sql, Session session) throws SQLException;
}
