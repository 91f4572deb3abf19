package dev.freshet.executor.vector;

import java.util.Arrays;

/**
 * Up to {@link #capacity()} rows as one {@link ColumnVector} per column, and which of them are
 * still in play: a filter does not move values, it narrows the batch's selection.
 *
 * <pre>{@code
 * VectorBatch batch = VectorBatch.of(new VectorType[] {VectorType.LONG, null}, 4096);
 * batch.column(0).longs[0] = 7;                   // or appendRow(new Object[] {7L, "x"})
 * batch.setSize(1);
 * for (int j = 0; j < batch.selectedCount(); j++) {
 *   int row = batch.selectedRow(j);               // 0, 1, ... unless a filter selected rows
 * }
 * }</pre>
 *
 * <p>A reader allocates a batch once and refills it: the vectors, the selection and the batch are
 * reused for every batch of rows, so reading costs no allocation per row. A column the consumer
 * does not read may have no vector (its type null): {@link #appendRow} skips it.
 */
public final class VectorBatch {
  /** Rows a batch holds unless told otherwise: small enough for its vectors to stay in cache. */
  public static final int DEFAULT_CAPACITY = 4096;

  private final VectorType[] types;
  private final ColumnVector[] columns;
  private final int capacity;
  private int size;
  /** The selected rows in ascending order, when {@link #selectionInUse}. */
  private final int[] selection;
  private int selectedCount;
  private boolean selectionInUse;

  private VectorBatch(VectorType[] types, ColumnVector[] columns, int capacity) {
    this.types = types;
    this.columns = columns;
    this.capacity = capacity;
    this.selection = new int[capacity];
  }

  /**
   * A batch with a vector for each non-null type of {@code types}.
   *
   * @param types the columns' types; null for a column that has no vector
   * @param capacity rows per batch, positive
   */
  public static VectorBatch of(VectorType[] types, int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be positive: " + capacity);
    }
    ColumnVector[] columns = new ColumnVector[types.length];
    for (int i = 0; i < types.length; i++) {
      columns[i] = types[i] == null ? null : ColumnVector.of(types[i], capacity);
    }
    return new VectorBatch(types.clone(), columns, capacity);
  }

  /**
   * A batch whose columns are other batches' or expressions' vectors, set with
   * {@link #setColumn}: a calc's output, which shares its input's rows.
   */
  public static VectorBatch view(VectorType[] types, int capacity) {
    return new VectorBatch(types.clone(), new ColumnVector[types.length], capacity);
  }

  /** Rows the batch holds at most. */
  public int capacity() {
    return capacity;
  }

  /** Number of columns. */
  public int columnCount() {
    return columns.length;
  }

  /** The vector of column {@code i}, or null if it has none. */
  public ColumnVector column(int i) {
    return columns[i];
  }

  /** The type of column {@code i}, or null if it has no vector. */
  public VectorType type(int i) {
    return types[i];
  }

  /** Makes {@code vector} column {@code i} of this view. */
  public void setColumn(int i, ColumnVector vector) {
    columns[i] = vector;
  }

  /** Rows in the batch, selected or not. */
  public int size() {
    return size;
  }

  /** Sets the number of rows written, all of them selected. */
  public void setSize(int size) {
    if (size < 0 || size > capacity) {
      throw new IllegalArgumentException("size " + size + " of a batch of " + capacity);
    }
    this.size = size;
    this.selectedCount = size;
    this.selectionInUse = false;
  }

  /**
   * Empties the batch: the next {@link #appendRow} writes row 0, and the STRING columns'
   * dictionaries start again empty (so that a dictionary holds one batch's strings).
   */
  public void reset() {
    setSize(0);
    for (ColumnVector c : columns) {
      if (c != null) {
        c.noNulls = true;
        if (c.dictionary != null) {
          c.dictionary.clear();
        }
      }
    }
  }

  /** Whether the batch holds {@link #capacity()} rows. */
  public boolean isFull() {
    return size == capacity;
  }

  /**
   * Appends a row in the row path's representation (numbers as any {@code Number}, BOOLEAN as
   * {@code Boolean}, VARCHAR as {@code String}, encoded into its column's dictionary, NULL as
   * null); columns without a vector are skipped. For sources that hold
   * rows as arrays: the values are copied, the row is not kept.
   *
   * @throws IllegalStateException if the batch is full
   */
  public void appendRow(Object[] row) {
    if (size == capacity) {
      throw new IllegalStateException("the batch is full");
    }
    int i = size;
    for (int c = 0; c < columns.length; c++) {
      ColumnVector v = columns[c];
      if (v == null) {
        continue;
      }
      Object value = row[c];
      v.nulls[i] = value == null;
      if (value == null) {
        v.noNulls = false;
      } else if (types[c] == VectorType.DOUBLE) {
        v.doubles[i] = ((Number) value).doubleValue();
      } else if (types[c] == VectorType.STRING) {
        v.codes[i] = v.dictionary.encode((String) value);
      } else if (types[c] == VectorType.BOOLEAN) {
        v.longs[i] = (Boolean) value ? 1 : 0;
      } else {
        v.longs[i] = ((Number) value).longValue();
      }
    }
    setSize(i + 1);
  }

  /** Number of selected rows. */
  public int selectedCount() {
    return selectedCount;
  }

  /** Whether only some rows are selected: then {@link #selection()} lists them. */
  public boolean selectionInUse() {
    return selectionInUse;
  }

  /** The selected rows, ascending, in its first {@link #selectedCount()} elements. */
  public int[] selection() {
    return selection;
  }

  /** The row of the {@code j}-th selected row. */
  public int selectedRow(int j) {
    return selectionInUse ? selection[j] : j;
  }

  /**
   * Selects the first {@code count} rows of {@link #selection()}, which the caller has written
   * (ascending).
   */
  public void select(int count) {
    this.selectedCount = count;
    this.selectionInUse = true;
  }

  /** Takes the rows and selection of {@code other}, whose columns this view shares. */
  public void shareRows(VectorBatch other) {
    this.size = other.size;
    this.selectedCount = other.selectedCount;
    this.selectionInUse = other.selectionInUse;
    if (other.selectionInUse) {
      System.arraycopy(other.selection, 0, selection, 0, other.selectedCount);
    }
  }

  @Override public String toString() {
    return "VectorBatch[" + size + " rows, " + selectedCount + " selected, "
        + Arrays.toString(types) + "]";
  }
}
