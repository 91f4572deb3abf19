package dev.freshet.engine.query;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.options.StateStoreProviderKind;
import dev.freshet.engine.store.DirectoryNames;
import dev.freshet.executor.checkpoint.Checkpoint;
import dev.freshet.executor.checkpoint.CheckpointException;
import dev.freshet.executor.checkpoint.OffsetSeq;
import dev.freshet.executor.state.MaintainedStateStoreProvider;
import dev.freshet.executor.state.StateStoreMaintenance;
import dev.freshet.executor.state.StateStoreProviderFactory;
import dev.freshet.executor.state.StateStoreSpec;
import dev.freshet.executor.state.providers.StateStoreProviders;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;

/**
 * Where a materialized view's query keeps its checkpoint, and the settings it pinned there.
 *
 * <p>Layout: {@code <dataDir>/checkpoints/<VIEW NAME>/} in Spark's layout ({@code metadata},
 * {@code offsets/}, {@code commits/}, {@code state/<operator>/<partition>/}), plus {@code sink/}
 * with the view's result after the last batch. Names are escaped by {@link DirectoryNames}, as
 * stream directories are.
 */
public final class QueryCheckpoints {
  private QueryCheckpoints() {
  }

  /**
   * The checkpoint of view {@code name} in {@code dataDir}, created if new, keeping
   * {@code minBatchesToRetain} batches behind the latest.
   */
  public static Checkpoint open(Path dataDir, String name, int minBatchesToRetain) {
    return Checkpoint.open(directory(dataDir, name), minBatchesToRetain);
  }

  /**
   * The checkpoint of view {@code name} if it has one (a restart); creates nothing, so that a
   * statement may read its pinned settings and stored plan before its checks have passed.
   */
  public static Optional<Checkpoint> openIfExists(Path dataDir, String name,
      int minBatchesToRetain) {
    if (!Files.isDirectory(directory(dataDir, name))) {
      return Optional.empty();
    }
    return Optional.of(open(dataDir, name, minBatchesToRetain));
  }

  /** The checkpoint directory of view {@code name}. */
  static Path directory(Path dataDir, String name) {
    return dataDir.resolve("checkpoints").resolve(DirectoryNames.of(name));
  }

  /** Deletes a dropped view's checkpoint. */
  public static void delete(Path dataDir, String name) {
    Path root = directory(dataDir, name);
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete checkpoint " + root, e);
    }
  }

  /**
   * The settings a checkpoint's latest batch ran with ({@link OffsetSeq#conf()}), each empty if
   * the checkpoint has no batch yet.
   *
   * <pre>{@code
   * Pinned pinned = QueryCheckpoints.pinned(checkpoint);
   * int partitions = pinned.statePartitions().orElse(options.statePartitions());
   * }</pre>
   *
   * @param statePartitions the number of state partitions of every stateful operator
   * @param provider the state store provider
   */
  public record Pinned(OptionalInt statePartitions, Optional<StateStoreProviderKind> provider) {
    /** What a checkpoint without a batch pins: nothing. */
    public static final Pinned NONE = new Pinned(OptionalInt.empty(), Optional.empty());

    public Pinned {
      requireNonNull(statePartitions, "statePartitions");
      requireNonNull(provider, "provider");
    }
  }

  /**
   * The settings the checkpoint's latest batch ran with: a restarted query keeps its number of
   * state partitions and its provider whatever the session says now, as in Spark.
   *
   * @throws CheckpointException if {@code offsets/N} pins a value this Freshet does not know
   */
  public static Pinned pinned(Checkpoint checkpoint) {
    var latest = checkpoint.offsetLog().latestBatchId();
    if (latest.isEmpty()) {
      return Pinned.NONE;
    }
    long batchId = latest.getAsLong();
    Map<String, String> conf = checkpoint.offsetLog().get(batchId).map(OffsetSeq::conf)
        .orElse(Map.of());
    Path file = checkpoint.offsetLog().batchFile(batchId);
    OptionalInt partitions = OptionalInt.empty();
    String partitionsText = conf.get(OffsetSeq.STATE_PARTITIONS);
    if (partitionsText != null) {
      try {
        partitions = OptionalInt.of(Integer.parseInt(partitionsText));
      } catch (NumberFormatException e) {
        throw CheckpointException.corrupt(file, OffsetSeq.STATE_PARTITIONS + " is not a number: '"
            + partitionsText + "'", e);
      }
    }
    String providerText = conf.get(OffsetSeq.STATE_STORE_PROVIDER);
    Optional<StateStoreProviderKind> provider = Optional.empty();
    if (providerText != null) {
      provider = Optional.of(StateStoreProviderKind.of(providerText).orElseThrow(() ->
          CheckpointException.corrupt(file, OffsetSeq.STATE_STORE_PROVIDER + " names no state"
              + " store provider this Freshet has: '" + providerText + "'")));
    }
    return new Pinned(partitions, provider);
  }

  /**
   * Providers of the query's state stores, in its checkpoint, each maintained (snapshots,
   * deleting files no retained version needs) by the engine's maintenance thread while open.
   */
  public static StateStoreProviderFactory stateStores(Checkpoint checkpoint,
      StateStoreProviderKind provider, StateStoreMaintenance maintenance) {
    requireNonNull(provider, "provider");
    return id -> {
      // The state keeps loadable every version the checkpoint's logs can still re-run.
      StateStoreSpec spec = new StateStoreSpec(id,
          checkpoint.stateDirectory(id.operatorId(), id.partitionId()),
          StateStoreSpec.DEFAULT_MIN_DELTAS_FOR_SNAPSHOT, checkpoint.minBatchesToRetain());
      if (provider == StateStoreProviderKind.MVSTORE) {
        // MVStore keeps its own versions (the latest and the one before) in one file, so there
        // are no snapshot or delta files to maintain. It does not compact that file yet: its
        // background writer is off (see the provider), so the file only grows.
        return StateStoreProviders.mvStore(spec);
      }
      return MaintainedStateStoreProvider.register(StateStoreProviders.deltaFile(spec),
          maintenance);
    };
  }
}
