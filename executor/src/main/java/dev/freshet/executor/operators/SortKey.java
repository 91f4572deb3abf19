package dev.freshet.executor.operators;

import java.util.Comparator;
import java.util.List;

/**
 * One column of an ORDER BY.
 *
 * @param field the column
 * @param descending whether larger values come first
 * @param nullsFirst whether nulls come before every value
 */
public record SortKey(int field, boolean descending, boolean nullsFirst) {
  /**
   * The order of rows by {@code keys}, the first key first: negative if {@code a} comes before
   * {@code b}, 0 if they are equal on every key.
   *
   * <pre>{@code
   * rows.sort(SortKey.order(List.of(new SortKey(1, true, false))));   // ORDER BY $1 DESC
   * }</pre>
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static Comparator<Object[]> order(List<SortKey> keys) {
    SortKey[] sorted = keys.toArray(new SortKey[0]);
    return (a, b) -> {
      for (SortKey key : sorted) {
        Object x = a[key.field()];
        Object y = b[key.field()];
        int c;
        if (x == null || y == null) {
          c = x == y ? 0 : (x == null) == key.nullsFirst() ? -1 : 1;
        } else {
          c = ((Comparable) x).compareTo(y);
          if (key.descending()) {
            c = -c;
          }
        }
        if (c != 0) {
          return c;
        }
      }
      return 0;
    };
  }
}
