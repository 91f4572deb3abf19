package dev.freshet.engine.security;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * Where {@link AccessControl} keeps owners and grants so that they outlive the process: the
 * engine's database ({@code dev.freshet.engine.store.PrivilegeStore}), or nothing in memory.
 *
 * <pre>{@code
 * rows.owner("TOTALS", "ALICE");
 * rows.grant(new Grant("TOTALS", "BOB", "SELECT", "ALICE"));
 * rows.dropped("TOTALS");   // its owner and grants go with it
 * }</pre>
 *
 * <p>Each change is durable when it returns.
 */
public interface PrivilegeRows {
  /** The recorded owner of every object, by object name. */
  Map<String, String> owners() throws SQLException;

  /** Every recorded grant ({@code OWNER} rows are not grants). */
  List<Grant> grants() throws SQLException;

  /** Records {@code owner} as the owner of {@code object} unless one is recorded. */
  void owner(String object, String owner) throws SQLException;

  /** Records {@code grant}. */
  void grant(Grant grant) throws SQLException;

  /** Forgets {@code grant}. */
  void revoke(Grant grant) throws SQLException;

  /** Forgets {@code object}'s owner and grants: it was dropped. */
  void dropped(String object) throws SQLException;
}
