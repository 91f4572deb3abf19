package dev.freshet.engine.query;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
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
 * while the catalog's version is the same; any CREATE or DROP makes the cached plans stale. When
 * the cache is full, Caffeine drops a plan that was used rarely and not recently. Thread-safe.
 *
 * @param <P> the plan
 */
final class QueryPlanCache<P> {
  private record Entry<P>(long catalogVersion, P plan) {}

  private final Cache<String, Entry<P>> plans;

  /** A cache of at most {@code capacity} plans. */
  QueryPlanCache(int capacity) {
    // Evictions run on the calling thread: the bound holds when put returns, and no pool's thread
    // outlives the engine.
    this.plans = Caffeine.newBuilder().maximumSize(capacity).executor(Runnable::run).build();
  }

  /** The plan of {@code sql} made at catalog version {@code catalogVersion}, or null. */
  @Nullable P get(String sql, long catalogVersion) {
    Entry<P> entry = plans.getIfPresent(sql);
    if (entry == null) {
      return null;
    }
    if (entry.catalogVersion() != catalogVersion) {
      // Only this entry: a plan put meanwhile for the current version stays.
      plans.asMap().remove(sql, entry);
      return null;
    }
    return entry.plan();
  }

  /** Keeps {@code plan}, made for {@code sql} at catalog version {@code catalogVersion}. */
  void put(String sql, long catalogVersion, P plan) {
    plans.put(sql, new Entry<>(catalogVersion, plan));
  }

  /** How many plans the cache holds. */
  int size() {
    plans.cleanUp();
    return (int) plans.estimatedSize();
  }
}
