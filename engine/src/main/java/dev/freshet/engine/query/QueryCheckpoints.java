package dev.freshet.engine.query;

import dev.freshet.executor.checkpoint.Checkpoint;
import dev.freshet.executor.checkpoint.OffsetSeq;
import dev.freshet.executor.state.MaintainedStateStoreProvider;
import dev.freshet.executor.state.StateStoreMaintenance;
import dev.freshet.executor.state.StateStoreProviderFactory;
import dev.freshet.executor.state.StateStoreSpec;
import dev.freshet.executor.state.internals.DeltaFileStateStoreProvider;
import dev.freshet.executor.state.internals.MVStoreStateStoreProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where a materialized view's query keeps its checkpoint, and the settings it pinned there.
 *
 * <p>Layout: {@code <dataDir>/checkpoints/<VIEW NAME>/} in Spark's layout ({@code metadata},
 * {@code offsets/}, {@code commits/}, {@code state/<operator>/<partition>/}), plus {@code sink/}
 * with the view's result after the last batch. Names are escaped like stream directories.
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
   * The settings pinned in view {@code name}'s checkpoint (see {@link #pinned(Checkpoint)}), or
   * none if it has no checkpoint; creates nothing, so that a statement may read them before its
   * checks have passed.
   */
  public static Map<String, String> pinnedIfExists(Path dataDir, String name,
      int minBatchesToRetain) {
    if (!Files.isDirectory(directory(dataDir, name))) {
      return Map.of();
    }
    return pinned(open(dataDir, name, minBatchesToRetain));
  }

  /** The checkpoint directory of view {@code name}. */
  static Path directory(Path dataDir, String name) {
    return dataDir.resolve("checkpoints").resolve(escape(name));
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
   * The settings the checkpoint's latest batch ran with: a restarted query keeps its number of
   * state partitions and its provider whatever the session says now, as in Spark.
   */
  public static Map<String, String> pinned(Checkpoint checkpoint) {
    var latest = checkpoint.offsetLog().latestBatchId();
    if (latest.isEmpty()) {
      return Map.of();
    }
    Optional<OffsetSeq> entry = checkpoint.offsetLog().get(latest.getAsLong());
    return entry.map(OffsetSeq::conf).orElse(Map.of());
  }

  /**
   * Providers of the query's state stores, in its checkpoint, each maintained (snapshots,
   * deleting files no retained version needs) by the engine's maintenance thread while open.
   */
  public static StateStoreProviderFactory stateStores(Checkpoint checkpoint, String provider,
      StateStoreMaintenance maintenance) {
    return id -> {
      // The state keeps loadable every version the checkpoint's logs can still re-run.
      StateStoreSpec spec = new StateStoreSpec(id,
          checkpoint.stateDirectory(id.operatorId(), id.partitionId()),
          StateStoreSpec.DEFAULT_MIN_DELTAS_FOR_SNAPSHOT, checkpoint.minBatchesToRetain());
      if (provider.equals("mvstore")) {
        // MVStore keeps its own versions (the latest and the one before) in one file, so there
        // are no snapshot or delta files to maintain. It does not compact that file yet: its
        // background writer is off (see the provider), so the file only grows.
        return new MVStoreStateStoreProvider<>(spec);
      }
      return MaintainedStateStoreProvider.register(new DeltaFileStateStoreProvider(spec),
          maintenance);
    };
  }

  private static String escape(String name) {
    StringBuilder sb = new StringBuilder();
    for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      if (c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
        sb.append(c);
      } else {
        sb.append('%').append(String.format("%02X", b & 0xff));
      }
    }
    return sb.toString();
  }
}
