package dev.freshet.engine;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.engine.security.AccessControl;
import dev.freshet.engine.security.Principal;
import dev.freshet.engine.security.PrivilegeErrors;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The continuous queries an engine runs, and the sinks and reference tables they belong to or
 * read: push queries until stopped, views' and sinks' queries while their object exists (stopped
 * or failed ones too, so that SHOW QUERIES says why). Whoever starts a query registers it here;
 * DROP and STOP look it up and unregister it.
 *
 * <pre>{@code
 * registry.register(continuous);            // a view's or a sink's query
 * registry.registerPush(push);              // 53400 past the engine's limit
 * registry.query("clicks_per_user")          // by id, or by name ignoring case
 * }</pre>
 */
final class QueryRegistry {
  /** Default of {@link #setMaxPushQueries}. */
  static final int DEFAULT_MAX_PUSH_QUERIES = 1000;

  /** The engine's name, for messages. */
  private final String engineName;
  /** Continuous queries by id: push queries until stopped, views' queries while the view exists. */
  private final Map<String, ContinuousQuery> queries = new ConcurrentHashMap<>();
  /** The reference tables each running query reads, by query id; see {@link #tableReaders}. */
  private final Map<String, Set<String>> tablesRead = new ConcurrentHashMap<>();
  /** The sinks, by name; changed under the engine's DDL lock. */
  private final Map<String, SinkDdl.SinkEntry> sinks = new ConcurrentHashMap<>();
  private volatile int maxPushQueries = DEFAULT_MAX_PUSH_QUERIES;
  /** Makes counting and registering one step, so that racing push queries cannot overshoot. */
  private final Object pushAdmission = new Object();

  QueryRegistry(String engineName) {
    this.engineName = engineName;
  }

  /** Registers a view's or a sink's query. */
  void register(ContinuousQuery query) {
    queries.put(query.id(), query);
  }

  /**
   * Registers a push query unless the engine runs {@link #maxPushQueries()} already.
   *
   * @throws SQLException with SQLSTATE 53400 ({@link SqlState#CONFIGURATION_LIMIT_EXCEEDED}) if
   *     it does
   */
  void registerPush(ContinuousQuery query) throws SQLException {
    synchronized (pushAdmission) {
      long running = queries.values().stream().filter(q -> q.viewName().isEmpty()).count();
      if (running >= maxPushQueries) {
        throw Errors.of(SqlState.CONFIGURATION_LIMIT_EXCEEDED, "Engine " + engineName
            + " already runs " + running + " push queries, its limit: close result sets or"
            + " statements you no longer read, or raise the limit (the server's"
            + " --max-push-queries, Engine.setMaxPushQueries)");
      }
      register(query);
    }
  }

  /** Forgets {@code query} and the tables it reads, if it is the one registered by its id. */
  void unregister(ContinuousQuery query) {
    if (queries.remove(query.id(), query)) {
      tablesRead.remove(query.id());
    }
  }

  /** Sets how many push queries may run at once; see {@link Engine#setMaxPushQueries}. */
  void setMaxPushQueries(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("max push queries must be positive: " + max);
    }
    maxPushQueries = max;
  }

  /** How many push queries may run at once. */
  int maxPushQueries() {
    return maxPushQueries;
  }

  /** The sinks by name, for CREATE, DROP and SHOW SINKS. */
  Map<String, SinkDdl.SinkEntry> sinks() {
    return sinks;
  }

  /**
   * Records that query {@code queryId} reads reference {@code tables}, which cannot be dropped
   * while it is registered.
   */
  void readsTables(String queryId, Set<String> tables) {
    if (!tables.isEmpty()) {
      tablesRead.put(queryId, Set.copyOf(tables));
    }
  }

  /** The names of the registered queries that read reference table {@code table}, sorted. */
  List<String> tableReaders(String table) {
    List<String> names = new ArrayList<>();
    tablesRead.forEach((id, tables) -> {
      ContinuousQuery query = queries.get(id);
      if (query != null && tables.contains(table)) {
        names.add(query.name());
      }
    });
    names.sort(null);
    return names;
  }

  /** The registered continuous queries, sorted by name. */
  List<ContinuousQuery> continuousQueries() {
    List<ContinuousQuery> list = new ArrayList<>(queries.values());
    list.sort(Comparator.comparing(ContinuousQuery::name).thenComparing(ContinuousQuery::id));
    return list;
  }

  /** The registered queries in no order. */
  List<ContinuousQuery> unordered() {
    return new ArrayList<>(queries.values());
  }

  /**
   * Finds a query by its id, or else by its name ignoring case (a view's query is named after the
   * view).
   */
  Optional<ContinuousQuery> query(String idOrName) {
    ContinuousQuery byId = queries.get(idOrName);
    if (byId != null) {
      return Optional.of(byId);
    }
    String lower = idOrName.toLowerCase(Locale.ROOT);
    return queries.values().stream()
        .filter(q -> q.name().toLowerCase(Locale.ROOT).equals(lower)).findFirst();
  }

  /** Whether {@code query} is the query of a sink; see {@link Engine#isSink}. */
  boolean isSink(ContinuousQuery query) {
    SinkDdl.SinkEntry sink = sinks.get(query.name());
    return sink != null && sink.queryId().equals(query.id());
  }

  /**
   * The registered continuous queries {@code user} may see by {@code access}, sorted by name: a
   * view's or a sink's query to whoever may see the view or sink, a push query to whoever
   * opened it; everything to an administrator.
   */
  List<ContinuousQuery> visibleTo(Principal user, AccessControl access) {
    if (user.admin()) {
      return continuousQueries();
    }
    Map<String, String> sinkOfQuery = new HashMap<>();
    sinks.values().forEach(sink -> sinkOfQuery.put(sink.queryId(), sink.name()));
    List<ContinuousQuery> visible = new ArrayList<>();
    for (ContinuousQuery query : continuousQueries()) {
      Optional<String> object = query.viewName().or(
          () -> Optional.ofNullable(sinkOfQuery.get(query.id())));
      if (user.admin() || (object.isPresent() ? access.canSee(user, object.get())
          : access.pushOwner(query.id()).map(p -> p.key().equals(user.key())).orElse(false))) {
        visible.add(query);
      }
    }
    return visible;
  }

  /**
   * Passes if {@code user} may stop {@code query}: owns its view or sink, opened it (a push
   * query), or administers.
   *
   * @throws SQLException 42501 naming the query and who may
   */
  void checkOwner(Principal user, ContinuousQuery query, String action, AccessControl access)
      throws SQLException {
    Optional<String> object = objectOf(query);
    if (object.isPresent()) {
      access.checkOwner(user, object.get(), action + " the query of");
    } else if (!user.admin() && !access.pushOwner(query.id())
        .map(p -> p.key().equals(user.key())).orElse(false)) {
      throw PrivilegeErrors.notOwner(user, action, "push query", query.name(),
          access.pushOwner(query.id()).map(Principal::name).orElse("unknown"));
    }
  }

  /** The view or sink whose query {@code query} is; empty for a push query. */
  private Optional<String> objectOf(ContinuousQuery query) {
    if (query.viewName().isPresent()) {
      return query.viewName();
    }
    for (SinkDdl.SinkEntry sink : sinks.values()) {
      if (sink.queryId().equals(query.id())) {
        return Optional.of(sink.name());
      }
    }
    return Optional.empty();
  }
}
