package dev.freshet.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;

/**
 * The order of an {@code ORDER BY} whose items are all columns of the query's result, by name or
 * position, as a comparator of result rows: how a plain query that Freshet's executor runs is
 * sorted after it ran.
 *
 * <pre>{@code
 * // SELECT user_id, COUNT(*) AS n FROM clicks GROUP BY user_id ORDER BY n DESC, 1
 * Optional<Comparator<Object[]>> order = RowOrder.of(orderBy.orderList, rowType);
 * rows.sort(order.orElseThrow());
 * }</pre>
 *
 * <p>NULLs sort as Calcite sorts them by default, as the largest value (last ascending, first
 * descending), unless the item says {@code NULLS FIRST} or {@code NULLS LAST}. Values are in
 * Calcite's internal representation, each column's of one {@link Comparable} class.
 */
final class RowOrder {
  private RowOrder() {
  }

  /**
   * The comparator of {@code items} over rows of {@code rowType}, or empty if an item is not a
   * column of the result (an expression, or a column the query does not return).
   */
  static Optional<Comparator<Object[]>> of(SqlNodeList items, RelDataType rowType) {
    Comparator<Object[]> order = null;
    for (SqlNode item : items) {
      boolean descending = false;
      Boolean nullsFirst = null;
      while (item instanceof SqlBasicCall call && (call.getKind() == SqlKind.DESCENDING
          || call.getKind() == SqlKind.NULLS_FIRST || call.getKind() == SqlKind.NULLS_LAST)) {
        if (call.getKind() == SqlKind.DESCENDING) {
          descending = true;
        } else if (nullsFirst == null) {
          nullsFirst = call.getKind() == SqlKind.NULLS_FIRST;
        }
        item = call.operand(0);
      }
      int column = column(item, rowType);
      if (column < 0) {
        return Optional.empty();
      }
      Comparator<Object[]> next = column(column, descending,
          nullsFirst == null ? descending : nullsFirst);
      order = order == null ? next : order.thenComparing(next);
    }
    return Optional.ofNullable(order);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Comparator<Object[]> column(int column, boolean descending, boolean nullsFirst) {
    Comparator<Comparable> values = descending
        ? Comparator.<Comparable>reverseOrder() : Comparator.<Comparable>naturalOrder();
    Comparator<Comparable> withNulls = nullsFirst
        ? Comparator.nullsFirst(values) : Comparator.nullsLast(values);
    return Comparator.comparing(row -> (Comparable) row[column], withNulls);
  }

  /** The index of the result column that {@code item} names, or -1. */
  private static int column(SqlNode item, RelDataType rowType) {
    List<RelDataTypeField> fields = rowType.getFieldList();
    if (item instanceof SqlNumericLiteral literal && literal.isInteger()) {
      int ordinal = literal.intValue(true);
      return ordinal >= 1 && ordinal <= fields.size() ? ordinal - 1 : -1;
    }
    if (item instanceof SqlIdentifier id && id.isSimple()) {
      List<Integer> matches = new ArrayList<>();
      for (RelDataTypeField field : fields) {
        if (field.getName().equals(id.getSimple())) {
          matches.add(field.getIndex());
        }
      }
      // Two result columns of one name: which one the query means is the validator's to say.
      return matches.size() == 1 ? matches.get(0) : -1;
    }
    return -1;
  }
}
