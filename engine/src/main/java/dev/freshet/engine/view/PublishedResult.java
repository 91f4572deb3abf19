package dev.freshet.engine.view;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.rex.RexNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What every view result that publishes one {@link ViewVersion} per batch shares: the current
 * version, which readers pin and the batch thread replaces; and the subscribers, who get a
 * starting point (the current rows, or the changes after a version they saw) and then every
 * batch's change rows, none twice and none missed ({@link ChangeGate}).
 */
public abstract class PublishedResult implements VersionedResult, AutoCloseable {
  /** The view's name, for messages. */
  final String view;
  /** The view's columns. */
  final int columns;
  private final AtomicReference<ViewVersion> current = new AtomicReference<>(ViewVersion.EMPTY);
  private final CopyOnWriteArrayList<ChangeGate> gates = new CopyOnWriteArrayList<>();
  private volatile boolean closed;

  PublishedResult(String view, int columns) {
    this.view = requireNonNull(view, "view");
    this.columns = columns;
  }

  /** The latest published batch; -1 before the first. */
  @Override public long batchId() {
    return current.get().batchId();
  }

  /** The latest published version, not retained: the batch thread's view of it. */
  ViewVersion current() {
    return current.get();
  }

  /**
   * Makes {@code next} (whose one reference passes to this result) the current version, then
   * hands {@code changes} of batch {@code next.batchId()} to the subscribers, unless
   * {@code quiet} (a batch that re-ran after a restart: they have its changes). Batch thread.
   */
  void publish(ViewVersion next, List<Object[]> changes, boolean quiet) {
    current.getAndSet(next).release();
    if (!quiet) {
      for (ChangeGate gate : gates) {
        gate.committed(next.batchId(), changes);
      }
    }
    for (Runnable listener : publishListeners) {
      listener.run();
    }
  }

  /**
   * Runs {@code listener} whenever a version is published (on the batch thread; it must be
   * cheap): how a continuous query reading the view learns of new changes.
   *
   * @return a handle that unregisters the listener
   */
  public AutoCloseable onPublished(Runnable listener) {
    publishListeners.add(listener);
    return () -> publishListeners.remove(listener);
  }

  private final CopyOnWriteArrayList<Runnable> publishListeners = new CopyOnWriteArrayList<>();

  /**
   * Keeps batch {@code next}'s version and changes until {@link #publishStaged}: a batch is
   * shown only once its query has committed it (its {@code commits/N} is durable), so that no
   * reader ever sees a batch that a crash would make run again. Batch thread.
   */
  void stage(ViewVersion next, List<Object[]> changes, boolean quiet) {
    if (staged != null) {
      // A batch staged and never committed (its commit failed): it is not shown.
      staged.next().release();
    }
    staged = new Staged(next, changes, quiet);
  }

  /** Publishes what {@link #stage} kept, if anything: the query committed the batch. */
  public void publishStaged() {
    Staged s = staged;
    if (s != null) {
      staged = null;
      publish(s.next(), s.changes(), s.quiet());
    }
  }

  /** A batch's version and changes, waiting for the batch's commit. */
  private record Staged(ViewVersion next, List<Object[]> changes, boolean quiet) {
  }

  /** Batch thread only. */
  private Staged staged;

  @Override public ViewVersion pin() throws SQLException {
    while (true) {
      if (closed) {
        throw Errors.of(SqlState.OBJECT_NOT_FOUND, "Materialized view " + view
            + " was dropped. Create it again to read it");
      }
      ViewVersion v = current.get();
      if (v.tryRetain()) {
        return v;
      }
    }
  }

  /** The version the statement of {@code root} pinned, or null (the caller pins one). */
  @Nullable ViewVersion pinnedBy(DataContext root) {
    return ViewPins.of(root).map(p -> p.version(this)).orElse(null);
  }

