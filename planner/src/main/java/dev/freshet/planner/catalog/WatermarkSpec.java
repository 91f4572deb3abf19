package dev.freshet.planner.catalog;

import static java.util.Objects.requireNonNull;

/**
 * Event-time watermark of a stream: {@code WATERMARK FOR ts AS ts - INTERVAL '5' SECOND} is
 * {@code new WatermarkSpec("TS", 5000)}.
 *
 * @param column the TIMESTAMP column that carries event time
 * @param delayMs how late, in milliseconds, rows may arrive
 */
public record WatermarkSpec(String column, long delayMs) {
  public WatermarkSpec {
    requireNonNull(column, "column");
    if (delayMs < 0) {
      throw new IllegalArgumentException("delay must not be negative: " + delayMs);
    }
  }
}
