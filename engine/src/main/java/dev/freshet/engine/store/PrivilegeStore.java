package dev.freshet.engine.store;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.security.Grant;
import dev.freshet.engine.security.PrivilegeRows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Owners and grants as they outlive the process, in the engine's {@link ResultDatabase}: the
 * {@link PrivilegeRows} that {@link dev.freshet.engine.security.AccessControl} reads at start and
 * writes through.
 *
 * <pre>{@code
 * store.owner("TOTALS", "ALICE");
 * store.grant(new Grant("TOTALS", "BOB", "SELECT", "ALICE"));
 * store.dropped("TOTALS");   // its owner and grants go with it
 * }</pre>
 *
 * <p>Tables {@code FRESHET_OWNERS} ({@code NAME}, {@code OWNER}) and {@code FRESHET_GRANTS}
 * ({@code NAME}, {@code GRANTEE}, {@code PRIVILEGE}, {@code GRANTOR}; {@code NAME} is empty for
 * {@code CREATE CONNECTOR}). Names of users are kept as matched, upper case. An engine without a
 * data directory keeps nothing here.
 */
public final class PrivilegeStore implements PrivilegeRows {
  private static final String OWNERS = "FRESHET_OWNERS";
  private static final String GRANTS = "FRESHET_GRANTS";
  /** The {@code NAME} of a grant on no object ({@code CREATE CONNECTOR}). */
  private static final String NO_OBJECT = "";

  private final ResultDatabase db;

  public PrivilegeStore(ResultDatabase db) throws SQLException {
    this.db = requireNonNull(db, "db");
    if (db.persistent()) {
      try (Connection c = db.connect(); Statement s = c.createStatement()) {
        s.execute("CREATE TABLE IF NOT EXISTS " + OWNERS + " (NAME CHARACTER VARYING PRIMARY KEY,"
            + " OWNER CHARACTER VARYING NOT NULL)");
        s.execute("CREATE TABLE IF NOT EXISTS " + GRANTS + " (NAME CHARACTER VARYING NOT NULL,"
            + " GRANTEE CHARACTER VARYING NOT NULL, PRIVILEGE CHARACTER VARYING NOT NULL,"
            + " GRANTOR CHARACTER VARYING NOT NULL, PRIMARY KEY (NAME, GRANTEE, PRIVILEGE))");
        db.persist(c);
      }
    }
  }

  /** The recorded owner of every object, by object name. */
  @Override public Map<String, String> owners() throws SQLException {
    Map<String, String> owners = new LinkedHashMap<>();
    if (db.persistent()) {
      try (Connection c = db.connect(); Statement s = c.createStatement();
           ResultSet r = s.executeQuery("SELECT NAME, OWNER FROM " + OWNERS)) {
        while (r.next()) {
          owners.put(r.getString(1), r.getString(2));
        }
      }
    }
    return owners;
  }

  /** Every recorded grant. */
  @Override public List<Grant> grants() throws SQLException {
    List<Grant> grants = new ArrayList<>();
    if (db.persistent()) {
      try (Connection c = db.connect(); Statement s = c.createStatement();
           ResultSet r = s.executeQuery("SELECT NAME, GRANTEE, PRIVILEGE, GRANTOR FROM "
               + GRANTS)) {
        while (r.next()) {
          String name = r.getString(1);
          grants.add(new Grant(name.equals(NO_OBJECT) ? null : name, r.getString(2),
              r.getString(3), r.getString(4)));
        }
      }
    }
    return grants;
  }

  /** Records {@code owner} as the owner of {@code object} unless one is recorded. Durable. */
  @Override public void owner(String object, String owner) throws SQLException {
    update("INSERT INTO " + OWNERS + " (NAME, OWNER) SELECT ?, ? WHERE NOT EXISTS"
        + " (SELECT 1 FROM " + OWNERS + " WHERE NAME = ?)", object, owner, object);
  }

  /** Records {@code grant}. Durable. */
  @Override public void grant(Grant grant) throws SQLException {
    update("MERGE INTO " + GRANTS + " (NAME, GRANTEE, PRIVILEGE, GRANTOR) KEY (NAME, GRANTEE,"
        + " PRIVILEGE) VALUES (?, ?, ?, ?)", name(grant), grant.grantee(), grant.privilege(),
        grant.grantor());
  }

  /** Forgets {@code grant}. Durable. */
  @Override public void revoke(Grant grant) throws SQLException {
    update("DELETE FROM " + GRANTS + " WHERE NAME = ? AND GRANTEE = ? AND PRIVILEGE = ?",
        name(grant), grant.grantee(), grant.privilege());
  }

  /** Forgets {@code object}'s owner and grants: it was dropped. Durable. */
  @Override public void dropped(String object) throws SQLException {
    if (!db.persistent()) {
      return;
    }
    try (Connection c = db.connect();
         PreparedStatement owners = c.prepareStatement("DELETE FROM " + OWNERS
             + " WHERE NAME = ?");
         PreparedStatement grants = c.prepareStatement("DELETE FROM " + GRANTS
             + " WHERE NAME = ?")) {
      owners.setString(1, object);
      owners.executeUpdate();
      grants.setString(1, object);
      grants.executeUpdate();
      db.persist(c);
    }
  }

  private static String name(Grant grant) {
    return grant.object() == null ? NO_OBJECT : grant.object();
  }

  private void update(String sql, String... values) throws SQLException {
    if (!db.persistent()) {
      return;
    }
    try (Connection c = db.connect(); PreparedStatement p = c.prepareStatement(sql)) {
      for (int i = 0; i < values.length; i++) {
        p.setString(i + 1, values[i]);
      }
      p.executeUpdate();
      db.persist(c);
    }
  }
}
