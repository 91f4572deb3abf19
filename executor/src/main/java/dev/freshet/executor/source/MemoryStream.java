package dev.freshet.executor.source;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Stream whose rows arrive by {@code INSERT}: each call of {@link #addData} is one offset, so the
 * rows of one statement become visible together, in one micro-batch, or not at all.
 *
 * <pre>{@code
 * MemoryStream clicks = new MemoryStream("clicks", 2);
 * long offset = clicks.addData(List.of(new Object[] {"a", 1.0}, new Object[] {"b", 2.0}));  // 1
 * }</pre>
 *
 * <p>Writers are serialized; readers never block writers for long: a reader copies the list of
 * offsets under the lock and reads the immutable row lists outside it.
 */
public final class MemoryStream implements Source {
  private final String name;
  private final int fieldCount;
  /** Rows of offset {@code i + 1} at index {@code i}; each element is immutable once added. */
  private final ArrayList<List<Object[]>> offsets = new ArrayList<>();
  private final CopyOnWriteArrayList<Runnable> listeners = new CopyOnWriteArrayList<>();

  public MemoryStream(String name, int fieldCount) {
    this.name = requireNonNull(name, "name");
    this.fieldCount = fieldCount;
  }

  @Override public String description() {
    return "MemoryStream[" + name + "]";
  }

  /**
   * Appends the rows of one statement as one new offset and returns that offset.
   * An empty list adds no offset.
   */
  public long addData(List<Object[]> rows) {
    List<Object[]> copy = new ArrayList<>(rows.size());
    for (Object[] row : rows) {
      if (row.length != fieldCount) {
        throw new IllegalArgumentException(description() + " expects " + fieldCount
            + " columns per row, got " + row.length);
      }
      copy.add(row.clone());
    }
    long offset;
    synchronized (offsets) {
      if (copy.isEmpty()) {
        return offsets.size();
      }
      offsets.add(List.copyOf(copy));
      offset = offsets.size();
    }
    for (Runnable listener : listeners) {
      listener.run();
    }
    return offset;
  }

  @Override public long latestOffset() {
    synchronized (offsets) {
      return offsets.size();
    }
  }

  @Override public void readRange(long start, long end, Consumer<Object[]> rows) {
    if (start < 0 || end < start) {
      throw new IllegalArgumentException("bad offset range (" + start + ", " + end + "]");
    }
    List<List<Object[]>> slice;
    synchronized (offsets) {
      if (end > offsets.size()) {
        throw new IllegalArgumentException(description() + " has no offset " + end
            + "; latest is " + offsets.size());
      }
      slice = new ArrayList<>(offsets.subList((int) start, (int) end));
    }
    for (List<Object[]> statement : slice) {
      for (Object[] row : statement) {
        rows.accept(row);
      }
    }
  }

  @Override public AutoCloseable onNewData(Runnable listener) {
    listeners.add(requireNonNull(listener, "listener"));
    return () -> listeners.remove(listener);
  }
}
