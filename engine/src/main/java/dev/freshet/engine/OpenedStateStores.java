package dev.freshet.engine;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.StateStoreProviderFactory;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A state store provider factory that remembers the providers it created, so that a statement
 * that fails after building a query's operators closes their state stores (MVStore files, the
 * registrations with the maintenance thread) instead of leaking them.
 *
 * <pre>{@code
 * OpenedStateStores stores = new OpenedStateStores(factory);
 * boolean started = false;
 * try {
 *   StreamingPipeline pipeline = builder(stores).build(plan);
 *   ...
 *   query.start();   // the query closes its stores from now on
 *   started = true;
 * } finally {
 *   if (!started) {
 *     stores.closeAll();
 *   }
 * }
 * }</pre>
 */
final class OpenedStateStores implements StateStoreProviderFactory {
  private static final Logger LOG = LoggerFactory.getLogger(OpenedStateStores.class);

  private final StateStoreProviderFactory factory;
  private final List<StateStoreProvider<Object, Object[]>> opened = new ArrayList<>();

  OpenedStateStores(StateStoreProviderFactory factory) {
    this.factory = requireNonNull(factory, "factory");
  }

  @Override public StateStoreProvider<Object, Object[]> create(StateStoreId id) {
    StateStoreProvider<Object, Object[]> provider = factory.create(id);
    opened.add(provider);
    return provider;
  }

  /** The providers created so far, in the order they were. */
  List<StateStoreProvider<Object, Object[]>> providers() {
    return List.copyOf(opened);
  }

  /**
   * Closes every provider created so far. It runs on failure paths, so it throws nothing that
   * would hide the failure: a provider that cannot be closed is logged, and the others are
   * closed all the same.
   */
  void closeAll() {
    for (StateStoreProvider<Object, Object[]> provider : opened) {
      try {
        provider.close();
      } catch (RuntimeException e) {
        LOG.warn("Cannot close state store {} after a failed statement", provider.id(), e);
      }
    }
    opened.clear();
  }
}
