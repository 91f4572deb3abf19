package dev.freshet.pgwire.live;

import dev.freshet.engine.push.PushQuery;
import dev.freshet.engine.query.ResultColumn;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * The columns of a live result as a PostgreSQL client sees them: the query's own, then
 * {@value #ROW_KIND} ({@code text}: INSERT, UPDATE, DELETE, or BATCH_END with
 * {@code push.batch.markers}) and {@value #VERSION} ({@code int8}: the batch, or the view's
 * version, that produced the row; what {@code since_version} resumes after), in place of the
 * push query's trailing {@code _BATCH_ID} and {@code _ROW_KIND}.
 *
 * <pre>{@code
 * LiveColumns.of(push.columns());        // [user_id, n, freshet_row_kind, freshet_version]
 * LiveColumns.reorder(row, visible);     // in place: kind, then version
 * }</pre>
 */
public final class LiveColumns {
  /** Name of the column that says what a row is. */
  public static final String ROW_KIND = "freshet_row_kind";
  /** Name of the column that holds the row's version. */
  public static final String VERSION = "freshet_version";

  private LiveColumns() {
  }

  /** Whether {@code columns} end with a push result's two columns. */
  public static boolean isPush(List<ResultColumn> columns) {
    int n = columns.size();
    return n >= 2 && columns.get(n - 2).name().equals(PushQuery.BATCH_ID)
        && columns.get(n - 1).name().equals(PushQuery.ROW_KIND);
  }

  /** A push result's columns as a PostgreSQL client sees them; others unchanged. */
  public static List<ResultColumn> of(List<ResultColumn> columns) {
    if (!isPush(columns)) {
      return columns;
    }
    List<ResultColumn> pg = new ArrayList<>(columns.subList(0, columns.size() - 2));
    pg.add(new ResultColumn(ROW_KIND, Types.VARCHAR, "text", -1, -1, false, 9, String.class));
    pg.add(new ResultColumn(VERSION, Types.BIGINT, "BIGINT", 19, 0, true, 20, Long.class));
    return pg;
  }

  /**
   * Puts a push row's kind before its version, in place (the row is the reader's own copy):
   * {@code [..., batchId, kind]} becomes {@code [..., kind, batchId]}.
   */
  public static void reorder(Object[] row, int visible) {
    Object batch = row[visible];
    row[visible] = row[visible + 1];
    row[visible + 1] = batch;
  }
}
