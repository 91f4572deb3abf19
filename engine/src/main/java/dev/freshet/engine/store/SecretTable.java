package dev.freshet.engine.store;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import dev.freshet.engine.security.SecretRows;

/**
 * The rows of the engine's secrets in its {@link ResultDatabase}, as the
 * {@link dev.freshet.engine.security.SecretStore} keeps them: their values are whatever bytes it
 * gives, encrypted or not. With a data directory they last; without one they end with the
 * engine, as everything else does.
 *
 * <pre>{@code
 * SecretTable table = new SecretTable(db);
 * table.insert(new Row("PG_PASS", "ALICE", Optional.empty(), bytes));
 * table.get("PG_PASS");   // Optional[Row[...]]
 * }</pre>
 *
 * <p>Table {@code FRESHET_SECRETS}: {@code NAME} (unique), {@code OWNER} (the user key of its
 * creator), {@code OBJECT_NAME} (for an anonymous secret, the stream, table or sink whose
 * {@code WITH} clause gave it; else NULL) and {@code SECRET_VALUE}.
 */
public final class SecretTable implements SecretRows {
  private static final String TABLE = "FRESHET_SECRETS";
  private static final String COLUMNS = "NAME, OWNER, OBJECT_NAME, SECRET_VALUE";

  private final ResultDatabase db;

  public SecretTable(ResultDatabase db) throws SQLException {
    this.db = requireNonNull(db, "db");
    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS " + TABLE + " (NAME CHARACTER VARYING PRIMARY KEY,"
          + " OWNER CHARACTER VARYING NOT NULL, OBJECT_NAME CHARACTER VARYING, SECRET_VALUE"
          + " BINARY VARYING NOT NULL)");
      db.persist(c);
    }
  }

  @Override public Optional<Row> get(String name) throws SQLException {
    try (Connection c = db.connect(); PreparedStatement p = c.prepareStatement("SELECT "
        + COLUMNS + " FROM " + TABLE + " WHERE NAME = ?")) {
      p.setString(1, name);
      try (ResultSet r = p.executeQuery()) {
        return r.next() ? Optional.of(row(r)) : Optional.empty();
      }
    }
  }

  @Override public List<Row> all() throws SQLException {
    List<Row> rows = new ArrayList<>();
    try (Connection c = db.connect(); Statement s = c.createStatement();
         ResultSet r = s.executeQuery("SELECT " + COLUMNS + " FROM " + TABLE
             + " ORDER BY NAME")) {
      while (r.next()) {
        rows.add(row(r));
      }
    }
    return rows;
  }

  @Override public boolean insert(Row row) throws SQLException {
    try (Connection c = db.connect(); PreparedStatement p = c.prepareStatement("INSERT INTO "
        + TABLE + " (" + COLUMNS + ") SELECT ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM "
        + TABLE + " WHERE NAME = ?)")) {
      set(p, row);
      p.setString(5, row.name());
      boolean inserted = p.executeUpdate() == 1;
      db.persist(c);
      return inserted;
    }
  }

  @Override public void put(Row row) throws SQLException {
    try (Connection c = db.connect(); PreparedStatement p = c.prepareStatement("MERGE INTO "
        + TABLE + " (" + COLUMNS + ") KEY (NAME) VALUES (?, ?, ?, ?)")) {
      set(p, row);
      p.executeUpdate();
      db.persist(c);
    }
  }

  @Override public boolean delete(String name) throws SQLException {
    try (Connection c = db.connect();
         PreparedStatement p = c.prepareStatement("DELETE FROM " + TABLE + " WHERE NAME = ?")) {
      p.setString(1, name);
      boolean deleted = p.executeUpdate() == 1;
      db.persist(c);
      return deleted;
    }
  }

  @Override public void deleteOf(String object) throws SQLException {
    try (Connection c = db.connect(); PreparedStatement p = c.prepareStatement("DELETE FROM "
        + TABLE + " WHERE OBJECT_NAME = ?")) {
      p.setString(1, object);
      if (p.executeUpdate() > 0) {
        db.persist(c);
      }
    }
  }

  private static void set(PreparedStatement p, Row row) throws SQLException {
    p.setString(1, row.name());
    p.setString(2, row.owner());
    p.setString(3, row.object().orElse(null));
    p.setBytes(4, row.value());
  }

  private static Row row(ResultSet r) throws SQLException {
    return new Row(r.getString(1), r.getString(2), Optional.ofNullable(r.getString(3)),
        r.getBytes(4));
  }
}
