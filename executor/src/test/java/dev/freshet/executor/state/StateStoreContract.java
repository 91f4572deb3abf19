package dev.freshet.executor.state;

/**
 * What the state store contracts need of a provider's test: {@link AbstractStateStoreProviderTest}
 * implements it, and a provider's test adds each capability contract its provider fulfils
 * ({@link PersistentStateStoreContract}, {@link RerunStateStoreContract},
 * {@link PinningStateStoreContract}, ...). A test that does not apply to a provider is then not
 * run rather than skipped.
 *
 * <p>Example: {@code class MyProviderContractTest extends AbstractStateStoreProviderTest
 * implements PersistentRerunStateStoreContract, PinningStateStoreContract}.
 */
public interface StateStoreContract {
  /** The spec of the store under test, keeping {@code minVersionsToRetain} versions. */
  StateStoreSpec spec(int minVersionsToRetain);

  /** A new provider for {@link #spec(int)} with Spark's default retention, closed after it. */
  <K, V> StateStoreProvider<K, V> provider();

  /** A new provider for {@code spec}, closed after the test. */
  <K, V> StateStoreProvider<K, V> provider(StateStoreSpec spec);

  /** Closes {@code provider} and creates another on the same spec, as a restarted query does. */
  <K, V> StateStoreProvider<K, V> reopen(StateStoreProvider<K, V> provider, StateStoreSpec spec);

  /**
   * Whether a provider re-created on the same spec sees what an earlier one committed: whether
   * the test implements {@link PersistentStateStoreContract}.
   */
  default boolean persistsAcrossInstances() {
    return this instanceof PersistentStateStoreContract;
  }

  /**
   * How many versions before the latest committed one can be opened, to re-run a batch:
   * {@link Integer#MAX_VALUE} (as many as {@code minVersionsToRetain} says) for a
   * {@link RetainedVersionsStateStoreContract}, 1 for a {@link RerunStateStoreContract}, else 0.
   */
  default int olderVersionsRetained() {
    return this instanceof RetainedVersionsStateStoreContract ? Integer.MAX_VALUE
        : this instanceof RerunStateStoreContract ? 1 : 0;
  }

  /**
   * How many versions back from the latest committed one {@link StateStoreProvider#readChanges}
   * reaches: by default {@link Integer#MAX_VALUE}, which means as many as
   * {@code minVersionsToRetain} says. Tests that read changes further back read only the last
   * ones.
   */
  default int changesRetained() {
    return Integer.MAX_VALUE;
  }
}
