package dev.freshet.executor.operators;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.state.GroupKey;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a key and its saved sessions into the rows a {@link SessionWindowOperator} emits for them:
 * per session the grouping columns (the key's values, the session's start and end where the spec
 * puts them), then the SQL value of each aggregate. What the operator emits for a session equals
 * what this computes from the committed state, so a COMPLETE view restarted from its state has
 * the rows its last batch emitted.
 *
 * <pre>{@code
 * SessionRows rows = new SessionRows(spec);
 * for (Object[] row : rows.rows(key, store.get(key))) { ... }   // [k, start, end, COUNT(*)]
 * }</pre>
 *
 * <p>Stateless: any number of threads may use one instance.
 */
public final class SessionRows {
  private final SessionWindowSpec spec;
  private final Accumulator[] merge;
  private final int groupCount;
  private final int keyCount;
  /** Per output grouping column, the position in the key of its value, or -1 for a bound. */
  private final int[] keyPositions;

  /** The rows of the aggregation {@code spec} describes. */
  public SessionRows(SessionWindowSpec spec) {
    this.spec = requireNonNull(spec, "spec");
    this.groupCount = spec.groupSet().length;
    this.keyCount = spec.keyIndexes().length;
    this.merge = new Accumulator[spec.mergeCalls().size()];
    for (int i = 0; i < merge.length; i++) {
      merge[i] = Accumulator.merge(spec.mergeCalls().get(i), groupCount + i);
    }
    this.keyPositions = new int[groupCount];
    for (int i = 0, k = 0; i < groupCount; i++) {
      keyPositions[i] = i == spec.startKey() || i == spec.endKey() ? -1 : k++;
    }
  }

  /** The rows of the sessions {@code saved} (as the state store keeps them) of {@code key}. */
  public List<Object[]> rows(Object key, Object[] saved) {
    List<Object[]> rows = new ArrayList<>();
    for (SessionList.Session s : SessionList.restore(saved, merge).sessions()) {
      rows.add(row(key, s));
    }
    return rows;
  }

  /** The row of session {@code s} of {@code key}, in a new array. */
  Object[] row(Object key, SessionList.Session s) {
    Object[] row = new Object[spec.outputFieldCount()];
    for (int i = 0; i < groupCount; i++) {
      if (i == spec.startKey()) {
        row[i] = s.start;
      } else if (i == spec.endKey()) {
        row[i] = s.end;
      } else {
        row[i] = keyCount == 1 ? key : ((GroupKey) key).get(keyPositions[i]);
      }
    }
    for (Accumulator a : merge) {
      row[a.slot] = a.result(s.buffer[a.slot]);
    }
    return row;
  }
}
