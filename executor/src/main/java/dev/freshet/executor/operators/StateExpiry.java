package dev.freshet.executor.operators;

/**
 * A state time-to-live (Flink's {@code table.exec.state.ttl}): a key of a stateful operator that
 * no batch has written for {@code ttlMs} of processing time is dropped from the state, and a
 * later row of it starts afresh.
 *
 * <p>Time is the batch's timestamp ({@link BatchContext#batchTimestampMs()}), which the offset
 * log records before the batch runs: a batch re-run after a restart expires exactly what it
 * expired the first time, so the committed state versions are the same either way. Each key's
 * state keeps the time it was last written (its "write time").
 *
 * <p>An operator scans its state for expired keys only when one may be due: this object keeps
 * a lower bound of the write times in state (exact after each scan, lowered by each write), so
 * that a batch scans at most once per {@code ttl} and a batch without rows runs when the
 * earliest key falls due ({@link #nextExpiryMs()}), also when no data arrives.
 *
 * <pre>{@code
 * StateExpiry expiry = StateExpiry.after(3_600_000);
 * if (expiry.due(batch.batchTimestampMs())) {
 *   // remove every key with expiry.expired(writtenMs, now); expiry.scanned(leastKeptWriteMs)
 * }
 * expiry.wrote(batch.batchTimestampMs());     // for each key written
 * }</pre>
 */
public final class StateExpiry {
  /** The write times in state are not known: the state was not scanned since (re)start. */
  private static final long UNKNOWN = Long.MIN_VALUE;

  private final long ttlMs;
  /** A lower bound of the write times in state, {@link Long#MAX_VALUE} for none. */
  private long oldestWriteMs = UNKNOWN;

  private StateExpiry(long ttlMs) {
    this.ttlMs = ttlMs;
  }

  /** An expiry of keys not written for {@code ttlMs}; 0 for none (keys are kept forever). */
  public static StateExpiry after(long ttlMs) {
    if (ttlMs < 0) {
      throw new IllegalArgumentException("a state TTL must not be negative: " + ttlMs);
    }
    return new StateExpiry(ttlMs);
  }

  /** Whether keys expire at all. */
  public boolean enabled() {
    return ttlMs > 0;
  }

  /** The time-to-live in ms, 0 for none. */
  public long ttlMs() {
    return ttlMs;
  }

  /** Whether a batch at {@code nowMs} should scan the state for expired keys. */
  public boolean due(long nowMs) {
    return ttlMs > 0 && (oldestWriteMs == UNKNOWN
        || oldestWriteMs != Long.MAX_VALUE && oldestWriteMs + ttlMs <= nowMs);
  }

  /** Whether a key last written at {@code writtenMs} has expired at {@code nowMs}. */
  public boolean expired(long writtenMs, long nowMs) {
    return ttlMs > 0 && writtenMs + ttlMs <= nowMs;
  }

  /** Records that a key was written at {@code nowMs}. */
  public void wrote(long nowMs) {
    if (oldestWriteMs != UNKNOWN && nowMs < oldestWriteMs) {
      oldestWriteMs = nowMs;
    }
  }

  /**
   * Records a scan of the whole state: {@code oldestKeptMs} is the least write time of the keys
   * it kept, {@link Long#MAX_VALUE} if none.
   */
  public void scanned(long oldestKeptMs) {
    oldestWriteMs = oldestKeptMs;
  }

  /** Forgets what the state holds (after an abort): the next batch scans it. */
  public void forget() {
    oldestWriteMs = UNKNOWN;
  }

  /**
   * The processing time at which a key may expire, so that a batch without data should run:
   * {@link Long#MAX_VALUE} when none will, {@link Long#MIN_VALUE} when the state was not scanned
   * since the operator started.
   */
  public long nextExpiryMs() {
    if (ttlMs == 0 || oldestWriteMs == Long.MAX_VALUE) {
      return Long.MAX_VALUE;
    }
    return oldestWriteMs == UNKNOWN ? Long.MIN_VALUE : oldestWriteMs + ttlMs;
  }
}
