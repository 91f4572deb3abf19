package dev.freshet.executor.limits;

/**
 * The default memory budgets, sized from the JVM's maximum heap ({@code -Xmx}, as
 * {@link Runtime#maxMemory()} reports it): all of an engine's queries together may take
 * {@value #ENGINE_PERCENT}% of it (as Spark's {@code spark.memory.fraction} gives execution and
 * storage 60%), one query {@value #QUERY_PERCENT}%, so that one query cannot take all the
 * engine's share. The rest is left to what the budgets do not count: the rows streams keep for
 * their readers, results being sent, caches, and the garbage collector's headroom.
 *
 * <pre>{@code
 * // java -Xmx4g ...
 * HeapBudgets.engineDefault();   // 2.4 GB: new MemoryPool(HeapBudgets.engineDefault())
 * HeapBudgets.queryDefault();    // 1.6 GB: 'query.memory.budget' unless SET otherwise
 * }</pre>
 *
 * <p>A JVM without a heap limit ({@code maxMemory() == Long.MAX_VALUE}) gets no budget
 * ({@link MemoryPool#UNLIMITED}).
 */
public final class HeapBudgets {
  /** The engine's budget, in percent of the maximum heap. */
  public static final int ENGINE_PERCENT = 60;
  /** A query's budget, in percent of the maximum heap. */
  public static final int QUERY_PERCENT = 40;

  private HeapBudgets() {
  }

  /** 60% of the maximum heap: the default budget of all of an engine's queries together. */
  public static long engineDefault() {
    return share(ENGINE_PERCENT);
  }

  /** 40% of the maximum heap: the default budget of one query. */
  public static long queryDefault() {
    return share(QUERY_PERCENT);
  }

  private static long share(int percent) {
    long max = Runtime.getRuntime().maxMemory();
    return max == Long.MAX_VALUE ? MemoryPool.UNLIMITED : Math.max(1, max / 100 * percent);
  }
}
