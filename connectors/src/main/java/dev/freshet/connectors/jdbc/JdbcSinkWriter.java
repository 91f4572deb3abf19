package dev.freshet.connectors.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.freshet.common.errors.SqlErrors;
import dev.freshet.common.errors.SqlState;
import dev.freshet.common.security.UrlRedaction;
import dev.freshet.connectors.sink.SinkException;
import dev.freshet.connectors.sink.SinkLayout;
import dev.freshet.connectors.sink.SinkValues;
import dev.freshet.connectors.sink.SinkWriter;
import dev.freshet.executor.operators.OutputMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * Writes a sink's batches into a table of a database through a HikariCP pool, exactly once: in
 * one transaction, the batch's rows (upserted by the group key in UPDATE mode, the table replaced
 * in COMPLETE mode, appended in APPEND mode) and the batch id in the table
 * {@code freshet_sink_batches} of the same database, which a replayed batch finds there and so
 * changes nothing (the pattern of Spark's {@code foreachBatch} with a batch-id table).
 *
 * <p>Targets: H2 ({@code MERGE INTO ... KEY}) and PostgreSQL ({@code INSERT ... ON CONFLICT}).
 * The target table is created if missing, with the result's columns and its key as primary key.
 *
 * <pre>{@code
 * JdbcSinkWriter writer = JdbcSinkWriter.open("OUT", queryId, spec, layout);   // checks now
 * writer.write(0, rows);
 * }</pre>
 */
public final class JdbcSinkWriter implements SinkWriter {
  /** The table of the last batch each sink applied, in the target database. */
  static final String BATCH_TABLE = "freshet_sink_batches";

  private final String sink;
  private final String queryId;
  private final SinkLayout layout;
  private final String table;
  private final HikariDataSource pool;
  private final Dialect dialect;
  private final String writeRow;
  /** Deletes a group's row by its key. */
  private final String deleteRow;

  /** SQL that differs between the targets. */
  enum Dialect {
    H2, POSTGRESQL
  }

  private JdbcSinkWriter(String sink, String queryId, SinkLayout layout, String table,
      HikariDataSource pool, Dialect dialect) {
    this.sink = sink;
    this.queryId = queryId;
    this.layout = layout;
    this.table = table;
    this.pool = pool;
    this.dialect = dialect;
    this.writeRow = writeRowSql();
    StringJoiner where = new StringJoiner(" AND ", "DELETE FROM " + table + " WHERE ", "");
    for (int k : layout.keyColumns()) {
      where.add(layout.names().get(k) + " = ?");
    }
    this.deleteRow = layout.keyColumns().length == 0 ? "DELETE FROM " + table + " WHERE 1 = 0"
        : where.toString();
  }

  /**
   * Connects to the target, checks it is one Freshet can write exactly once, and creates the
   * table and the batch table if missing.
   *
   * @throws SQLException 08001 if the database cannot be reached, 0A000 if it is not H2 or
   *     PostgreSQL, the database's own error if a table cannot be created
   */
  public static JdbcSinkWriter open(String sink, String queryId, JdbcSinkSpec spec, SinkLayout layout)
      throws SQLException {
    HikariConfig config = new HikariConfig();
    UrlDataSource database = new UrlDataSource(spec.url(), spec.username(), spec.password());
    // Not setJdbcUrl: HikariCP would log the URL, a password in it too.
    config.setDataSource(database);
    config.setAutoCommit(false);
    config.setMaximumPoolSize(2);
    config.setMinimumIdle(0);
    config.setPoolName("freshet-sink-" + sink);
    config.setInitializationFailTimeout(-1);
    config.setConnectionTimeout(10_000);
    HikariDataSource pool = new HikariDataSource(config);
    try {
      // One connection outside the pool first: it fails at once with the database's own error
      // (a wrong password: 28P01), where the pool would try again for its connection timeout.
      database.getConnection().close();
    } catch (SQLException e) {
      pool.close();
      throw cannotConnect(sink, spec, e);
    }
    try (Connection c = pool.getConnection()) {
      String product = c.getMetaData().getDatabaseProductName().toUpperCase(Locale.ROOT);
      Dialect dialect = product.contains("H2") ? Dialect.H2
          : product.contains("POSTGRES") ? Dialect.POSTGRESQL : null;
      if (dialect == null) {
        throw SqlErrors.of(SqlState.FEATURE_NOT_SUPPORTED, "Sink " + sink + " writes to " + c.getMetaData()
            .getDatabaseProductName() + ", but a JDBC sink writes exactly once only to H2 and"
            + " PostgreSQL yet. Write to one of them, or to Kafka");
      }
      JdbcSinkWriter writer = new JdbcSinkWriter(sink, queryId, layout, spec.table(), pool,
          dialect);
      writer.createTables(c);
      return writer;
    } catch (SQLException e) {
      pool.close();
      throw cannotConnect(sink, spec, e);
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
  }

  /** {@code e} as it fails a sink's start: 08001 saying what to check, or as it is. */
  private static SQLException cannotConnect(String sink, JdbcSinkSpec spec, SQLException e) {
    if (e.getSQLState() == null || e.getSQLState().startsWith("08")) {
      return SqlErrors.of(SqlState.UNABLE_TO_CONNECT, "Sink " + sink + " cannot connect to "
          + UrlRedaction.url(spec.url()) + ": " + e.getMessage() + ". Check 'url', 'username'"
          + " and 'password', and that the database is up", e);
    }
    return e;
  }

  private void createTables(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS " + BATCH_TABLE + " (sink_name VARCHAR(256) PRIMARY"
          + " KEY, query_id VARCHAR(64) NOT NULL, batch_id BIGINT NOT NULL)");
      StringJoiner columns = new StringJoiner(", ", "CREATE TABLE IF NOT EXISTS " + table + " (",
          ")");
      for (int i = 0; i < layout.width(); i++) {
        columns.add(layout.names().get(i) + " " + layout.types().get(i).ddlName());
      }
      if (layout.keyed() && layout.keyColumns().length > 0) {
        StringJoiner key = new StringJoiner(", ", "PRIMARY KEY (", ")");
        for (int k : layout.keyColumns()) {
          key.add(layout.names().get(k));
        }
        columns.add(key.toString());
      }
      s.execute(columns.toString());
    }
    c.commit();
  }

  private String writeRowSql() {
    StringJoiner names = new StringJoiner(", ");
    StringJoiner marks = new StringJoiner(", ");
    for (String name : layout.names()) {
      names.add(name);
      marks.add("?");
    }
    if (layout.mode() != OutputMode.UPDATE
        || layout.keyColumns().length == 0) {
      return "INSERT INTO " + table + " (" + names + ") VALUES (" + marks + ")";
    }
    StringJoiner key = new StringJoiner(", ");
    for (int k : layout.keyColumns()) {
      key.add(layout.names().get(k));
    }
    if (dialect == Dialect.H2) {
      return "MERGE INTO " + table + " (" + names + ") KEY (" + key + ") VALUES (" + marks + ")";
    }
    StringJoiner set = new StringJoiner(", ");
    for (String name : layout.names()) {
      set.add(name + " = EXCLUDED." + name);
    }
    return "INSERT INTO " + table + " (" + names + ") VALUES (" + marks + ") ON CONFLICT ("
        + key + ") DO UPDATE SET " + set;
  }

  @Override public boolean write(long batchId, List<Object[]> rows) {
    try (Connection c = pool.getConnection()) {
      try {
        if (applied(c, batchId)) {
          c.rollback();
          return false;
        }
        if (layout.mode() == OutputMode.COMPLETE) {
          try (Statement s = c.createStatement()) {
            s.executeUpdate("DELETE FROM " + table);
          }
        }
        try (PreparedStatement insert = c.prepareStatement(writeRow);
             PreparedStatement delete = c.prepareStatement(deleteRow)) {
          int inserts = 0;
          int deletes = 0;
          for (Object[] row : rows) {
            if (!layout.admits(row)) {
              if (layout.mode() != OutputMode.UPDATE) {
                continue;
              }
              // A group HAVING no longer admits leaves the table.
              int[] key = layout.keyColumns();
              for (int k = 0; k < key.length; k++) {
                delete.setObject(k + 1, SinkValues.forJdbc(layout.sqlType(key[k]), row[key[k]]));
              }
              delete.addBatch();
              deletes++;
              continue;
            }
            for (int i = 0; i < layout.width(); i++) {
              insert.setObject(i + 1, SinkValues.forJdbc(layout.sqlType(i), row[i]));
            }
            insert.addBatch();
            inserts++;
          }
          if (deletes > 0) {
            delete.executeBatch();
          }
          if (inserts > 0) {
            insert.executeBatch();
          }
        }
        recordBatch(c, batchId);
        c.commit();
        return true;
      } catch (SQLException | RuntimeException e) {
        rollback(c, e);
        throw e;
      }
    } catch (SQLException e) {
      throw new SinkException("Sink " + sink + " cannot write batch " + batchId + " to table "
          + table + ": " + e.getMessage(), e);
    }
  }

  /**
   * Rolls back after {@code failure}; a rollback that fails too (the connection is gone, which
   * the pool then reports as closed) is added to it, so that the database's own error, the one
   * that says whether a restart may help, is what the batch fails with.
   */
  private static void rollback(Connection c, Exception failure) {
    try {
      c.rollback();
    } catch (SQLException e) {
      failure.addSuppressed(e);
    }
  }

  /** Whether this query's batch {@code batchId} is in the target already; locks the row. */
  private boolean applied(Connection c, long batchId) throws SQLException {
    try (PreparedStatement select = c.prepareStatement("SELECT query_id, batch_id FROM "
        + BATCH_TABLE + " WHERE sink_name = ? FOR UPDATE")) {
      select.setString(1, sink);
      try (ResultSet rs = select.executeQuery()) {
        // Another query of the same name (the sink made again) starts over.
        return rs.next() && rs.getString(1).equals(queryId) && rs.getLong(2) >= batchId;
      }
    }
  }

  private void recordBatch(Connection c, long batchId) throws SQLException {
    String sql = dialect == Dialect.H2
        ? "MERGE INTO " + BATCH_TABLE + " (sink_name, query_id, batch_id) KEY (sink_name)"
            + " VALUES (?, ?, ?)"
        : "INSERT INTO " + BATCH_TABLE + " (sink_name, query_id, batch_id) VALUES (?, ?, ?)"
            + " ON CONFLICT (sink_name) DO UPDATE SET query_id = EXCLUDED.query_id,"
            + " batch_id = EXCLUDED.batch_id";
    try (PreparedStatement upsert = c.prepareStatement(sql)) {
      upsert.setString(1, sink);
      upsert.setString(2, queryId);
      upsert.setLong(3, batchId);
      upsert.executeUpdate();
    }
  }

  @Override public void close() {
    pool.close();
  }
}