  /**
   * The version the statement of {@code root} pinned, or the current one for a caller without a
   * statement: released at once, for results whose versions hold immutable rows, which stay
   * readable without a reference.
   */
  ViewVersion versionOfRows(DataContext root) {
    ViewVersion pinned = pinnedBy(root);
    if (pinned != null) {
      return pinned;
    }
    try {
      ViewVersion v = pin();
      v.release();
      return v;
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  @Override public Enumerable<@Nullable Object[]> scan(DataContext root) {
    return scan(root, List.of(), null);
  }

  /**
   * Subscribes {@code listener} to the view's changes: first, without {@code sinceBatch} (-1),
   * the current rows as INSERTs in one call; with it, the changes of each batch after it, one
   * call per batch; then each batch as it is published, on the query's batch thread.
   *
   * @return a handle whose {@code close()} ends the subscription
   * @throws SQLException (22023) if the view has no version {@code sinceBatch} or no longer
   *     keeps the changes after it
   */
  public AutoCloseable subscribe(long sinceBatch, ChangeListener listener) throws SQLException {
    ChangeGate gate = new ChangeGate(listener);
    // Registered before the version is pinned: a batch published later reaches the gate.
    gates.add(gate);
    ViewVersion v;
    try {
      v = pin();
    } catch (SQLException e) {
      gates.remove(gate);
      throw e;
    }
    try {
      if (sinceBatch < 0) {
        if (v.batchId() >= 0) {
          listener.committed(v.batchId(), snapshot(v));
        }
      } else if (sinceBatch > v.batchId()) {
        throw Errors.of(SqlState.INVALID_PARAMETER_VALUE, "View " + view + " has no version "
            + sinceBatch + ": its latest is " + v.batchId() + ". Resume from a version you have"
            + " seen, or subscribe without 'since_version' to start from the view's current"
            + " rows");
      } else if (sinceBatch < v.batchId()) {
        replay(sinceBatch, v, listener);
      }
      gate.goLive(v.batchId());
      return () -> gates.remove(gate);
    } catch (SQLException | RuntimeException e) {
      gates.remove(gate);
      throw e;
    } finally {
      v.release();
    }
  }

  /** Every row of {@code v} as an INSERT change row ({@link ViewChanges}). */
  abstract List<Object[]> snapshot(ViewVersion v);

  /**
   * Hands {@code listener} the change rows of the batches after {@code sinceBatch} (which is
   * before {@code v}'s) up to {@code v}'s, one call per batch.
   *
   * @throws SQLException (22023) if they are no longer kept
   */
  abstract void replay(long sinceBatch, ViewVersion v, ChangeListener listener)
      throws SQLException;

  /** The 22023 error of a subscriber who wants changes the view no longer keeps. */
  SQLException changesNotKept(long sinceBatch, long oldest, @Nullable Throwable cause) {
    return Errors.of(SqlState.INVALID_PARAMETER_VALUE, "View " + view + " no longer keeps the"
        + " changes after version " + sinceBatch + (oldest < 0 ? ""
        : ": the oldest it keeps are those of version " + oldest) + ". Subscribe without"
        + " 'since_version' to start from the view's current rows, or keep more versions with"
        + " SET 'min.batches.to.retain'", cause);
  }

  /** The columns {@code projects} of {@code row}, or the row itself if null. */
  static Object[] project(Object[] row, int @Nullable [] projects) {
    if (projects == null) {
      return row;
    }
    Object[] projected = new Object[projects.length];
    for (int i = 0; i < projects.length; i++) {
      projected[i] = row[projects[i]];
    }
    return projected;
  }

  /**
   * Stops serving the view (DROP, engine close): readers that start later fail with 42S02; those
   * reading finish on the version they pinned.
   */
  @Override public void close() {
    closed = true;
    current.getAndSet(ViewVersion.EMPTY).release();
    gates.clear();
  }

  /** The view's rows with the statement's filters, as {@code ViewResult} describes. */
  @Override public abstract Enumerable<@Nullable Object[]> scan(DataContext root,
      List<RexNode> filters, int @Nullable [] projects);
}
