package dev.freshet.engine.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.engine.options.StateStoreProviderKind;
import dev.freshet.executor.checkpoint.Checkpoint;
import dev.freshet.executor.checkpoint.CheckpointException;
import dev.freshet.executor.checkpoint.OffsetSeq;
import dev.freshet.executor.checkpoint.SourceOffset;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The settings a view's checkpoint pins, read back typed. */
class QueryCheckpointsTest {
  @TempDir Path dir;

  private Checkpoint withConf(Map<String, String> conf) {
    Checkpoint checkpoint = Checkpoint.open(dir.resolve("v"));
    checkpoint.offsetLog().add(0, new OffsetSeq(0, 0, conf, List.of(SourceOffset.of(0))));
    return checkpoint;
  }

  @Test void shouldPinNothingBeforeTheFirstBatch() {
    assertEquals(QueryCheckpoints.Pinned.NONE,
        QueryCheckpoints.pinned(Checkpoint.open(dir.resolve("v"))));
  }

  @Test void shouldReadThePinnedPartitionsAndProvider() {
    Checkpoint checkpoint = withConf(Map.of(OffsetSeq.STATE_PARTITIONS, "4",
        OffsetSeq.STATE_STORE_PROVIDER, "mvstore"));
    assertEquals(new QueryCheckpoints.Pinned(OptionalInt.of(4),
        Optional.of(StateStoreProviderKind.MVSTORE)), QueryCheckpoints.pinned(checkpoint));
  }

  @Test void shouldRejectAProviderItDoesNotKnowNamingTheFile() {
    Checkpoint checkpoint = withConf(Map.of(OffsetSeq.STATE_STORE_PROVIDER, "rocksdb"));
    CheckpointException e = assertThrows(CheckpointException.class,
        () -> QueryCheckpoints.pinned(checkpoint));
    assertEquals("Checkpoint file " + checkpoint.offsetLog().batchFile(0) + " is corrupt or"
        + " truncated: state.store.provider names no state store provider this Freshet has:"
        + " 'rocksdb'", e.getMessage());
  }
}
