package dev.freshet.engine.powerloss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.Engine;
import dev.freshet.engine.Session;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.engine.query.ContinuousQuery;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.h2.store.fs.FilePath;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a materialized view's batch writes, counted per file on a {@link SimulatedDisk}: a batch
 * that changes every one of a million groups writes them into the aggregation's state store and
 * nowhere else. The view's pull queries and subscriptions read that state; no result table, no
 * change log.
 */
class ViewWritesTest {
  private static final int GROUPS = 1_000_000;
  private static final Duration DEADLINE = Duration.ofMinutes(3);

  @TempDir Path temp;
  private Engine engine;
  private FilePath h2Files;

  @AfterEach void close() {
    if (engine != null) {
      engine.close();
    }
    if (h2Files != null) {
      FilePath.unregister(h2Files);
    }
  }

  @Test void shouldWriteEachChangedGroupOnlyIntoTheStateStore() throws Exception {
    SimulatedDisk disk = new SimulatedDisk(Files.createDirectory(temp.resolve("disk")));
    h2Files = new SimulatedDiskH2Path(disk.fileSystem(), "");
    FilePath.register(h2Files);
    engine = new Engine("writes", Optional.of(disk.root()));
    Session session = engine.openSession();
    session.execute("SET 'state.partitions' = '2'");
    // Two batches of a million rows: the first creates every group, the second changes each.
    session.execute("CREATE STREAM nums (n BIGINT) WITH (connector = 'sequence', 'end' = '"
        + 2 * GROUPS + "', 'rows.per.batch' = '" + GROUPS + "')");
    disk.startTally();
    session.execute("CREATE MATERIALIZED VIEW v AS SELECT n % " + GROUPS + " AS k,"
        + " COUNT(*) AS c, SUM(n) AS s FROM nums GROUP BY n % " + GROUPS);
    ContinuousQuery query = engine.query("V").orElseThrow();
    assertTrue(query.processAllAvailable(DEADLINE), "the view did not read its stream within "
        + DEADLINE + ": " + query.status() + " " + query.exception());
    assertEquals(1, query.lastBatchId());
    Map<Path, long[]> tally = disk.tally();

    long stateBytes = 0;
    long otherBytes = 0;
    long otherWrites = 0;
    Map<String, String> others = new TreeMap<>();
    Path state = Path.of("checkpoints", "V", "state");
    for (Map.Entry<Path, long[]> file : tally.entrySet()) {
      if (file.getKey().startsWith(state)) {
        stateBytes += file.getValue()[1];
      } else {
        otherWrites += file.getValue()[0];
        otherBytes += file.getValue()[1];
        others.put(file.getKey().toString(), file.getValue()[0] + " writes, "
            + file.getValue()[1] + " bytes");
      }
    }
    // Two batches of a million changed groups: at least a key and two values each, per batch.
    assertTrue(stateBytes >= 2L * GROUPS * 16, "state: " + stateBytes + " bytes");
    // The catalog's record of the view, offsets and commits: a few KB, whatever the groups.
    assertTrue(otherBytes <= 128 * 1024 && otherWrites <= 200,
        "written outside the state: " + otherBytes + " bytes in " + otherWrites + " writes: "
            + others);

    // And the view shows every group, from that state.
    Object[] row = ((StatementResult.Rows) session.execute(
        "SELECT COUNT(*), SUM(c), MIN(c), MAX(c) FROM v")).rows().get(0);
    assertEquals(java.util.List.of((long) GROUPS, 2L * GROUPS, 2L, 2L), java.util.List.of(row));
    Object[] one = ((StatementResult.Rows) session.execute(
        "SELECT c, s FROM v WHERE k = 12345")).rows().get(0);
    assertEquals(java.util.List.of(2L, 12345L + 12345L + GROUPS), java.util.List.of(one));
  }
}
