package dev.freshet.executor.state;

/**
 * Receives the changes of committed versions from
 * {@link StateStoreProvider#readChanges(long, long, VersionChangeVisitor)}, in version order.
 *
 * <pre>{@code
 * provider.readChanges(4, 6, (version, key, oldValue, newValue) ->
 *     System.out.println(version + ": " + key + " " + oldValue + " -> " + newValue));
 * }</pre>
 *
 * @param <K> key type
 * @param <V> value type; values must not be modified
 */
@FunctionalInterface
public interface VersionChangeVisitor<K, V> {
  /**
   * One key that version {@code version} changed, once per key and version.
   *
   * @param oldValue its value in version {@code version - 1}, or null if it had none
   * @param newValue its value in version {@code version}, or null if the version removed it
   */
  void change(long version, K key, V oldValue, V newValue);
}
