package dev.freshet.pgwire.protocol;

import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The BackendKeyData of the open connections: a process id and a random secret key each, which
 * a CancelRequest on another connection must name to cancel what that connection runs.
 */
final class CancelKeys {
  private final SecureRandom random;
  private final AtomicInteger nextId = new AtomicInteger(1);
  private final Map<Integer, Entry> byId = new ConcurrentHashMap<>();

  CancelKeys(SecureRandom random) {
    this.random = random;
  }

  /** What a key cancels. */
  interface Cancellable {
    void cancelRequested();
  }

  private record Entry(int secret, Cancellable target) {
  }

  /** A key for {@code target}: {@code [processId, secretKey]}. */
  int[] register(Cancellable target) {
    int id = nextId.getAndUpdate(i -> i == Integer.MAX_VALUE ? 1 : i + 1);
    int secret = random.nextInt();
    byId.put(id, new Entry(secret, target));
    return new int[] {id, secret};
  }

  void remove(int processId) {
    byId.remove(processId);
  }

  /** Cancels for a CancelRequest; a wrong or unknown key does nothing, as in PostgreSQL. */
  void cancel(int processId, int secret) {
    Entry entry = byId.get(processId);
    if (entry != null && entry.secret() == secret) {
      entry.target().cancelRequested();
    }
  }
}
