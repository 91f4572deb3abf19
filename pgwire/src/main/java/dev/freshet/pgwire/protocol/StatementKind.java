package dev.freshet.pgwire.protocol;

import java.util.List;

/**
 * What a statement of a PostgreSQL client is, by its leading keywords, before anything parses
 * it: which part of the endpoint answers it.
 */
enum StatementKind {
  /** Nothing but white space and comments: EmptyQueryResponse. */
  EMPTY,
  /** {@code BEGIN}, {@code START TRANSACTION}. */
  BEGIN,
  /** {@code COMMIT}, {@code END}. */
  COMMIT,
  /** {@code ROLLBACK}, {@code ABORT}. */
  ROLLBACK,
  /** A PostgreSQL {@code SET}, {@code RESET} or {@code SHOW} (see PgSession for which). */
  SETTING,
  /** A query of PostgreSQL's catalog, which {@link CatalogQueries} answers. */
  CATALOG,
  /** Anything else: the Freshet session's. */
  FRESHET;

  /** The kind of {@code sql}, setting statements and catalog queries aside. */
  static StatementKind of(String sql) {
    if (SqlText.isEmpty(sql)) {
      return EMPTY;
    }
    List<String> words = SqlText.leadingWords(sql, 2);
    String first = words.get(0);
    String second = words.size() > 1 ? words.get(1) : "";
    switch (first) {
    case "BEGIN":
      return BEGIN;
    case "START":
      return second.equals("TRANSACTION") ? BEGIN : FRESHET;
    case "COMMIT":
    case "END":
      return second.isEmpty() || second.equals("WORK") || second.equals("TRANSACTION")
          || second.equals("AND") ? COMMIT : FRESHET;
    case "ROLLBACK":
    case "ABORT":
      return second.isEmpty() || second.equals("WORK") || second.equals("TRANSACTION")
          || second.equals("AND") ? ROLLBACK : FRESHET;
    default:
      return FRESHET;
    }
  }

  /**
   * Whether a statement starting with these words returns rows: what Describe of a portal may
   * execute early, as it changes nothing.
   */
  static boolean returnsRows(String sql) {
    List<String> words = SqlText.leadingWords(sql, 1);
    if (words.isEmpty()) {
      return false;
    }
    return switch (words.get(0)) {
      case "SELECT", "WITH", "VALUES", "TABLE", "SHOW", "EXPLAIN", "DESCRIBE" -> true;
      default -> false;
    };
  }
}
