package dev.freshet.engine;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.dml.LocalTableDml;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.security.Redaction;
import dev.freshet.engine.store.LocalTables;
import dev.freshet.planner.catalog.ReferenceTable;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.util.Optional;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUpdate;

/**
 * INSERT, UPDATE and DELETE of a reference table: validated by Freshet, written in H2's SQL from
 * the validated statement ({@link LocalTableDml}) and run by H2 on the engine's own table as an
 * account that reaches those tables only, so that every batch that starts afterwards joins the
 * changed rows. An INSERT into a stream is not one of them: it goes on to the stream's path.
 *
 * <pre>{@code
 * TableDml.execute(engine, parse("UPDATE products SET category = 'toys' WHERE id = 7"));
 * // Optional[1]: one row changed
 * TableDml.execute(engine, parse("INSERT INTO clicks VALUES (1)"));   // Optional.empty()
 * }</pre>
 *
 * <p>A change to a table takes effect when the statement returns, also on a connection with
 * auto-commit off: tables are not part of the INSERT transactions of streams.
 */
final class TableDml {
  private TableDml() {
  }

  /**
   * Runs {@code node} if it changes a table and returns how many rows it changed; empty if it
   * is no INSERT, UPDATE or DELETE of a table.
   *
   * @throws SQLException 0A000 for a table read from another database, which is read-only, or
   *     a statement that reads anything but the engine's own tables; 42883 for a function
   *     Freshet does not have; H2's error for a statement it refuses (a duplicate key: 23505, a
   *     wrong value: 22018)
   */
  static Optional<Integer> execute(Engine engine, SqlNode node) throws SQLException {
    SqlNode target = node instanceof SqlInsert insert ? insert.getTargetTable()
        : node instanceof SqlUpdate update ? update.getTargetTable()
        : node instanceof SqlDelete delete ? delete.getTargetTable() : null;
    if (!(target instanceof SqlIdentifier id)) {
      return Optional.empty();
    }
    String name = StreamDdl.simpleName(id);
    Optional<ReferenceTable> table = engine.catalog().table(name);
    if (table.isEmpty()) {
      return Optional.empty();
    }
    String verb = node instanceof SqlInsert ? "INSERT INTO" : node instanceof SqlUpdate
        ? "UPDATE" : "DELETE FROM";
    if (!(table.get().data() instanceof LocalTables.Table local)) {
      throw Errors.of(SqlState.FEATURE_NOT_SUPPORTED, "Cannot " + verb + " table " + name
          + ": it is read from another database (connector 'jdbc') and is read-only in"
          + " Freshet. Change its rows in that database ("
          + Redaction.url(table.get().options().get("url"))
          + "); each query's next batch sees them");
    }
    String sql = LocalTableDml.of(engine.catalog(), node).h2Sql();
    try {
      return Optional.of(local.execute(sql));
    } catch (SQLException e) {
      // H2's SQLSTATE is standard (23505 for a duplicate key) and says what is wrong.
      String state = e.getSQLState() == null ? SqlState.GENERAL_ERROR.code() : e.getSQLState();
      String message = "Cannot " + verb + " table " + name + ": " + firstLine(e.getMessage());
      throw state.startsWith("23") ? new SQLIntegrityConstraintViolationException(message, state, e)
          : state.startsWith("22") ? new SQLDataException(message, state, e)
          : new SQLException(message, state, e);
    }
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "the statement failed";
    }
    int end = message.indexOf('\n');
    return end < 0 ? message : message.substring(0, end);
  }
}
