package dev.freshet.engine.powerloss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.Engine;
import dev.freshet.engine.Session;
import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.StateStoreSpec;
import dev.freshet.executor.state.internals.DeltaFileStateStoreProvider;
import dev.freshet.executor.state.internals.MVStoreStateStoreProvider;
import dev.freshet.testkit.oracle.H2Oracle;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.h2.store.fs.FilePath;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A power loss at any write of a batch loses nothing that was acknowledged and counts nothing
 * twice: the engine runs on a {@link SimulatedDisk}, which loses every write not yet forced when
 * the power goes, with a crash point at every write, rename, link, delete and fsync of the batch
 * (the INSERT's log record, offsets/N, the state files, the view's H2 result, commits/N). After
 * each, an engine opened on what the disk kept finds the result of every batch that
 * {@code commits/} records, and re-runs the uncommitted batch exactly once: the view equals the
 * GROUP BY (H2's) over every acknowledged INSERT.
 *
 * <p>The batch's operations are counted by a run without power loss; then the run is repeated,
 * on a new disk each time, losing power at operation 1, 2, ... until a run ends before its crash
 * point (which then loses power after the batch). Operations on other threads (H2's writer,
 * state maintenance) can shift the numbering between runs; the checks hold at any point.
 *
 * <p>Regression test: the view's H2 result was made durable with {@code CHECKPOINT}, which does
 * not fsync, while {@code commits/N} was fsynced: after a power loss a batch could be recorded as
 * committed while its result was gone, and the restarted sink skipped it by its batch id.
 */
class PowerLossTest {
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final String VIEW = "PER_USER";
  /** The rows of batch 0, committed before the power loss. */
  private static final Object[][] FIRST_ROWS = {{"a", 1}, {"b", 2}};

  @TempDir Path temp;
  private final List<Engine> engines = new ArrayList<>();
  private int runs;

  /** H2's file system of the current disk, registered for its scheme while the test runs. */
  private FilePath h2Files;

  @AfterEach void closeEngines() {
    for (Engine engine : engines) {
      closeAfterPowerLoss(engine);
    }
    if (h2Files != null) {
      FilePath.unregister(h2Files);
    }
  }

  @ParameterizedTest(name = "state.store.provider = {0}")
  @ValueSource(strings = {"memory", "mvstore"})
  void shouldKeepEveryCommittedBatchAndRerunTheOtherOnceWhenThePowerFailsAtAnyWrite(
      String provider) throws Exception {
    // From an empty disk: what the declarations write is durable too.
    long operations = run(null, provider, Long.MAX_VALUE).operations;
    Path template = template(provider);
    assertTrue(operations > 10, "a batch writes more than 10 times: " + operations);
    for (long k = 1; ; k++) {
      Outcome outcome = run(template, provider, k);
      if (!outcome.lost) {
        // The batch finished before operation k: this run lost power after it.
        assertTrue(k > operations / 2, "runs ended before crash point " + k + " of about "
            + operations);
        return;
      }
      assertTrue(k < 2 * operations, "runs still lose power at crash point " + k
          + ", twice the " + operations + " operations of a batch");
    }
  }

  /**
   * Regression test: H2 forces its file's bytes but never its directory, so the new database of
   * a new data directory could vanish in a power loss with every statement it recorded.
   */
  @Test void shouldKeepTheCatalogOfANewDataDirectoryWhenThePowerFails() throws Exception {
    Path root = Files.createDirectory(temp.resolve("disk"));
    SimulatedDisk disk = new SimulatedDisk(root);
    h2Files = new SimulatedDiskH2Path(disk.fileSystem(), "");
    FilePath.register(h2Files);
    Engine engine = new Engine("catalog", Optional.of(disk.root()));
    engines.add(engine);
    // A sequence stream writes no file of its own: only the catalog records it.
    engine.openSession().execute("CREATE STREAM ticks (n BIGINT)"
        + " WITH (connector = 'sequence', 'end' = '10')");
    disk.powerOff();
    closeAfterPowerLoss(engine);

    Path kept = Files.createDirectory(temp.resolve("kept"));
    disk.restoreTo(kept);
    Engine recovered = new Engine("recovered", Optional.of(kept));
    engines.add(recovered);
    List<List<Object>> streams = new ArrayList<>();
    for (Object[] row : ((StatementResult.Rows) recovered.openSession().execute("SHOW STREAMS"))
        .rows()) {
      streams.add(Arrays.asList(row));
    }
    assertEquals(List.of(List.of("TICKS")), streams);
  }

  /** What one run did. */
  private record Outcome(boolean lost, long operations) {
  }

  /**
   * A data directory, on the default file system, where a view of {@code provider} has committed
   * batch 0: rows {@link #FIRST_ROWS}.
   */
  private Path template(String provider) throws Exception {
    Path dir = temp.resolve("template");
    Engine engine = new Engine("template", Optional.of(dir));
    engines.add(engine);
    declare(engine.openSession(), provider);
    awaitIdle(engine);
    engine.close();
    engines.remove(engine);
    return dir;
  }

  /** Declares the stream and the view, and inserts {@link #FIRST_ROWS}. */
  private static void declare(Session session, String provider) throws SQLException {
    session.execute("SET 'state.store.provider' = '" + provider + "'");
    session.execute("SET 'state.partitions' = '2'");
    session.execute("CREATE STREAM clicks (user_id VARCHAR, n INTEGER)");
    session.execute("CREATE MATERIALIZED VIEW per_user AS SELECT user_id, COUNT(*) AS c,"
        + " SUM(n) AS total FROM clicks GROUP BY user_id");
    insert(session, new ArrayList<>(), FIRST_ROWS);
  }

  /**
   * Runs the scenario on a new disk, losing power at operation {@code crashAt} of the batch, then
   * checks what an engine opened on the disk's durable contents does. The disk holds a copy of
   * {@code template}, or, if it is null, starts empty and the stream and view are declared on it.
   */
  private Outcome run(Path template, String provider, long crashAt) throws Exception {
    int run = ++runs;
    Path root = temp.resolve("disk-" + run);
    if (template == null) {
      Files.createDirectory(root);
    } else {
      copy(template, root);
    }
    SimulatedDisk disk = new SimulatedDisk(root);
    // Replaces the previous disk's: H2 finds file systems by scheme.
    h2Files = new SimulatedDiskH2Path(disk.fileSystem(), "");
    FilePath.register(h2Files);

    List<Object[]> acknowledged = new ArrayList<>(Arrays.asList(FIRST_ROWS));
    Engine engine = new Engine("power-" + run, Optional.of(disk.root()));
    engines.add(engine);
    Session session = engine.openSession();
    if (template == null) {
      declare(session, provider);
    }
    awaitIdleOrFailed(engine);

    disk.armAt(crashAt);
    Object[][] inserted = {{"a", 10}, {"c", 3}, {"d", 4}};
    // An INSERT the power loss interrupted after its record was forced, but before its
    // acknowledged end was (rows.ack), is kept whole: never acknowledged, but never half.
    List<Object[]> perhaps = new ArrayList<>(acknowledged);
    perhaps.addAll(Arrays.asList(inserted));
    try {
      insert(session, acknowledged, inserted);
    } catch (SQLException | RuntimeException e) {
      assertTrue(disk.lost(), "the INSERT failed without a power loss: " + e);
    }
    awaitIdleOrFailed(engine);
    long operations = disk.counted();
    boolean lost = disk.lost();
    String where = (lost ? "power lost at operation " + crashAt : "power lost after the batch")
        + " of " + operations + " (" + provider + "): " + disk.operations();
    assertEquals(List.of(), disk.bypassed(), "files written around the disk; " + where);
    // After the batch if it finished first: no shutdown gets to write anything.
    disk.powerOff();
    closeAfterPowerLoss(engine);
    engines.remove(engine);

    Path kept = Files.createDirectory(temp.resolve("kept-" + run));
    disk.restoreTo(kept);
    long committed = latestCommittedBatch(kept);
    assertTrue(committed >= 0, "batch 0 was committed before the crash; " + where);
    assertTrue(resultBatch(kept) >= committed, "commits/" + committed + " is on disk, but the"
        + " view's result holds batch " + resultBatch(kept) + " only; " + where);

    Engine recovered = new Engine("recovered-" + run, Optional.of(kept));
    engines.add(recovered);
    awaitIdle(recovered);
    List<List<Object>> view = view(recovered.openSession());
    if (!(acknowledged.size() < perhaps.size() && view.equals(groupBy(perhaps)))) {
      assertEquals(groupBy(acknowledged), view, where);
    }
    recovered.close();
    engines.remove(recovered);
    return new Outcome(lost, operations);
  }

  private static void insert(Session session, List<Object[]> acknowledged, Object[]... rows)
      throws SQLException {
    StringBuilder sql = new StringBuilder("INSERT INTO clicks VALUES ");
    for (int i = 0; i < rows.length; i++) {
      sql.append(i == 0 ? "" : ", ").append("('").append(rows[i][0]).append("', ")
          .append(rows[i][1]).append(')');
    }
    session.execute(sql.toString());
    // Returned: the rows are on disk.
    acknowledged.addAll(Arrays.asList(rows));
  }

  /** Waits until the view's query has read everything, or has failed by the power loss. */
  private static void awaitIdleOrFailed(Engine engine) throws InterruptedException {
    Optional<ContinuousQuery> query = engine.query(VIEW);
    assertTrue(query.isPresent(), "no query of " + VIEW);
    // Returns at once when the query fails.
    query.get().processAllAvailable(DEADLINE);
  }

  private static void awaitIdle(Engine engine) throws InterruptedException {
    ContinuousQuery query = engine.query(VIEW).orElseThrow(
        () -> new AssertionError("the recovered engine did not declare " + VIEW + " again"));
    assertTrue(query.processAllAvailable(DEADLINE), VIEW + " did not catch up within "
        + DEADLINE + ": " + query.status() + " " + query.exception());
  }

  /** H2's COUNT(*) and SUM(n) per user over {@code rows}: what the view must hold. */
  private static List<List<Object>> groupBy(List<Object[]> rows) throws SQLException {
    List<List<Object>> clicks = new ArrayList<>();
    for (Object[] row : rows) {
      clicks.add(List.of(row[0], row[1]));
    }
    try (H2Oracle h2 = new H2Oracle()) {
      h2.createTable("clicks", "user_id VARCHAR, n INTEGER").insert("clicks", clicks);
      List<List<Object>> expected = new ArrayList<>();
      for (List<Object> r : h2.query("SELECT user_id, COUNT(*), CAST(SUM(n) AS BIGINT)"
          + " FROM clicks GROUP BY user_id ORDER BY user_id")) {
        expected.add(List.of(r.get(0), ((Number) r.get(1)).longValue(),
            ((Number) r.get(2)).longValue()));
      }
      return expected;
    }
  }

  private static List<List<Object>> view(Session session) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    for (Object[] row : ((StatementResult.Rows) session.execute(
        "SELECT user_id, c, total FROM per_user ORDER BY user_id")).rows()) {
      rows.add(Arrays.asList(row));
    }
    return rows;
  }

  /** The newest batch in the view's {@code commits/}, or -1. */
  private static long latestCommittedBatch(Path dataDir) throws IOException {
    Path commits = dataDir.resolve("checkpoints").resolve(VIEW).resolve("commits");
    long latest = -1;
    if (Files.isDirectory(commits)) {
      try (DirectoryStream<Path> files = Files.newDirectoryStream(commits, "[0-9]*")) {
        for (Path file : files) {
          latest = Math.max(latest, Long.parseLong(file.getFileName().toString()));
        }
      }
    }
    return latest;
  }

  /**
   * The batch the view's result holds, or -1 if it holds none: for a view read from its state
   * (the memory provider), the newest batch every state partition committed; else the batch of
   * its result table in the H2 database.
   */
  private static long resultBatch(Path dataDir) throws SQLException, IOException {
    Path state = dataDir.resolve("checkpoints").resolve(VIEW).resolve("state").resolve("0");
    if (Files.isDirectory(state) && !hasResultTable(dataDir)) {
      long published = Long.MAX_VALUE;
      try (DirectoryStream<Path> partitions = Files.newDirectoryStream(state)) {
        for (Path partition : partitions) {
          published = Math.min(published, latestStateVersion(partition) - 1);
        }
      }
      return published == Long.MAX_VALUE ? -1 : published;
    }
    return tableBatch(dataDir);
  }

  /** The latest version a state partition's directory holds, as its provider reads it. */
  private static long latestStateVersion(Path partition) throws IOException {
    StateStoreSpec spec = new StateStoreSpec(new StateStoreId("check", 0,
        Integer.parseInt(partition.getFileName().toString())), partition,
        StateStoreSpec.DEFAULT_MIN_DELTAS_FOR_SNAPSHOT, 2);
    try (StateStoreProvider<Object, Object[]> provider =
        Files.exists(partition.resolve("state.mv.db"))
            ? new MVStoreStateStoreProvider(spec) : new DeltaFileStateStoreProvider(spec)) {
      return provider.latestCommittedVersion();
    }
  }

  private static boolean hasResultTable(Path dataDir) throws SQLException {
    return tableBatch(dataDir) >= 0;
  }

  /** The batch the view's result table in the H2 database holds, or -1 if there is none. */
  private static long tableBatch(Path dataDir) throws SQLException {
    String url = "jdbc:h2:file:" + dataDir.resolve("catalog").toAbsolutePath();
    try (Connection c = DriverManager.getConnection(url, "sa", "")) {
      try (ResultSet tables = c.getMetaData().getTables(null, null, "FRESHET_VIEW_RESULTS",
          null)) {
        if (!tables.next()) {
          return -1;
        }
      }
      try (PreparedStatement p = c.prepareStatement(
          "SELECT BATCH_ID FROM FRESHET_VIEW_RESULTS WHERE VIEW_NAME = ?")) {
        p.setString(1, VIEW);
        try (ResultSet r = p.executeQuery()) {
          return r.next() ? r.getLong(1) : -1;
        }
      }
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Files.copy(file, to.resolve(from.relativize(file).toString()));
      }
    }
  }

  /** Closes an engine whose disk may have lost power, which makes its files fail. */
  private static void closeAfterPowerLoss(Engine engine) {
    try {
      engine.close();
    } catch (RuntimeException e) {
      // Expected after a power loss: nothing it writes reaches the disk any more.
    }
  }
}
