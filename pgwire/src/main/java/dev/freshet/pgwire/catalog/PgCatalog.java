package dev.freshet.pgwire.catalog;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.Engine;
import dev.freshet.engine.security.Principal;
import dev.freshet.engine.security.Privilege;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.h2.jdbcx.JdbcDataSource;

/**
 * The catalog a PostgreSQL client reads over one connection: PostgreSQL 15's {@code pg_catalog}
 * and {@code information_schema}, answered by a private in-memory H2 database filled from
 * Freshet's one catalog ({@link dev.freshet.engine.EngineMetadata}) as the connection's user sees
 * it. Freshet's streams and tables are tables ({@code relkind 'r'}) and its materialized views
 * materialized views ({@code 'm'}, also in {@code pg_views} and {@code information_schema.views}),
 * all in schema {@code public} of database {@code freshet}; a view with GROUP BY keys has them
 * as its primary key.
 *
 * <pre>{@code
 * try (PgCatalog catalog = PgCatalog.open(engine, principal)) {
 *   if (PgCatalog.answers(sql)) {
 *     try (ResultSet r = catalog.query(sql, List.of())) { ... }
 *   }
 * }
 * }</pre>
 *
 * <p>H2 runs in its regular mode with PostgreSQL's lower-case names, not in its PostgreSQL mode:
 * that mode brings H2's own {@code pg_catalog}, computed from H2's tables with partial column
 * sets, which would show H2's objects and cannot be replaced. {@link PgSqlTranslator} rewrites
 * what H2 does not parse as PostgreSQL does.
 *
 * <p>The rows of Freshet's objects are rebuilt only when the engine's catalog version or what the
 * user may see changed since the last statement; otherwise a statement runs on the rows as they
 * are. Not thread-safe across statements of one connection: its methods are synchronized.
 */
public final class PgCatalog implements AutoCloseable {
  /** The one database, as {@code current_database()} and {@code pg_database} name it. */
  public static final String DATABASE = "freshet";
  /** The role OID of the connection's user. */
  static final int USER_OID = 10;

  private final Engine engine;
  private final Principal principal;
  /**
   * The catalog's private H2 database, created at the first statement (an idle connection
   * costs nothing; an open one about 1.2 MB and 30 ms to create), null until then and after
   * {@link #close()}.
   */
  private Connection h2;
  private CatalogRows rows;
  /** What the rows were built from; null before the first statement. */
  private String loaded;
  private boolean closed;
  /** The connection's settings, shown in pg_settings; none until {@link #settings}. */
  private Supplier<Map<String, String>> settings = Map::of;
  /** The settings as pg_settings has them now, by lower-case name. */
  private final Map<String, String> shownSettings = new HashMap<>();

  private PgCatalog(Engine engine, Principal principal) {
    this.engine = engine;
    this.principal = principal;
  }

  /**
   * The catalog of a connection of {@code principal} to {@code engine}. Cheap: its database is
   * created at the first {@link #query}, and the rows of Freshet's objects are read then.
   */
  public static PgCatalog open(Engine engine, Principal principal) {
    requireNonNull(engine, "engine");
    requireNonNull(principal, "principal");
    return new PgCatalog(engine, principal);
  }

  /**
   * Shows the connection's settings ({@code SET}, the start-up packet's) in {@code pg_settings}
   * and {@code current_setting()}: {@code settings} is read before each statement, each name as
   * PostgreSQL spells it.
   */
  public synchronized void settings(Supplier<Map<String, String>> settings) {
    this.settings = requireNonNull(settings, "settings");
  }

  /** Writes the settings that changed since the last statement into pg_settings. */
  private void showSettings() throws SQLException {
    for (Map.Entry<String, String> e : settings.get().entrySet()) {
      String name = e.getKey().toLowerCase(java.util.Locale.ROOT);
      String value = e.getValue();
      if (value.equals(shownSettings.get(name))) {
        continue;
      }
      try (PreparedStatement update = h2.prepareStatement("UPDATE pg_catalog.pg_settings SET"
          + " setting = ?, source = 'session' WHERE name = ?")) {
        update.setString(1, value);
        update.setString(2, name);
        if (update.executeUpdate() == 0) {
          try (PreparedStatement insert = h2.prepareStatement("INSERT INTO"
              + " pg_catalog.pg_settings (name, setting, category, short_desc, context, vartype,"
              + " source, boot_val, reset_val, pending_restart) VALUES (?, ?, 'Customized"
              + " Options', ?, 'user', 'string', 'session', ?, ?, FALSE)")) {
            insert.setString(1, name);
            insert.setString(2, value);
            insert.setString(3, name);
            insert.setString(4, value);
            insert.setString(5, value);
            insert.executeUpdate();
          }
        }
      }
      shownSettings.put(name, value);
    }
  }

