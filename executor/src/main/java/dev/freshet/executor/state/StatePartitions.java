package dev.freshet.executor.state;

/**
 * Which state partition holds a group key: the routing every stateful operator uses, so that a
 * reader of a committed version finds a key's value in one partition instead of all of them.
 *
 * <pre>{@code
 * int p = StatePartitions.of(GroupKey.of("a", 3L), 4);   // stable across JVMs and runs
 * }</pre>
 */
public final class StatePartitions {
  private StatePartitions() {
  }

  /**
   * The partition, of {@code partitions}, of a key: a single value (null allowed), or a
   * {@link GroupKey} for several columns or none.
   */
  public static int of(Object key, int partitions) {
    return ofHash(key == null ? 0 : key.hashCode(), partitions);
  }

  /**
   * The partition, of {@code partitions}, of a key whose {@code hashCode()} is {@code hash};
   * the hash must be stable across JVMs (values and {@link GroupKey}s are), not a seeded one.
   */
  public static int ofHash(int hash, int partitions) {
    if (partitions == 1) {
      return 0;
    }
    int h = hash ^ (hash >>> 16);
    return Math.floorMod(h, partitions);
  }
}
