package dev.freshet.executor.operators;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.source.ReferenceData;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Joins each row of a stream with the rows of a reference table as they were when the batch
 * started, as Spark's stream-static join does: an inner join emits one row per match, a left
 * outer join also emits a stream row that matches nothing, with NULLs for the table's columns.
 * Rows emitted in earlier batches are never revised when the table changes.
 *
 * <pre>{@code
 * // orders (id, product_id) JOIN products (id, category) ON o.product_id = p.id
 * new StreamTableJoinOperator(new StreamTableJoinOperator.Spec(products, null, 2,
 *     new int[] {1}, new int[] {0}, null, false, false, 2), downstream);
 * // pushes (order id, product id, product id, category) for every match
 * }</pre>
 *
 * <p>At the start of a batch the table's rows (through the table-side calc, if any) go into a
 * hash map by their key columns; a table whose {@linkplain ReferenceData#version version} did not
 * change since the last batch keeps its map. Each stream row then probes the map without
 * allocating: one key column probes with the row's own value, several with a reused probe key.
 * SQL equality holds: a NULL key matches nothing.
 */
public final class StreamTableJoinOperator extends ForwardingOperator {
  /**
   * What the join does.
   *
   * @param table the reference table
   * @param tableCalc filters and projects the table's rows before the join, or null
   * @param tableWidth the columns of a table-side row (after {@code tableCalc})
   * @param streamKeys key columns of the stream's rows
   * @param tableKeys key columns of the table-side rows, one per stream key, of the same types
   * @param residual a further condition over the joined row (its output is unused), or null
   * @param outer whether a stream row that matches nothing is emitted with NULLs
   * @param tableFirst whether the joined row has the table's columns first (the query named the
   *     table first)
   * @param streamWidth the columns of a stream row
   */
  public record Spec(ReferenceData table, RowCalc tableCalc, int tableWidth,
      int[] streamKeys, int[] tableKeys, RowCalc residual, boolean outer,
      boolean tableFirst, int streamWidth) {
    public Spec {
      requireNonNull(table, "table");
      if (streamKeys.length != tableKeys.length) {
        throw new IllegalArgumentException("stream keys " + Arrays.toString(streamKeys)
            + " and table keys " + Arrays.toString(tableKeys) + " differ in number");
      }
      for (int k : streamKeys) {
        if (k < 0 || k >= streamWidth) {
          throw new IllegalArgumentException("stream key " + k + " is not a column of "
              + streamWidth);
        }
      }
      for (int k : tableKeys) {
        if (k < 0 || k >= tableWidth) {
          throw new IllegalArgumentException("table key " + k + " is not a column of "
              + tableWidth);
        }
      }
    }
  }

  private static final Object[] NO_OUTPUT = new Object[0];

  private final Spec spec;
  /** Table-side rows by key: the key value itself, or a {@link CompositeKey}. */
  private Map<Object, List<Object[]>> rows = Map.of();
  /** The version of the table that {@link #rows} holds; UNKNOWN_VERSION to read again. */
  private long rowsVersion = ReferenceData.UNKNOWN_VERSION;
  /** Reused to probe with several key columns. */
  private final CompositeKey probe;
  /** The joined row, reused for every output row of a batch; null until its first row. */
  private Object[] out;
  /** Where the stream's and the table's columns start in a joined row. */
  private final int streamAt;
  private final int tableAt;

  public StreamTableJoinOperator(Spec spec, Operator downstream) {
    super(downstream);
    this.spec = requireNonNull(spec, "spec");
    this.probe = spec.streamKeys().length > 1 ? new CompositeKey(spec.streamKeys().length) : null;
    this.streamAt = spec.tableFirst() ? spec.tableWidth() : 0;
    this.tableAt = spec.tableFirst() ? 0 : spec.streamWidth();
  }

  /** The reference table's description, e.g. for a plan or a progress report. */
  public String table() {
    return spec.table().description();
  }

  @Override public void startBatch(BatchContext batch) {
    long version = spec.table().version();
    if (version == ReferenceData.UNKNOWN_VERSION || version != rowsVersion) {
      // Read before the version is kept: a change during the scan makes the next batch read
      // again, never keep rows older than the version says.
      rows = snapshot();
      rowsVersion = version;
    }
    out = null;
    downstream.startBatch(batch);
  }

  private Map<Object, List<Object[]>> snapshot() {
    Map<Object, List<Object[]>> map = new HashMap<>();
    int[] keys = spec.tableKeys();
    RowCalc calc = spec.tableCalc();
    spec.table().scan(row -> {
      Object[] side = row;
      if (calc != null) {
        side = new Object[spec.tableWidth()];
        if (!calc.apply(row, side)) {
          return;
        }
      }
      Object key;
      if (keys.length == 1) {
        key = side[keys[0]];
      } else {
        Object[] values = new Object[keys.length];
        for (int i = 0; i < keys.length; i++) {
          values[i] = side[keys[i]];
        }
        key = new CompositeKey(values);
      }
      if (key == null || key instanceof CompositeKey c && c.hasNull()) {
        return;
      }
      map.computeIfAbsent(key, k -> new ArrayList<>(1)).add(side);
    });
    return map;
  }

  @Override public void push(Object[] row) {
    Object[] out = this.out;
    if (out == null) {
      out = this.out = new Object[spec.streamWidth() + spec.tableWidth()];
    }
    List<Object[]> matches = rows.isEmpty() ? null : rows.get(probeKey(row));
    boolean matched = false;
    if (matches != null) {
      System.arraycopy(row, 0, out, streamAt, spec.streamWidth());
      for (int i = 0, n = matches.size(); i < n; i++) {
        System.arraycopy(matches.get(i), 0, out, tableAt, spec.tableWidth());
        if (spec.residual() == null || spec.residual().apply(out, NO_OUTPUT)) {
          matched = true;
          downstream.push(out);
        }
      }
    }
    if (!matched && spec.outer()) {
      System.arraycopy(row, 0, out, streamAt, spec.streamWidth());
      Arrays.fill(out, tableAt, tableAt + spec.tableWidth(), null);
      downstream.push(out);
    }
  }

  /** The key of a stream row as the map holds keys; null (no match) if a key column is NULL. */
  private Object probeKey(Object[] row) {
    int[] keys = spec.streamKeys();
    if (probe == null) {
      return row[keys[0]];
    }
    Object[] values = probe.values;
    for (int i = 0; i < keys.length; i++) {
      Object v = row[keys[i]];
      if (v == null) {
        return null;
      }
      values[i] = v;
    }
    probe.rehash();
    return probe;
  }

  /** Several key values; the probe's values change between lookups, a stored key's never. */
  private static final class CompositeKey {
    final Object[] values;
    private int hash;

    CompositeKey(int width) {
      this.values = new Object[width];
    }

    CompositeKey(Object[] values) {
      this.values = values;
      rehash();
    }

    void rehash() {
      hash = Arrays.hashCode(values);
    }

    boolean hasNull() {
      for (Object v : values) {
        if (v == null) {
          return true;
        }
      }
      return false;
    }

    @Override public int hashCode() {
      return hash;
    }

    @Override public boolean equals(Object o) {
      return o instanceof CompositeKey k && Arrays.equals(values, k.values);
    }
  }
}
