package dev.freshet.executor.state;

/**
 * Creates the provider of each state store of a query: in memory only, or checkpointed under the
 * query's checkpoint directory.
 *
 * <pre>{@code
 * StateStoreProviderFactory memory = id -> new InMemoryStateStoreProvider<>(id);
 * }</pre>
 */
@FunctionalInterface
public interface StateStoreProviderFactory {
  /** Creates the provider of store {@code id}. */
  StateStoreProvider<Object, Object[]> create(StateStoreId id);
}
