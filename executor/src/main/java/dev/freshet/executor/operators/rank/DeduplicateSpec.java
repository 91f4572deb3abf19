package dev.freshet.executor.operators.rank;

/**
 * What a {@link StreamDeduplicateOperator} keeps: the first row of each key, Spark's
 * {@code dropDuplicates} and {@code dropDuplicatesWithinWatermark}.
 *
 * <pre>{@code
 * // ROW_NUMBER() OVER (PARTITION BY $0 ORDER BY $2) = 1 over (id, v, ts), watermark on ts 5 s:
 * new DeduplicateSpec(0, new int[] {0}, 2, false, 2, 2, 5_000);
 * }</pre>
 *
 * @param operatorId the stateful operator id: the state directory {@code state/<id>/}
 * @param keys the input columns whose values identify a duplicate
 * @param orderIndex the column whose least value wins among a key's rows of one batch, or -1 for
 *     the first row to arrive
 * @param nullsFirst whether a NULL in {@code orderIndex} comes before every value
 * @param eventTimeIndex the input's event-time (watermark) column, a TIMESTAMP in milliseconds:
 *     rows at or before the late-events watermark are dropped as late; -1 if the input has none
 * @param expiryIndex the TIMESTAMP column that, plus {@code expiryDelayMs}, tells when a key's
 *     state goes (once the watermark reaches it); -1 to keep every key forever
 * @param expiryDelayMs added to the {@code expiryIndex} value of a key's first row
 */
public record DeduplicateSpec(int operatorId, int[] keys, int orderIndex, boolean nullsFirst,
    int eventTimeIndex, int expiryIndex, long expiryDelayMs) {
  public DeduplicateSpec {
    keys = keys.clone();
    if (operatorId < 0) {
      throw new IllegalArgumentException("operatorId must not be negative: " + operatorId);
    }
    if (expiryDelayMs < 0) {
      throw new IllegalArgumentException("expiryDelayMs must not be negative: "
          + expiryDelayMs);
    }
  }

  /** Whether a key's state ever goes: only with a watermark, never otherwise (Spark's rule). */
  public boolean expires() {
    return expiryIndex >= 0;
  }

  @Override public int[] keys() {
    return keys.clone();
  }
}
