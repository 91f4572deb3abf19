package dev.freshet.executor.operators.rank;

import dev.freshet.executor.operators.OutputMode;
import dev.freshet.executor.operators.SortKey;
import java.util.List;

/**
 * What a {@link StreamTopNOperator} keeps: the {@code limit} best rows of each group, the
 * {@code ROW_NUMBER() OVER (PARTITION BY keys ORDER BY order) <= limit} of a stream.
 *
 * <pre>{@code
 * // ROW_NUMBER() OVER (PARTITION BY $0 ORDER BY $1 DESC) <= 3 over (k, v), UPDATE mode:
 * new TopNSpec(0, new int[] {0}, List.of(new SortKey(1, true, false)), 3, OutputMode.UPDATE,
 *     true);
 * }</pre>
 *
 * @param operatorId the stateful operator id: the state directory {@code state/<id>/}
 * @param keys the input columns that make a group ({@code PARTITION BY})
 * @param order the {@code ORDER BY} columns; rows equal on all of them rank by arrival
 * @param limit the most rows kept per group, at least 1
 * @param mode UPDATE emits the ranks a batch changed, COMPLETE every group's ranks every batch
 * @param newKeyFlag whether each emitted row ends with a BOOLEAN that is true for a rank the
 *     group did not have before the batch
 */
public record TopNSpec(int operatorId, int[] keys, List<SortKey> order, long limit,
    OutputMode mode, boolean newKeyFlag) {
  public TopNSpec {
    keys = keys.clone();
    order = List.copyOf(order);
    if (operatorId < 0) {
      throw new IllegalArgumentException("operatorId must not be negative: " + operatorId);
    }
    if (limit < 1 || limit > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("limit must be between 1 and " + Integer.MAX_VALUE
          + ": " + limit);
    }
    if (mode == OutputMode.APPEND) {
      throw new IllegalArgumentException("a top-N emits in UPDATE or COMPLETE mode, not APPEND");
    }
  }

  @Override public int[] keys() {
    return keys.clone();
  }
}
