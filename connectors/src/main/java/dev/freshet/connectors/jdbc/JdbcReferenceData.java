package dev.freshet.connectors.jdbc;

import static java.util.Objects.requireNonNull;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import dev.freshet.common.errors.SqlErrors;
import dev.freshet.common.errors.SqlState;
import dev.freshet.common.security.UrlRedaction;
import dev.freshet.executor.source.ReferenceData;
import dev.freshet.executor.source.ReferenceDataException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The rows of a table in another database, read through a HikariCP pool: an external reference
 * table ({@code CREATE TABLE t (...) WITH (connector = 'jdbc', ...)}). Read-only; every
 * {@link #scan} reads the table again, since the database changes without telling.
 *
 * <pre>{@code
 * JdbcReferenceData customers = JdbcReferenceData.open("CUSTOMERS", url, "customers",
 *     Optional.of("app"), Optional.of(password), columns);
 * customers.scan(row -> ...);   // SELECT ID, NAME FROM customers
 * customers.close();            // DROP TABLE, or the engine closes
 * }</pre>
 */
public final class JdbcReferenceData implements ReferenceData, AutoCloseable {
  /** A column name the database may fold to its own case: written unquoted. */
  private static final Pattern PLAIN = Pattern.compile("[A-Z][A-Z0-9_]*");

  private final String name;
  /** The database's URL as messages show it: without a password. */
  private final String url;
  private final String query;
  private final List<JdbcColumn> columns;
  private final HikariDataSource pool;

  private JdbcReferenceData(String name, String url, String query, List<JdbcColumn> columns,
      HikariDataSource pool) {
    this.name = name;
    this.url = url;
    this.query = query;
    this.columns = List.copyOf(columns);
    this.pool = pool;
  }

  /**
   * Opens the pool of table {@code name} and checks that the database answers a query of the
   * table's columns.
   *
   * @param table the table in the database ({@code 'table-name'}), as SQL names it there
   * @throws SQLException 08001 if the database cannot be reached or refuses the credentials;
   *     42S02 if it has no such table or columns
   */
  public static JdbcReferenceData open(String name, String url, String table,
      Optional<String> username, Optional<String> password, List<JdbcColumn> columns)
      throws SQLException {
    requireNonNull(table, "table");
    StringJoiner select = new StringJoiner(", ", "SELECT ", " FROM " + table);
    for (JdbcColumn column : columns) {
      select.add(PLAIN.matcher(column.name()).matches() ? column.name()
          : JdbcColumn.quoted(column.name()));
    }
    // Messages show the URL without a password it may hold.
    String shown = UrlRedaction.url(url);
    HikariConfig config = new HikariConfig();
    // Not setJdbcUrl: HikariCP would log the URL, a password in it too.
    config.setDataSource(new UrlDataSource(url, username, password));
    config.setReadOnly(true);
    config.setMaximumPoolSize(2);
    config.setMinimumIdle(0);
    config.setPoolName("freshet-table-" + name);
    // Fail now, at CREATE TABLE, with the database's reason: not at the first batch.
    config.setInitializationFailTimeout(1);
    config.setConnectionTimeout(10_000);
    HikariDataSource pool;
    try {
      pool = new HikariDataSource(config);
    } catch (HikariPool.PoolInitializationException | IllegalArgumentException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw SqlErrors.of(SqlState.UNABLE_TO_CONNECT, "Table " + name + " cannot connect to "
          + shown + ": " + cause.getMessage() + ". Check 'url', 'username' and 'password',"
          + " and that the database is up", e);
    } catch (RuntimeException e) {
      throw SqlErrors.of(SqlState.UNABLE_TO_CONNECT, "Table " + name + " cannot connect to "
          + shown + ": " + e.getMessage() + ". Check 'url', 'username' and 'password',"
          + " and that the database is up", e);
    }
    JdbcReferenceData data = new JdbcReferenceData(name, shown, select.toString(), columns,
        pool);
    try (Connection c = pool.getConnection(); Statement s = c.createStatement();
         ResultSet r = s.executeQuery(select + " WHERE 1 = 0")) {
      return data;
    } catch (SQLException e) {
      pool.close();
      if (e.getSQLState() != null && e.getSQLState().startsWith("08")) {
        throw SqlErrors.of(SqlState.UNABLE_TO_CONNECT, "Table " + name + " cannot connect to "
            + shown + ": " + e.getMessage() + ". Check 'url', 'username' and 'password'", e);
      }
      throw SqlErrors.of(SqlState.OBJECT_NOT_FOUND, "Table " + name + " cannot read its columns"
          + " from '" + table + "' at " + shown + " (" + select + "): " + e.getMessage()
          + ". Check 'table-name', and declare the table's columns as the database names"
          + " them", e);
    }
  }

  @Override public String description() {
    return "JDBC table " + name + " (" + url + ")";
  }

  @Override public void scan(Consumer<Object[]> rows) {
    try (Connection c = pool.getConnection(); Statement s = c.createStatement();
         ResultSet r = s.executeQuery(query)) {
      while (r.next()) {
        rows.accept(JdbcColumn.read(r, columns));
      }
    } catch (SQLException e) {
      throw new ReferenceDataException("Cannot read table " + name + " from " + url + ": "
          + e.getMessage(), e);
    }
  }

  /**
   * The SELECT of the table's columns that every {@link #scan} runs, in the database's SQL, e.g.
   * {@code SELECT ID, NAME FROM customers}: another reader (Spark's JDBC source) reads the same.
   */
  public String query() {
    return query;
  }

  /** Closes the pool; a scan afterwards fails. */
  @Override public void close() {
    pool.close();
  }
}
