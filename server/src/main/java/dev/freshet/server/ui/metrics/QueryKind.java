package dev.freshet.server.ui.metrics;

import dev.freshet.engine.Engine;
import dev.freshet.engine.query.ContinuousQuery;
import java.util.Locale;

/**
 * What a continuous query serves, the {@code kind} label of its metrics and of the web UI's
 * queries: a materialized view, a sink or a push query.
 *
 * <pre>{@code
 * QueryKind.of(engine, query).label();   // "view", "sink" or "push"
 * }</pre>
 */
public enum QueryKind {
  VIEW, SINK, PUSH;

  /** The kind of {@code query}, registered in {@code engine}. */
  public static QueryKind of(Engine engine, ContinuousQuery query) {
    if (query.pushResult().isPresent()) {
      return PUSH;
    }
    return engine.isSink(query) ? SINK : VIEW;
  }

  /** The label's value: the name in lower case. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
