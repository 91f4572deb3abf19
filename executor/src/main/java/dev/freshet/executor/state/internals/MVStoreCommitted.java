package dev.freshet.executor.state.internals;

import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.h2.mvstore.MVStore;

/**
 * The latest committed version {@code L} of an {@link MVStoreStateStoreProvider} file as MVStore
 * held it right after its commit: the roots of the data map and, if {@code L > 0}, of the
 * committed undo map. Pins of {@code L} and {@code L - 1} read them on other threads.
 *
 * <p>MVStore frees a chunk once every page in it was replaced in a version older than its oldest
 * version in use ({@link MVStore#registerVersionUsage()}). The usage registered here, right after
 * the commit, is of the MVStore version in which every later change to those roots' pages is
 * made, so none of their chunks is freed while it is registered: until the provider's reference
 * (released when the next version is committed, or the provider closed) and every pin's are
 * released. The provider's own {@code versionsToKeep} setting keeps chunks only for the batch
 * thread's read stores, which die at the next commit; this one is what pins rely on.
 *
 * <pre>{@code
 * MVStoreCommitted c = new MVStoreCommitted(mvStore, registered, latest, previous);
 * if (c.retain()) {
 *   try { read(c.snapshot(c.version)); } finally { c.release(); }
 * }
 * }</pre>
 */
final class MVStoreCommitted {
  final long version;
  /** The version's roots; what pins of it copy. */
  private final MVStoreSnapshot latest;
  /** The roots of {@code version - 1}; null for version 0. */
  private final MVStoreSnapshot previous;
  private final MVStore mvStore;
  /** Every registered usage of the file, which closing it deregisters. */
  private final Set<MVStoreCommitted> registered;
  private final MVStore.TxCounter usage;
  /** The provider's reference and one per pin or change read; at 0 the usage is deregistered. */
  private final AtomicInteger references = new AtomicInteger(1);
  private final AtomicBoolean deregistered = new AtomicBoolean();

  /** Registers the usage of MVStore's current version: call right after the commit. */
  MVStoreCommitted(MVStore mvStore, Set<MVStoreCommitted> registered, MVStoreSnapshot latest,
      MVStoreSnapshot previous) {
    this.version = latest.version;
    this.latest = latest;
    this.previous = previous;
    this.mvStore = mvStore;
    this.registered = registered;
    this.usage = mvStore.registerVersionUsage();
    registered.add(this);
  }

  /** The roots of {@code version}. */
  MVStoreSnapshot latest() {
    return latest;
  }

  /** The roots of {@code version - 1}; null for version 0. */
  MVStoreSnapshot previous() {
    return previous;
  }

  /** The oldest version these roots can read, and the oldest whose changes they hold. */
  long oldest() {
    return previous == null ? version : version - 1;
  }

  /** A snapshot of {@code version} or {@code version - 1} of its own, for a pin. */
  MVStoreSnapshot snapshot(long at) {
    return (at == version ? latest : previous).copy();
  }

  /** Adds a reference unless the last was released; whether it did. */
  boolean retain() {
    int n;
    do {
      n = references.get();
      if (n == 0) {
        return false;
      }
    } while (!references.compareAndSet(n, n + 1));
    return true;
  }

  void release() {
    if (references.decrementAndGet() == 0) {
      deregister();
    }
  }

  /** Lets MVStore free the chunks only these roots read; once. */
  void deregister() {
    if (deregistered.compareAndSet(false, true)) {
      registered.remove(this);
      if (!mvStore.isClosed()) {
        mvStore.deregisterVersionUsage(usage);
      }
    }
  }
}
