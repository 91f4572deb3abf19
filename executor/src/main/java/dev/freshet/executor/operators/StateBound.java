package dev.freshet.executor.operators;

/**
 * What keeps a stateful operator's state from growing forever, as EXPLAIN and
 * {@code sys.state_operators} label it.
 *
 * <pre>{@code
 * StateBound.of(true, 0).label();        // "BOUNDED BY WATERMARK"
 * StateBound.of(false, 3_600_000);       // BOUNDED_BY_TTL
 * }</pre>
 */
public enum StateBound {
  /** The watermark evicts its keys (a window that closes, an interval join, a dedup by time). */
  BOUNDED_BY_WATERMARK,
  /** Keys not written for the state TTL are dropped. */
  BOUNDED_BY_TTL,
  /** Every key is kept for as long as the query runs. */
  UNBOUNDED;

  /** The bound of an operator that does or does not evict by watermark, with a TTL (0: none). */
  public static StateBound of(boolean watermarkEvicts, long ttlMs) {
    return watermarkEvicts ? BOUNDED_BY_WATERMARK : ttlMs > 0 ? BOUNDED_BY_TTL : UNBOUNDED;
  }

  /** The label, e.g. {@code BOUNDED BY TTL}. */
  public String label() {
    return name().replace('_', ' ');
  }
}