  /** Creates the catalog's database: its tables, functions and fixed rows. */
  private void start() throws SQLException {
    JdbcDataSource source = new JdbcDataSource();
    // The database goes with its one connection (no DB_CLOSE_DELAY).
    source.setURL("jdbc:h2:mem:pgcatalog-" + UUID.randomUUID()
        + ";DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;BUILTIN_ALIAS_OVERRIDE=TRUE");
    Connection connection = source.getConnection();
    try {
      create(connection);
      CatalogRows catalogRows = new CatalogRows(engine, principal, connection);
      catalogRows.fixedRows();
      h2 = connection;
      rows = catalogRows;
    } catch (SQLException | RuntimeException e) {
      connection.close();
      throw e;
    }
  }

  private static void create(Connection h2) throws SQLException {
    try (Statement s = h2.createStatement()) {
      s.execute("CREATE SCHEMA pg_catalog");
      for (Map.Entry<String, String> alias : PgFunctions.ALIASES.entrySet()) {
        s.execute("CREATE ALIAS pg_catalog." + alias.getKey() + " FOR \""
            + PgFunctions.class.getName() + "." + alias.getValue() + "\"");
      }
      for (String statement : script().split(";\n")) {
        String sql = statement.lines().filter(l -> !l.startsWith("--"))
            .reduce("", (a, b) -> a + b + "\n").strip();
        if (!sql.isEmpty() && !sql.equals("CREATE SCHEMA pg_catalog")) {
          s.execute(sql);
        }
      }
      // Unqualified names (pg_class, format_type(...)) resolve in pg_catalog, as in PostgreSQL.
      s.execute("SET SCHEMA_SEARCH_PATH public, pg_catalog");
    }
  }

  /** The script that creates the catalog's tables (pg_catalog.sql). */
  static String script() {
    try (InputStream in = PgCatalog.class.getResourceAsStream("pg_catalog.sql")) {
      return new String(requireNonNull(in, "pg_catalog.sql").readAllBytes(),
          StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read pg_catalog.sql", e);
    }
  }

  /**
   * Whether {@code sql} is a catalog statement this class answers: a query that reads
   * {@code pg_catalog} or {@code information_schema} (or a {@code pg_*} catalog table
   * unqualified) or calls a catalog function ({@code version()}, {@code current_schema()},
   * {@code format_type}, ...). Cheap (a scan of the text's tokens) and conservative: Freshet's
   * own statements, {@code SELECT STREAM} and queries of streams and views, answer false.
   */
  public static boolean answers(String sql) {
    return CatalogStatements.answers(sql);
  }

  /**
   * Runs catalog statement {@code sql} (one statement: a simple Query message's statements are
   * the caller's to split; a trailing {@code ;} is fine) with {@code parameters} for its
   * {@code $1, $2, ...} (strings as sent in text format, or values), and returns its rows, with
   * PostgreSQL's column names ({@code version}, {@code ?column?}); the caller closes the result
   * set. Array columns ({@code relacl}, {@code indkey}) read as {@link java.sql.Array}s.
   *
   * @throws SQLException with a PostgreSQL SQLSTATE: 42P01 for an unknown relation, 42703 an
   *     unknown column, 42883 an unknown function, 42601 a syntax error, 42704 an unknown setting
   */
  public synchronized ResultSet query(String sql, List<Object> parameters) throws SQLException {
    requireNonNull(sql, "sql");
    requireNonNull(parameters, "parameters");
    if (closed) {
      throw new SQLException("the catalog of this connection is closed", "08003");
    }
    if (h2 == null) {
      start();
    }
    refresh();
    showSettings();
    String translated = PgSqlTranslator.translate(stripSemicolon(sql));
    PreparedStatement statement;
    try {
      statement = h2.prepareStatement(translated);
    } catch (SQLException e) {
      throw CatalogErrors.of(e, sql);
    }
    try {
      for (int i = 0; i < parameters.size(); i++) {
        statement.setObject(i + 1, parameters.get(i));
      }
      ResultSet result = statement.executeQuery();
      statement.closeOnCompletion();
      return result;
    } catch (SQLException e) {
      statement.close();
      throw CatalogErrors.of(e, sql);
    }
  }

  private static String stripSemicolon(String sql) {
    String s = sql.strip();
    while (s.endsWith(";")) {
      s = s.substring(0, s.length() - 1).strip();
    }
    return s;
  }

  /** Rebuilds the rows of Freshet's objects if the catalog or the user's privileges changed. */
  private void refresh() throws SQLException {
    String key = snapshotKey();
    if (!key.equals(loaded)) {
      rows.load();
      loaded = key;
    }
  }

  /**
   * The catalog's version and the user's privileges on each object: the catalog version counts
   * creates and drops; grants and revokes change what the user sees without changing it.
   */
  private String snapshotKey() {
    StringBuilder key = new StringBuilder()
        .append(engine.planner().catalog().version()).append(':');
    for (String name : engine.objectNames()) {
      key.append(name);
      for (Privilege privilege : Privilege.values()) {
        key.append(engine.access().has(principal, name, privilege) ? '+' : '-');
      }
      key.append(',');
    }
    return key.toString();
  }

  /** Closes the catalog's database, if it was created; idempotent. */
  @Override public synchronized void close() throws SQLException {
    closed = true;
    if (h2 != null) {
      h2.close();
      h2 = null;
    }
  }
}
