package dev.freshet.executor.source;

import java.util.ArrayList;
import java.util.List;

/**
 * The rows the stream-log tests write and expect back: statement {@code i} inserts two rows,
 * {@code ('k<i>', i)} and {@code ('k<i>b', -i)}, so the N column of rows read back names the
 * statements they came from.
 *
 * <pre>{@code
 * stream.append(NumberedStatements.statement(3));
 * assertEquals(NumberedStatements.expected(3, 4), ns);   // [3, -3, 4, -4]
 * }</pre>
 */
final class NumberedStatements {
  private NumberedStatements() {
  }

  /** The two rows of statement {@code i}. */
  static List<Object[]> statement(long i) {
    return List.of(new Object[] {"k" + i, i}, new Object[] {"k" + i + "b", -i});
  }

  /** The N column of statements {@code fromOffset..toOffset}, in order. */
  static List<Long> expected(long fromOffset, long toOffset) {
    List<Long> ns = new ArrayList<>();
    for (long i = fromOffset; i <= toOffset; i++) {
      ns.add(i);
      ns.add(-i);
    }
    return ns;
  }
}
