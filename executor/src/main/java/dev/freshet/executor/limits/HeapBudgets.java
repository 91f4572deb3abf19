package dev.freshet.executor.limits;

/**
 * The default memory budgets, sized from the JVM's maximum heap ({@code -Xmx}, as
 * {@link Runtime#maxMemory()} reports it): all of an engine's queries together may take half of
 * it, one query a quarter. The rest is left to what the budgets do not count: the rows streams
 * keep for their readers, results being sent, caches, and the garbage collector's headroom.
 *
 * <pre>{@code
 * // java -Xmx4g ...
 * HeapBudgets.engineDefault();   // 2 GB: new MemoryPool(HeapBudgets.engineDefault())
 * HeapBudgets.queryDefault();    // 1 GB: 'query.memory.budget' unless SET otherwise
 * }</pre>
 *
 * <p>A JVM without a heap limit ({@code maxMemory() == Long.MAX_VALUE}) gets no budget
 * ({@link MemoryPool#UNLIMITED}).
 */
public final class HeapBudgets {
  /** The engine's budget is the heap divided by this. */
  public static final int ENGINE_DIVISOR = 2;
  /** A query's budget is the heap divided by this. */
  public static final int QUERY_DIVISOR = 4;

  private HeapBudgets() {
  }

  /** Half the maximum heap: the default budget of all of an engine's queries together. */
  public static long engineDefault() {
    return share(ENGINE_DIVISOR);
  }

  /** A quarter of the maximum heap: the default budget of one query. */
  public static long queryDefault() {
    return share(QUERY_DIVISOR);
  }

  private static long share(int divisor) {
    long max = Runtime.getRuntime().maxMemory();
    return max == Long.MAX_VALUE ? MemoryPool.UNLIMITED : Math.max(1, max / divisor);
  }
}
