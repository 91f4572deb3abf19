package dev.freshet.engine.view;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.state.PinnedStateStore;
import dev.freshet.executor.state.ReadStateStore;
import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.StateStoreProviderFactory;
import dev.freshet.executor.state.VersionChangeVisitor;
import java.util.ArrayList;
import java.util.List;

/**
 * The state store providers of a view that reads its state: they belong to the view's result,
 * not to its query. The query closes its providers when it stops, but a stopped view stays
 * readable; so the query gets providers whose {@code close()} does nothing, and the view's
 * {@link StateViewResult} closes the real ones when the view is dropped or the engine closes.
 *
 * <p>Only the stores of the operator whose state the view reads, its last aggregation, are kept
 * so; those of a stateful operator below it (a deduplication) are the query's, as in any view.
 *
 * <pre>{@code
 * ViewStateStores stores = new ViewStateStores(factory, aggregateOperatorId);
 * pipeline = builder(stores).buildUpToAggregate(plan, stream).pipeline();
 * StateViewResult.open(view, stores.providers(), ...);
 * }</pre>
 */
public final class ViewStateStores implements StateStoreProviderFactory {
  private final StateStoreProviderFactory factory;
  /** The operator whose state the view reads. */
  private final int operatorId;
  private final List<StateStoreProvider<Object, Object[]>> providers = new ArrayList<>();

  /**
   * Creates the factory.
   *
   * @param factory makes the providers
   * @param operatorId the stateful operator whose state the view reads
   */
  public ViewStateStores(StateStoreProviderFactory factory, int operatorId) {
    this.factory = requireNonNull(factory, "factory");
    this.operatorId = operatorId;
  }

  @Override public StateStoreProvider<Object, Object[]> create(StateStoreId id) {
    StateStoreProvider<Object, Object[]> provider = factory.create(id);
    if (id.operatorId() != operatorId) {
      return provider;
    }
    providers.add(provider);
    return new KeptOpen(provider);
  }

  /**
   * The providers of the view's operator, in the order the query asked for them (partition
   * order).
   */
  public List<StateStoreProvider<Object, Object[]>> providers() {
    return List.copyOf(providers);
  }

  /** A provider that the query cannot close. */
  private static final class KeptOpen implements StateStoreProvider<Object, Object[]> {
    private final StateStoreProvider<Object, Object[]> provider;

    KeptOpen(StateStoreProvider<Object, Object[]> provider) {
      this.provider = provider;
    }

    @Override public StateStoreId id() {
      return provider.id();
    }

    @Override public StateStore<Object, Object[]> getStore(long version) {
      return provider.getStore(version);
    }

    @Override public ReadStateStore<Object, Object[]> getReadStore(long version) {
      return provider.getReadStore(version);
    }

    @Override public PinnedStateStore<Object, Object[]> pin(long version) {
      return provider.pin(version);
    }

    @Override public long latestCommittedVersion() {
      return provider.latestCommittedVersion();
    }

    @Override public void readChanges(long from, long to,
        VersionChangeVisitor<Object, Object[]> visitor) {
      provider.readChanges(from, to, visitor);
    }

    @Override public boolean keepsStateOnHeap() {
      return provider.keepsStateOnHeap();
    }

    @Override public long oldestChangesVersion() {
      return provider.oldestChangesVersion();
    }

    @Override public void doMaintenance() {
      provider.doMaintenance();
    }

    @Override public void close() {
      // The view's result closes the provider.
    }
  }
}
