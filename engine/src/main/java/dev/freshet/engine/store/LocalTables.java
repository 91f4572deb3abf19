package dev.freshet.engine.store;

import static java.util.Objects.requireNonNull;

import dev.freshet.connectors.jdbc.JdbcColumn;
import dev.freshet.engine.table.TableColumn;
import dev.freshet.executor.source.ReferenceData;
import dev.freshet.executor.source.ReferenceDataException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The engine's own reference tables, each an H2 table in schema {@code FRESHET_TABLES} of the
 * engine's {@link ResultDatabase}: durable with a data directory, changed by the INSERT, UPDATE
 * and DELETE statements sent to the engine.
 *
 * <pre>{@code
 * LocalTables tables = new LocalTables(db);
 * LocalTables.Table products = tables.create("PRODUCTS", columns, List.of("ID"));
 * products.execute("DELETE FROM FRESHET_TABLES.\"PRODUCTS\" WHERE \"ID\" = 1");
 * products.version();   // one more than before: joins read the table again
 * }</pre>
 *
 * <p>The tables are created and dropped by H2's administrator, and changed by the database's
 * DML account ({@link ResultDatabase#connectForDml}), which this class grants its rights on
 * each table it creates.
 */
public final class LocalTables {
  /** The H2 schema of the tables, apart from the catalog and the views' results. */
  public static final String SCHEMA = "FRESHET_TABLES";

  private final ResultDatabase db;

  public LocalTables(ResultDatabase db) {
    this.db = requireNonNull(db, "db");
  }

  /**
   * Creates the H2 table of {@code name}, unless an earlier run of the engine left it (then its
   * rows are the table's).
   */
  public Table create(String name, List<TableColumn> columns, List<String> primaryKey)
      throws SQLException {
    StringJoiner ddl = new StringJoiner(", ", "CREATE TABLE IF NOT EXISTS " + qualified(name)
        + " (", ")");
    for (TableColumn column : columns) {
      ddl.add(column.h2Declaration());
    }
    if (!primaryKey.isEmpty()) {
      StringJoiner key = new StringJoiner(", ", "PRIMARY KEY (", ")");
      primaryKey.forEach(k -> key.add(TableColumn.quoted(k)));
      ddl.add(key.toString());
    }
    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA IF NOT EXISTS " + SCHEMA);
      s.execute(ddl.toString());
      // Also for a table an earlier run left: granting twice is granting once.
      db.grantDml(s, qualified(name));
      db.persist(c);
    }
    return new Table(name, columns);
  }

  /** Drops the H2 table of {@code name} and its rows. */
  public void drop(String name) throws SQLException {
    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      // An engine that never had a table of its own has no schema either.
      s.execute("CREATE SCHEMA IF NOT EXISTS " + SCHEMA);
      s.execute("DROP TABLE IF EXISTS " + qualified(name));
      db.persist(c);
    }
  }

  private static String qualified(String name) {
    return SCHEMA + "." + TableColumn.quoted(name);
  }

  /** One table: its rows for joins and queries, and the statements that change them. */
  public final class Table implements ReferenceData {
    private final String name;
    /** How {@link #scan} reads each column. */
    private final List<JdbcColumn> columns;
    private final String select;
    /** Bumped by every change; see {@link #version()}. */
    private final AtomicLong version = new AtomicLong();

    private Table(String name, List<TableColumn> columns) {
      this.name = name;
      this.columns = List.copyOf(TableColumn.jdbc(columns));
      StringJoiner select = new StringJoiner(", ", "SELECT ", " FROM " + qualified(name));
      columns.forEach(c -> select.add(TableColumn.quoted(c.name())));
      this.select = select.toString();
    }

    @Override public String description() {
      return "table " + name;
    }

    /** The table's H2 name, schema first: what a statement run by {@link #execute} names. */
    public List<String> h2Name() {
      return List.of(SCHEMA, name);
    }

    @Override public long version() {
      return version.get();
    }

    /**
     * The H2 URL of the engine's database, which reaches this table from this JVM only (user
     * {@value ResultDatabase#USER}, empty password), e.g. for Spark's executors in local mode.
     */
    public String jdbcUrl() {
      return db.url();
    }

    /** The SELECT of the table's columns in declaration order that {@link #scan} runs. */
    public String query() {
      return select;
    }

    @Override public void scan(Consumer<Object[]> rows) {
      try (Connection c = db.connect(); Statement s = c.createStatement();
           ResultSet r = s.executeQuery(select)) {
        while (r.next()) {
          rows.accept(JdbcColumn.read(r, columns));
        }
      } catch (SQLException e) {
        throw new ReferenceDataException("Cannot read table " + name + ": " + e.getMessage(), e);
      }
    }

    /**
     * Runs {@code dml}, an INSERT, UPDATE or DELETE in H2's SQL, and returns how many rows it
     * changed; durable when it returns. It runs as the database's DML account, which reads and
     * changes the engine's own tables and nothing else: H2 refuses it every file, function
     * definition and other table ({@code 90040}, {@code 90096}). Unqualified names resolve in
     * the tables' schema.
     */
    public int execute(String dml) throws SQLException {
      int count;
      try (Connection c = db.connectForDml(); Statement s = c.createStatement()) {
        s.execute("SET SCHEMA " + SCHEMA);
        try {
          count = s.executeUpdate(dml);
        } finally {
          // Even a failed statement may have changed rows before failing (H2 runs it whole or
          // not at all, but a reader must never keep rows older than a change).
          version.incrementAndGet();
        }
      }
      // Committed (auto-commit); only the administrator may force it to disk.
      db.persist();
      return count;
    }
  }
}
