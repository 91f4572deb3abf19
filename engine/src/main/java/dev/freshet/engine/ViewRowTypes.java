package dev.freshet.engine;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.store.StoredColumnType;
import dev.freshet.engine.view.AppendedRows;
import dev.freshet.executor.checkpoint.Checkpoint;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * How a view's columns are stored, and the file of its appended rows, whichever engine runs it.
 *
 * <pre>{@code
 * StoredColumnType[] types = ViewRowTypes.columnTypes("PER_MINUTE", rowType);   // or 0A000
 * AppendedRows rows = ViewRowTypes.appendedRows("PER_MINUTE", rowType, checkpoint, false);
 * }</pre>
 */
final class ViewRowTypes {
  private ViewRowTypes() {
  }

  /**
   * How the view's columns are stored.
   *
   * @throws SQLException (0A000) if a column has a type the view cannot keep
   */
  static StoredColumnType[] columnTypes(String view, RelDataType rowType) throws SQLException {
    List<RelDataTypeField> fields = rowType.getFieldList();
    StoredColumnType[] types = new StoredColumnType[fields.size()];
    for (int i = 0; i < types.length; i++) {
      types[i] = StoredColumnType.of(fields.get(i).getType(), view, fields.get(i).getName());
    }
    return types;
  }

  /**
   * The view's appended rows: {@code view/rows.mv.db} in its checkpoint, or in memory without
   * one.
   *
   * @throws SQLException (XX001) if the file cannot be opened as the view's rows
   */
  static AppendedRows appendedRows(String view, RelDataType rowType,
      @Nullable Checkpoint checkpoint, boolean keyed) throws SQLException {
    StoredColumnType[] types = columnTypes(view, rowType);
    int[] scales = new int[types.length];
    for (int i = 0; i < types.length; i++) {
      scales[i] = StoredColumnType.scale(rowType.getFieldList().get(i).getType());
    }
    Path file = checkpoint == null ? null
        : checkpoint.root().resolve("view").resolve("rows.mv.db");
    try {
      return AppendedRows.open(file, types, scales, keyed);
    } catch (IllegalStateException e) {
      throw Errors.of(SqlState.DATA_CORRUPTED, "Cannot open the rows of materialized view "
          + view + ": " + e.getMessage() + ". DROP MATERIALIZED VIEW " + view
          + " and create it again", e);
    }
  }
}
