package dev.freshet.executor.state;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;

/**
 * Everything a {@link StateStoreProvider} needs, given once when it is created.
 *
 * <pre>{@code
 * new StateStoreSpec(new StateStoreId(queryId, 0, partition),
 *     checkpoint.resolve("state/0/" + partition), 10, 100)
 * }</pre>
 *
 * @param id the store
 * @param directory where the store keeps its files ({@code state/<operatorId>/<partitionId>})
 * @param minDeltasForSnapshot write a snapshot once this many delta files follow the last one
 *     (Spark's {@code minDeltasForSnapshot}, default 10)
 * @param minVersionsToRetain versions that must stay loadable (Spark's
 *     {@code minBatchesToRetain}, default 100); files only older versions need may be deleted
 */
public record StateStoreSpec(StateStoreId id, Path directory, int minDeltasForSnapshot,
    int minVersionsToRetain) {
  /** Spark's default for {@code minDeltasForSnapshot}. */
  public static final int DEFAULT_MIN_DELTAS_FOR_SNAPSHOT = 10;
  /** Spark's default for {@code minBatchesToRetain}. */
  public static final int DEFAULT_MIN_VERSIONS_TO_RETAIN = 100;

  public StateStoreSpec {
    requireNonNull(id, "id");
    requireNonNull(directory, "directory");
    if (minDeltasForSnapshot < 1 || minVersionsToRetain < 1) {
      throw new IllegalArgumentException("minDeltasForSnapshot and minVersionsToRetain must be"
          + " positive");
    }
  }

  /** A spec with Spark's defaults. */
  public static StateStoreSpec of(StateStoreId id, Path directory) {
    return new StateStoreSpec(id, directory, DEFAULT_MIN_DELTAS_FOR_SNAPSHOT,
        DEFAULT_MIN_VERSIONS_TO_RETAIN);
  }
}
