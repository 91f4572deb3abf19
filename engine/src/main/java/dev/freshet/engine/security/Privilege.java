package dev.freshet.engine.security;

/**
 * What a grant lets a user do with an object, with PostgreSQL's meaning: read it, or add rows to
 * it. {@code ALL} in SQL is both.
 *
 * <pre>{@code
 * access.check(alice, "TOTALS", Privilege.SELECT);   // 42501 unless granted, owned or admin
 * }</pre>
 */
public enum Privilege {
  /** Read: plain and push queries, views and sinks over it, joins with it. */
  SELECT,
  /** Add or change rows: INSERT into a stream; INSERT, UPDATE and DELETE of a table. */
  INSERT
}
