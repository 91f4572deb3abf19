package dev.freshet.engine;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.runtime.StreamingQuery;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.catalog.Catalog;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A Freshet engine: the streams, the materialized views, the running continuous queries, and the
 * planner, shared by every session (JDBC connection) opened on it.
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
  private final PullQueryExecutor pullQueries = new PullQueryExecutor(catalog);
  /** Continuous queries by id: push queries until stopped, views' queries while the view exists. */
  private final Map<String, ContinuousQuery> queries = new ConcurrentHashMap<>();
  /**
   * Held by statements that change the catalog, so that checks spanning several objects hold when
   * the change is made: no view is created over a stream being dropped, and no stream is dropped
   * while a view reads it.
   */
  private final Object ddlLock = new Object();
  /** Runs the state partitions of every query's batches; one thread per core. */
  private final java.util.concurrent.ExecutorService partitionExecutor =
      java.util.concurrent.Executors.newFixedThreadPool(
          Runtime.getRuntime().availableProcessors(), runnable -> {
            Thread thread = new Thread(runnable, "freshet-state-partition");
            thread.setDaemon(true);
            return thread;
          });
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

  PullQueryExecutor pullQueries() {
    return pullQueries;
  }

  Object ddlLock() {
    return ddlLock;
  }

  void register(ContinuousQuery query) {
    queries.put(query.id(), query);
  }

  void unregister(ContinuousQuery query) {
    queries.remove(query.id(), query);
  }

  /** The continuous queries running now, and views' queries that stopped or failed. */
  public List<StreamingQuery> queries() {
    return new ArrayList<>(queries.values());
  }

  /** The registered continuous queries, sorted by name. */
  public List<ContinuousQuery> continuousQueries() {
    List<ContinuousQuery> list = new ArrayList<>(queries.values());
    list.sort(Comparator.comparing(ContinuousQuery::name).thenComparing(ContinuousQuery::id));
    return list;
  }

  /**
   * Finds a query by its id, or else by its name ignoring case (a view's query is named after the
   * view).
   */
  public Optional<ContinuousQuery> query(String idOrName) {
    ContinuousQuery byId = queries.get(idOrName);
    if (byId != null) {
      return Optional.of(byId);
    }
    String lower = idOrName.toLowerCase(Locale.ROOT);
    return queries.values().stream()
        .filter(q -> q.name().toLowerCase(Locale.ROOT).equals(lower)).findFirst();
  }

  /** Stops every continuous query. Idempotent. */
  /** The pool that runs state partitions in parallel. */
  java.util.concurrent.Executor partitionExecutor() {
    return partitionExecutor;
  }

  @Override public void close() {
    closed = true;
    for (ContinuousQuery query : continuousQueries()) {
      query.stop();
      unregister(query);
    }
    partitionExecutor.shutdown();
  }
}
