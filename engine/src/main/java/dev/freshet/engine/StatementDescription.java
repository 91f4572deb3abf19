package dev.freshet.engine;

import static java.util.Objects.requireNonNull;

import java.util.List;
import dev.freshet.engine.query.ResultColumn;

/**
 * What executing a statement would produce, known without executing it: what a prepared
 * statement reports before it runs.
 *
 * <pre>{@code
 * StatementDescription d = StatementDescriber.describe(session,
 *     "SELECT STREAM user_id, COUNT(*) AS n FROM clicks GROUP BY user_id");
 * d.kind();      // PUSH
 * d.columns();   // USER_ID VARCHAR, N BIGINT NOT NULL
 * }</pre>
 *
 * @param kind what kind of result the statement has
 * @param columns the columns of its rows; empty for a statement without rows
 */
public record StatementDescription(Kind kind, List<ResultColumn> columns) {
  /** What kind of result a statement has. */
  public enum Kind {
    /** A finite result: a plain SELECT, SHOW, DESCRIBE, EXPLAIN. */
    ROWS,
    /** A result that never ends: a push query ({@code SELECT STREAM}, {@code EMIT}). */
    PUSH,
    /** An update count: INSERT. */
    INSERT,
    /** An update count of 0: DDL, SET, STOP QUERY. */
    OTHER
  }

  public StatementDescription {
    requireNonNull(kind, "kind");
    columns = List.copyOf(columns);
  }
}
