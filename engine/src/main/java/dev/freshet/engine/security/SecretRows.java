package dev.freshet.engine.security;

import static java.util.Objects.requireNonNull;

import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * Where a {@link SecretStore} keeps its rows: the engine's database
 * ({@code dev.freshet.engine.store.SecretTable}). The store gives each row's value as the bytes
 * to keep, encrypted or not; the rows know nothing of it.
 *
 * <pre>{@code
 * SecretRows rows = new SecretTable(db);
 * rows.insert(new SecretRows.Row("PG_PASS", "ALICE", Optional.empty(), bytes));
 * rows.get("PG_PASS");   // Optional[Row[...]]
 * }</pre>
 */
public interface SecretRows {
  /**
   * One secret.
   *
   * @param name its name
   * @param owner the user key of its owner
   * @param object the stream, table or sink it was given for, if it is anonymous
   * @param value its value as stored
   */
  record Row(String name, String owner, Optional<String> object, byte[] value) {
    public Row {
      requireNonNull(name, "name");
      requireNonNull(owner, "owner");
      requireNonNull(object, "object");
      requireNonNull(value, "value");
    }
  }

  /** The secret {@code name}, if there is one. */
  Optional<Row> get(String name) throws SQLException;

  /** Every secret, by name. */
  List<Row> all() throws SQLException;

  /** Adds {@code row} unless its name is taken; durable when it returns. */
  boolean insert(Row row) throws SQLException;

  /** Adds {@code row}, or replaces the row of its name; durable when it returns. */
  void put(Row row) throws SQLException;

  /** Removes the secret {@code name}; false if there was none. Durable when it returns. */
  boolean delete(String name) throws SQLException;

  /** Removes the anonymous secrets of {@code object}; durable when it returns. */
  void deleteOf(String object) throws SQLException;
}
