package dev.freshet.engine.options;

import java.util.Locale;

/**
 * When the batches of a continuous query run, as Spark's triggers: the values of option
 * {@link SessionOption#TRIGGER}.
 *
 * <pre>{@code
 * TriggerKind.AVAILABLE_NOW.text();   // "available-now", as SET spells it
 * }</pre>
 */
public enum TriggerKind {
  /** Batches go on, paced by {@link SessionOption#TRIGGER_INTERVAL}; the default. */
  PROCESSING_TIME,
  /** One batch over the data there at start, then the query stops. */
  ONCE,
  /** Batches until the data there at start is processed, then the query stops. */
  AVAILABLE_NOW;

  /** The trigger as {@code SET} spells it, e.g. {@code processing-time}. */
  public String text() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
