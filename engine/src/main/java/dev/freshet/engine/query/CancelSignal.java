package dev.freshet.engine.query;

import static java.util.Objects.requireNonNull;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The cancellation of one statement's execution, which a driver holds and the engine attaches the
 * running query to: a cancel that comes before the query started, while it runs, or never, all
 * do the right thing.
 *
 * <pre>{@code
 * CancelSignal signal = new CancelSignal();
 * // another thread, e.g. Statement.cancel():
 * signal.cancel();
 * // the executing thread:
 * session.execute("SELECT COUNT(*) FROM big a, big b", signal);   // 57014 once cancelled
 * }</pre>
 */
public final class CancelSignal {
  private boolean cancelled;
  private @Nullable Runnable onCancel;

  /** Cancels what is attached now, and what is attached later. Idempotent, any thread. */
  public void cancel() {
    Runnable action;
    synchronized (this) {
      cancelled = true;
      action = onCancel;
    }
    if (action != null) {
      action.run();
    }
  }

  /** Whether {@link #cancel} was called. */
  public synchronized boolean isCancelled() {
    return cancelled;
  }

  /** Runs {@code action} on {@link #cancel}; at once if it was cancelled already. */
  public void attach(Runnable action) {
    requireNonNull(action, "action");
    boolean now;
    synchronized (this) {
      onCancel = action;
      now = cancelled;
    }
    if (now) {
      action.run();
    }
  }

  /** Forgets the attached action: the query it stopped has ended. */
  public synchronized void detach() {
    onCancel = null;
  }
}
