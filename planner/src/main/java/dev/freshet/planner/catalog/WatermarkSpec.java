package dev.freshet.planner.catalog;

import static java.util.Objects.requireNonNull;

/**
 * Event-time watermark of a stream: {@code WATERMARK FOR ts AS ts - INTERVAL '5' SECOND} is
 * {@code new WatermarkSpec("TS", 5000)}; with {@code WITH ('watermark.idle-timeout' = '30 s')}
 * it is {@code new WatermarkSpec("TS", 5000, 30_000)}.
 *
 * @param column the TIMESTAMP column that carries event time
 * @param delayMs how late, in milliseconds, rows may arrive
 * @param idleTimeoutMs how long, in milliseconds, without rows before the watermark follows the
 *     clock (processing time minus {@code delayMs}); 0: never
 */
public record WatermarkSpec(String column, long delayMs, long idleTimeoutMs) {
  public WatermarkSpec {
    requireNonNull(column, "column");
    if (delayMs < 0) {
      throw new IllegalArgumentException("delay must not be negative: " + delayMs);
    }
    if (idleTimeoutMs < 0) {
      throw new IllegalArgumentException("idle timeout must not be negative: " + idleTimeoutMs);
    }
  }

  /** A watermark without an idle timeout. */
  public WatermarkSpec(String column, long delayMs) {
    this(column, delayMs, 0);
  }
}
