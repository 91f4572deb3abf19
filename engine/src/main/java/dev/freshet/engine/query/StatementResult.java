package dev.freshet.engine.query;

import java.util.List;
import dev.freshet.engine.push.PushQuery;

/**
 * What executing one statement produced: an update count, a finite result, or a push query.
 */
public sealed interface StatementResult {
  /**
   * Result of DDL and INSERT: the number of rows affected (0 for DDL), and the statement's
   * warnings (e.g. a view whose state nothing bounds), which JDBC returns as
   * {@link java.sql.SQLWarning}s of the statement.
   */
  record UpdateCount(long count, List<String> warnings) implements StatementResult {
    public UpdateCount {
      warnings = List.copyOf(warnings);
    }

    /** A count without warnings. */
    public UpdateCount(long count) {
      this(count, List.of());
    }
  }

  /** A finite result, e.g. of EXPLAIN, SHOW or a bounded query. */
  record Rows(List<ResultColumn> columns, List<Object[]> rows) implements StatementResult {
    public Rows {
      columns = List.copyOf(columns);
      rows = List.copyOf(rows);
    }
  }

  /** A result that never ends: the changed rows of every micro-batch of a continuous query. */
  record Push(List<ResultColumn> columns, PushQuery query) implements StatementResult {
    public Push {
      columns = List.copyOf(columns);
    }
  }
}
