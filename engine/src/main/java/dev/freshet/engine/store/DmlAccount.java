package dev.freshet.engine.store;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.table.TableColumn;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The H2 account that runs the INSERT, UPDATE and DELETE statements of the engine's own tables
 * ({@link LocalTables}). It is no administrator, so H2 refuses it everything that reaches files,
 * other databases or Java code: {@code FILE_READ}, {@code FILE_WRITE}, {@code CSVREAD},
 * {@code CSVWRITE}, {@code CREATE ALIAS}, {@code CREATE TRIGGER}, {@code CREATE LINKED TABLE},
 * {@code RUNSCRIPT}, {@code SCRIPT}, {@code BACKUP}. It owns no schema, so it creates nothing,
 * and it holds SELECT, INSERT, UPDATE and DELETE on the tables of schema
 * {@value LocalTables#SCHEMA} only: no row of the catalog, of a view's result or of anything
 * else in the database is readable through it.
 *
 * <pre>{@code
 * DmlAccount account = DmlAccount.create(admin, "FRESHET_TABLES");   // at each open
 * account.grant(statement, "FRESHET_TABLES.\"PRODUCTS\"");           // at CREATE TABLE
 * DriverManager.getConnection(url, DmlAccount.USER, account.password());
 * }</pre>
 *
 * <p>The account is made anew at each open of the database: one left by an earlier run is
 * dropped with whatever rights it had, and created again with a random password that only this
 * object knows, so nothing outside the engine can log in with it. A data directory of an older
 * Freshet, which had no such account, gets it the same way.
 */
final class DmlAccount {
  /** The account's H2 user name. */
  static final String USER = "FRESHET_DML";
  /** The rights the account has on each of the engine's own tables, and no others. */
  private static final String RIGHTS = "SELECT, INSERT, UPDATE, DELETE";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final String password;

  private DmlAccount(String password) {
    this.password = password;
  }

  /**
   * Makes the account anew in the database {@code admin} is connected to as its administrator,
   * with a new random password, and grants it its rights on every table of {@code schema}.
   */
  static DmlAccount create(Connection admin, String schema) throws SQLException {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    // Hex digits only, so the literal below cannot end early.
    DmlAccount account = new DmlAccount(HexFormat.of().formatHex(bytes));
    try (Statement s = admin.createStatement()) {
      // Dropped first: an account of an earlier run could have been given more rights (or made
      // an administrator) by someone with the administrator's access since.
      s.execute("DROP USER IF EXISTS " + USER);
      s.execute("CREATE USER " + USER + " PASSWORD '" + account.password + "'");
      for (String table : tables(admin, schema)) {
        account.grant(s, schema + "." + TableColumn.quoted(table));
      }
    }
    return account;
  }

  /** Grants the account its rights on {@code qualifiedTable}, e.g. {@code S."T"}; idempotent. */
  void grant(Statement admin, String qualifiedTable) throws SQLException {
    admin.execute("GRANT " + RIGHTS + " ON " + qualifiedTable + " TO " + USER);
  }

  /** The account's password, which only this engine knows. */
  String password() {
    return password;
  }

  private static List<String> tables(Connection admin, String schema) throws SQLException {
    List<String> tables = new ArrayList<>();
    try (PreparedStatement p = admin.prepareStatement("SELECT TABLE_NAME FROM"
        + " INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE'")) {
      p.setString(1, requireNonNull(schema, "schema"));
      try (ResultSet r = p.executeQuery()) {
        while (r.next()) {
          tables.add(r.getString(1));
        }
      }
    }
    return tables;
  }

  @Override public String toString() {
    // Never the password: an object printed in a log or an error must not show it.
    return "DmlAccount[" + USER + "]";
  }
}
