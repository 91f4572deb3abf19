package dev.freshet.executor.state;

import static java.util.Objects.requireNonNull;

/**
 * A provider registered with a {@link StateStoreMaintenance} for as long as it is open: closing it
 * takes it off the maintenance thread's list first.
 *
 * <pre>{@code
 * StateStoreProvider<Object, Object[]> p =
 *     MaintainedStateStoreProvider.register(new DeltaFileStateStoreProvider(spec), maintenance);
 * }</pre>
 */
public final class MaintainedStateStoreProvider<K, V> implements StateStoreProvider<K, V> {
  private final StateStoreProvider<K, V> delegate;
  private final StateStoreMaintenance maintenance;

  private MaintainedStateStoreProvider(StateStoreProvider<K, V> delegate,
      StateStoreMaintenance maintenance) {
    this.delegate = requireNonNull(delegate, "delegate");
    this.maintenance = requireNonNull(maintenance, "maintenance");
  }

  /** Registers {@code provider} with {@code maintenance} and returns it wrapped. */
  public static <K, V> StateStoreProvider<K, V> register(StateStoreProvider<K, V> provider,
      StateStoreMaintenance maintenance) {
    MaintainedStateStoreProvider<K, V> maintained =
        new MaintainedStateStoreProvider<>(provider, maintenance);
    maintenance.register(provider);
    return maintained;
  }

  @Override public StateStoreId id() {
    return delegate.id();
  }

  @Override public StateStore<K, V> getStore(long version) {
    return delegate.getStore(version);
  }

  @Override public ReadStateStore<K, V> getReadStore(long version) {
    return delegate.getReadStore(version);
  }

  @Override public PinnedStateStore<K, V> pin(long version) {
    return delegate.pin(version);
  }

  @Override public long latestCommittedVersion() {
    return delegate.latestCommittedVersion();
  }

  @Override public void readChanges(long from, long to, VersionChangeVisitor<K, V> visitor) {
    delegate.readChanges(from, to, visitor);
  }

  @Override public boolean keepsStateOnHeap() {
    return delegate.keepsStateOnHeap();
  }

  @Override public long oldestChangesVersion() {
    return delegate.oldestChangesVersion();
  }

  @Override public void doMaintenance() {
    delegate.doMaintenance();
  }

  @Override public void close() {
    maintenance.unregister(delegate);
    delegate.close();
  }
}
