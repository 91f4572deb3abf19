package dev.freshet.engine.query;

import java.util.LinkedHashMap;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The plans of recently run queries, by their SQL, each good for one version of the catalog: a
 * dashboard or a BI tool asking the same question every few seconds gets a plan that was
 * validated, optimized and compiled once, not once per ask.
 *
 * <pre>{@code
 * QueryPlanCache<Prepared> cache = new QueryPlanCache<>(100);
 * Prepared plan = cache.get(sql, catalog.version());   // null: plan it, then
 * cache.put(sql, catalog.version(), plan);
 * }</pre>
 *
 * <p>A plan resolves names against the catalog as it was when it was made, so it is found only
 * while the catalog's version is the same; any CREATE or DROP makes the cached plans stale. The
 * least recently used plan is dropped when the cache is full. Thread-safe.
 *
 * @param <P> the plan
 */
final class QueryPlanCache<P> {
  private record Entry<P>(long catalogVersion, P plan) {}

  private final Map<String, Entry<P>> plans;

  /** A cache of at most {@code capacity} plans. */
  QueryPlanCache(int capacity) {
    this.plans = new LinkedHashMap<>(16, 0.75f, true) {
      @Override protected boolean removeEldestEntry(Map.Entry<String, Entry<P>> eldest) {
        return size() > capacity;
      }
    };
  }

  /** The plan of {@code sql} made at catalog version {@code catalogVersion}, or null. */
  synchronized @Nullable P get(String sql, long catalogVersion) {
    Entry<P> entry = plans.get(sql);
    if (entry == null) {
      return null;
    }
    if (entry.catalogVersion() != catalogVersion) {
      plans.remove(sql);
      return null;
    }
    return entry.plan();
  }

  /** Keeps {@code plan}, made for {@code sql} at catalog version {@code catalogVersion}. */
  synchronized void put(String sql, long catalogVersion, P plan) {
    plans.put(sql, new Entry<>(catalogVersion, plan));
  }

  /** How many plans the cache holds. */
  synchronized int size() {
    return plans.size();
  }
}
