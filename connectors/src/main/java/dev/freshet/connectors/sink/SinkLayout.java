package dev.freshet.connectors.sink;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.types.SqlType;
import dev.freshet.executor.operators.OutputMode;
import java.util.List;

/**
 * What a sink's query hands it each batch: rows whose first columns are the result's (named and
 * typed as the query shows them), and in UPDATE and COMPLETE mode which of those columns are the
 * group key the target is upserted by.
 *
 * <pre>{@code
 * // SELECT item, COUNT(*) AS n FROM orders GROUP BY item  (UPDATE)
 * layout.names();        // [ITEM, N]
 * layout.keyColumns();   // [0]
 * }</pre>
 *
 * @param names the result's column names
 * @param types the result's column types
 * @param keyColumns the columns of the group key, by position; empty in APPEND mode
 * @param mode how each batch's rows change the result
 * @param havingColumn the column holding whether HAVING admits the row's group, or -1: a group
 *     it does not admit is deleted from an UPDATE result, and its row left out of any other
 */
public record SinkLayout(List<String> names, List<ColumnType> types, int[] keyColumns,
    OutputMode mode, int havingColumn) {
  public SinkLayout {
    names = List.copyOf(names);
    types = List.copyOf(types);
    requireNonNull(keyColumns, "keyColumns");
    requireNonNull(mode, "mode");
  }

  /** The number of result columns (rows may carry more, hidden ones, after them). */
  public int width() {
    return names.size();
  }

  /** The SQL type of column {@code i}. */
  public SqlType sqlType(int i) {
    return types.get(i).type();
  }

  /** Whether HAVING admits {@code row}'s group (always, without HAVING). */
  public boolean admits(Object[] row) {
    return havingColumn < 0 || Boolean.TRUE.equals(row[havingColumn]);
  }

  /** Whether the target is upserted by key rather than appended to. */
  public boolean keyed() {
    return mode != OutputMode.APPEND;
  }
}
