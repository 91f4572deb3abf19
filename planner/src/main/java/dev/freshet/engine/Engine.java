package dev.freshet.engine;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.runtime.StreamingQuery;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.catalog.Catalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A Freshet engine: the streams, the running continuous queries, and the planner, shared by every
 * session (JDBC connection) opened on it.
 *
 * <pre>{@code
 * try (Engine engine = new Engine("demo")) {
 *   Session session = engine.openSession();
 *   session.execute("CREATE STREAM clicks (user_id VARCHAR, amount DOUBLE) WITH (connector = 'memory')");
 * }
 * }</pre>
 */
public final class Engine implements AutoCloseable {
  private final String name;
  private final Catalog catalog = new Catalog();
  private final FreshetPlanner planner = new FreshetPlanner(catalog);
  private final Map<String, StreamingQuery> queries = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /** Creates an engine; {@code name} identifies it in messages and thread names. */
  public Engine(String name) {
    this.name = requireNonNull(name, "name");
  }

  /** The engine's name. */
  public String name() {
    return name;
  }

  /** Opens a session with default options. */
  public Session openSession() {
    if (closed) {
      throw new IllegalStateException("engine " + name + " is closed");
    }
    return new Session(this);
  }

  FreshetPlanner planner() {
    return planner;
  }

  Catalog catalog() {
    return catalog;
  }

  void register(StreamingQuery query) {
    queries.put(query.id(), query);
  }

  void unregister(StreamingQuery query) {
    queries.remove(query.id());
  }

  /** The continuous queries running now. */
  public List<StreamingQuery> queries() {
    return new ArrayList<>(queries.values());
  }

  /** Stops every continuous query. Idempotent. */
  @Override public void close() {
    closed = true;
    for (StreamingQuery query : queries()) {
      query.stop();
      unregister(query);
    }
  }
}
