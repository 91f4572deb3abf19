package dev.freshet.executor.state.internals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.state.ReadStateStore;
import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreException;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreSpec;
import dev.freshet.executor.storage.UnsignedBytesType;
import dev.freshet.testkit.CrashTest;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.type.LongDataType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tests what {@link MVStoreStateStoreProvider} adds to the contract of
 * {@link MVStoreStateStoreProviderContractTest}: recovery after the process dies in the middle of a
 * batch or of a re-run of the batch before the latest, the undo that keeps the version before the
 * latest, and its errors.
 */
class MVStoreStateStoreProviderTest {
  private static final StateStoreId ID = new StateStoreId("query-1", 0, 2);
  /** Small buffers, so that MVStore writes an unfinished batch to the file within a few writes. */
  private static final MVStoreStateStoreProvider.Options SMALL =
      new MVStoreStateStoreProvider.Options(1, 4, 4, true);
  /**
   * For batches of thousands of keys: MVStore still writes a few times in each, but not thousands
   * of times, which would be slow because until a commit it keeps every version it wrote and walks
   * their roots each time it writes.
   */
  private static final MVStoreStateStoreProvider.Options MEDIUM =
      new MVStoreStateStoreProvider.Options(1, 4, 32, true);

  @TempDir Path dir;

  private final List<MVStoreStateStoreProvider<?, ?>> opened = new ArrayList<>();

  @AfterEach void closeProviders() {
    for (MVStoreStateStoreProvider<?, ?> p : opened) {
      p.close();
    }
  }

  private StateStoreSpec spec(Path directory, int minVersionsToRetain) {
    return new StateStoreSpec(ID, directory, StateStoreSpec.DEFAULT_MIN_DELTAS_FOR_SNAPSHOT,
        minVersionsToRetain);
  }

  private <K, V> MVStoreStateStoreProvider<K, V> open(StateStoreSpec spec) {
    return open(spec, SMALL);
  }

  private <K, V> MVStoreStateStoreProvider<K, V> open(StateStoreSpec spec,
      MVStoreStateStoreProvider.Options options) {
    MVStoreStateStoreProvider<K, V> provider = new MVStoreStateStoreProvider<>(spec, options);
    opened.add(provider);
    return provider;
  }

  /**
   * Opens a file a child process wrote, with the child's options,
   * {@link MVStoreStateStoreProvider.Options#DEFAULT}. Recovery undoes what the killed batch changed, hundreds of thousands of keys; with the small
   * options, MVStore would write thousands of times before the commit, each time walking the
   * roots of all the versions it keeps until then, so ever more slowly.
   */
  private <K, V> MVStoreStateStoreProvider<K, V> openWithChildOptions(StateStoreSpec spec) {
    MVStoreStateStoreProvider<K, V> provider = new MVStoreStateStoreProvider<>(spec);
    opened.add(provider);
    return provider;
  }

  /** Commits version 1 with {@code k0..k99 -> 0..99}. */
  private static Map<String, Integer> commitFirstVersion(
      MVStoreStateStoreProvider<String, Integer> provider) {
    Map<String, Integer> state = new HashMap<>();
    StateStore<String, Integer> v0 = provider.getStore(0);
    for (int i = 0; i < 100; i++) {
      v0.put("k" + i, i);
      state.put("k" + i, i);
    }
    assertEquals(1, v0.commit());
    return state;
  }

  /** Writes into version 1 until MVStore has written part of the batch to the file. */
  private static void writeUntilMVStoreWrites(MVStoreStateStoreProvider<String, Integer> provider,
      StateStore<String, Integer> store, int from) {
    long committed = provider.mvStoreVersion();
    int i = from;
    while (provider.mvStoreVersion() < committed + 3) {
      store.put("new" + i, i);
      store.remove("k" + (i % 100));
      i++;
    }
  }

  @Test void shouldOpenLastCommittedVersionWhenClosedAbruptlyMidBatch() {
    StateStoreSpec spec = spec(dir.resolve("s"), 10);
    MVStoreStateStoreProvider<String, Integer> provider = open(spec);
    Map<String, Integer> state = commitFirstVersion(provider);
    StateStore<String, Integer> v1 = provider.getStore(1);
    writeUntilMVStoreWrites(provider, v1, 0);

    provider.closeAbruptly();
    MVStoreStateStoreProvider<String, Integer> reopened = open(spec);

    assertEquals(1, reopened.latestVersion());
    assertEquals(state, toMap(reopened.getStore(1).entries()));
  }

  @Test void shouldOpenLastCommittedVersionWhenFileIsCopiedMidBatch() throws IOException {
    MVStoreStateStoreProvider<String, Integer> provider = open(spec(dir.resolve("s"), 10));
    Map<String, Integer> state = commitFirstVersion(provider);
    StateStore<String, Integer> v1 = provider.getStore(1);

    // A copy of the file at any moment is what a process killed at that moment leaves.
    List<Path> copies = new ArrayList<>();
    for (int round = 0; round < 5; round++) {
      writeUntilMVStoreWrites(provider, v1, round * 1_000_000);
      Path copy = dir.resolve("copy" + round);
      Files.createDirectories(copy);
      Files.copy(provider.file(), copy.resolve(MVStoreStateStoreProvider.FILE_NAME));
      copies.add(copy);
    }
    v1.commit();
    Path committedCopy = dir.resolve("committed");
    Files.createDirectories(committedCopy);
    Files.copy(provider.file(), committedCopy.resolve(MVStoreStateStoreProvider.FILE_NAME));

    for (Path copy : copies) {
      MVStoreStateStoreProvider<String, Integer> recovered = open(spec(copy, 10));
      assertEquals(1, recovered.latestVersion(), copy.toString());
      assertEquals(state, toMap(
          recovered.getStore(1).entries()), copy.toString());
    }
    MVStoreStateStoreProvider<String, Integer> atCommit = open(spec(committedCopy, 10));
    assertEquals(2, atCommit.latestVersion());
    assertEquals(toMap(provider.getReadStore(2).entries()),
        toMap(atCommit.getReadStore(2).entries()));
  }

  @CrashTest
  @Test void shouldOpenLastCommittedVersionWhenProcessIsKilledMidBatch()
      throws IOException, InterruptedException {
    Path storeDir = dir.resolve("killed");
    Process child = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx128m", "-XX:TieredStopAtLevel=1",
        "-cp", System.getProperty("java.class.path"),
        MVStoreCrashMain.class.getName(),
        storeDir.toString())
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
    String line;
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      line = out.readLine();
      // SIGKILL: no shutdown hook, no close; what MVStore wrote so far stays in the file.
      child.destroyForcibly();
    }
    assertTrue(child.waitFor(1, TimeUnit.MINUTES), "the killed child did not end");
    assertEquals("WRITING", line, "the child ended before it was killed");

    MVStoreStateStoreProvider<String, Long> recovered =
        openWithChildOptions(StateStoreSpec.of(MVStoreCrashMain.ID, storeDir));
    assertEquals(2, recovered.latestVersion());
    Map<String, Long> expected = new HashMap<>();
    for (int i = 0; i < 999; i++) {
      expected.put("k" + i, i == 0 ? 2L : 1L);
    }
    ReadStateStore<String, Long> v2 = recovered.getStore(2);
    assertEquals(expected, toMap(v2.entries()));
    assertEquals(999, v2.numKeys());
  }

  /**
   * Regression: rolling MVStore back to a commit older than the last returned an empty or older
   * state once chunks had been reused, so the provider keeps only the latest version and, through
   * its undo, the one before; older ones fail, naming the oldest it has.
   */
  @Test void shouldThrowNamingOldestVersionAndFileWhenOpeningOlderVersion() {
    StateStoreSpec spec = spec(dir.resolve("s"), 10);
    MVStoreStateStoreProvider<String, Integer> provider = open(spec);
    for (int v = 0; v < 6; v++) {
      StateStore<String, Integer> store = provider.getStore(v);
      store.put("k", v);
      store.commit();
    }
    Path file = provider.file();

    Map<Long, String> expected = Map.of(
        -1L, "the oldest version " + file + " holds is 5; this provider keeps only the latest"
            + " committed version, 6, and the one before it",
        4L, "the oldest version " + file + " holds is 5; this provider keeps only the latest"
            + " committed version, 6, and the one before it",
        7L, "the latest committed version in " + file + " is 6");
    expected.forEach((version, why) -> {
      StateStoreException e = assertThrows(StateStoreException.class,
          () -> provider.getStore(version));
      assertEquals("Cannot load version " + version + " of " + ID + ": " + why, e.getMessage());
      StateStoreException read = assertThrows(StateStoreException.class,
          () -> provider.getReadStore(version));
      assertEquals(e.getMessage(), read.getMessage());
    });
    assertEquals(4, provider.getReadStore(5).get("k"));
    provider.close();
    MVStoreStateStoreProvider<String, Integer> reopened = open(spec);
    assertEquals(6, reopened.latestVersion());
    assertEquals(5, reopened.getReadStore(6).get("k"));
    assertEquals(4, reopened.getStore(5).get("k"));
    assertThrows(StateStoreException.class, () -> reopened.getReadStore(4));
  }

  @Test void shouldThrowNamingVersionZeroWhenOpeningNegativeVersionOfNewFile() {
    MVStoreStateStoreProvider<String, Integer> provider = open(spec(dir.resolve("s"), 10));

    StateStoreException e = assertThrows(StateStoreException.class, () -> provider.getStore(-1));
    assertEquals("Cannot load version -1 of " + ID + ": the oldest version " + provider.file()
        + " holds is 0; versions start at 0", e.getMessage());
  }

  /** Version 1: {@code k0..k1999}; version 2 removes, changes and adds a few hundred keys each. */
  private static TreeMap<String, Integer> commitTwoLargeVersions(
      MVStoreStateStoreProvider<String, Integer> provider, TreeMap<String, Integer> v1) {
    StateStore<String, Integer> v0 = provider.getStore(0);
    for (int i = 0; i < 2_000; i++) {
      v0.put("k" + i, i);
      v1.put("k" + i, i);
    }
    assertEquals(1, v0.commit());
    TreeMap<String, Integer> v2 = new TreeMap<>(v1);
    StateStore<String, Integer> store = provider.getStore(1);
    for (int i = 0; i < 3_000; i++) {
      String key = "k" + i;
      if (i % 5 == 0) {
        store.remove(key);
        v2.remove(key);
      } else if (i % 5 == 1 || i >= 2_000) {
        store.put(key, -i);
        v2.put(key, -i);
      }
    }
    assertEquals(2, store.commit());
    return v2;
  }

  /**
   * The undo of a batch that changed more keys than the write and page buffers hold: MVStore
   * writes pages of the data and undo maps in the middle of the batch and of applying the undo.
   */
  @Test void shouldRestorePreviousVersionExactlyWhenBatchChangedManyKeys() {
    StateStoreSpec spec = spec(dir.resolve("s"), 10);
    MVStoreStateStoreProvider<String, Integer> provider = open(spec, MEDIUM);
    TreeMap<String, Integer> v1 = new TreeMap<>();
    TreeMap<String, Integer> v2 = commitTwoLargeVersions(provider, v1);

    assertContents(v1, provider.getReadStore(1));
    long committed = provider.mvStoreVersion();
    StateStore<String, Integer> rerun = provider.getStore(1);
    assertTrue(provider.mvStoreVersion() > committed, "MVStore wrote while applying the undo");
    assertContents(v1, rerun);
    assertContents(v1, provider.getReadStore(1));
    assertContents(v2, provider.getReadStore(2));
    rerun.abort();
    assertContents(v2, provider.getReadStore(2));

    rerun = provider.getStore(1);
    TreeMap<String, Integer> rerunV2 = new TreeMap<>(v1);
    for (int i = 0; i < 2_500; i += 3) {
      rerun.put("k" + i, i * 10);
      rerunV2.put("k" + i, i * 10);
    }
    rerun.remove("k1");
    rerunV2.remove("k1");
    assertEquals(2, rerun.commit());
    assertContents(rerunV2, provider.getReadStore(2));
    assertContents(v1, provider.getReadStore(1));

    provider.close();
    MVStoreStateStoreProvider<String, Integer> reopened = open(spec, MEDIUM);
    assertContents(rerunV2, reopened.getReadStore(2));
    assertContents(v1, reopened.getReadStore(1));
    assertContents(v1, reopened.getStore(1));
  }

  @Test void shouldThrowWhenReadStoreOutlivesVersionReplacedByRerun() {
    MVStoreStateStoreProvider<String, Integer> provider = open(spec(dir.resolve("s"), 10));
    commitFirstVersion(provider);
    StateStore<String, Integer> v1 = provider.getStore(1);
    v1.put("k1", -1);
    v1.commit();
    ReadStateStore<String, Integer> old2 = provider.getReadStore(2);
    ReadStateStore<String, Integer> old1 = provider.getReadStore(1);

    StateStore<String, Integer> rerun = provider.getStore(1);
    assertEquals(-1, old2.get("k1"));
    assertEquals(1, old1.get("k1"));
    rerun.put("k1", -2);
    rerun.commit();

    StateStoreException replaced = assertThrows(StateStoreException.class, () -> old2.get("k1"));
    assertEquals("Version 2 of " + ID + " can no longer be read: batch 1 was re-run and committed"
        + " it again", replaced.getMessage());
    StateStoreException older = assertThrows(StateStoreException.class, old1::numKeys);
    assertEquals("Version 1 of " + ID + " can no longer be read: a later version was committed",
        older.getMessage());
    assertEquals(-2, provider.getReadStore(2).get("k1"));
    assertEquals(1, provider.getReadStore(1).get("k1"));
  }

  @Test void shouldOpenLatestVersionWhenClosedAbruptlyDuringRerun() {
    StateStoreSpec spec = spec(dir.resolve("s"), 10);
    MVStoreStateStoreProvider<String, Integer> provider = open(spec, MEDIUM);
    TreeMap<String, Integer> v1 = new TreeMap<>();
    TreeMap<String, Integer> v2 = commitTwoLargeVersions(provider, v1);
    StateStore<String, Integer> rerun = provider.getStore(1);
    writeUntilMVStoreWrites(provider, rerun, 0);

    provider.closeAbruptly();
    MVStoreStateStoreProvider<String, Integer> reopened = open(spec, MEDIUM);

    assertEquals(2, reopened.latestVersion());
    assertContents(v2, reopened.getReadStore(2));
    assertContents(v1, reopened.getReadStore(1));
    StateStore<String, Integer> again = reopened.getStore(1);
    assertContents(v1, again);
    again.put("k0", 7);
    assertEquals(2, again.commit());
    v1.put("k0", 7);
    assertContents(v1, reopened.getReadStore(2));
  }

  /**
   * A copy of the file at a moment of the re-run is what a process killed at that moment leaves:
   * after the undo was applied, in the middle of the batch after it, and after the re-run's commit.
   */
  @Test void shouldOpenCommittedVersionWhenFileIsCopiedDuringRerun() throws IOException {
    MVStoreStateStoreProvider<String, Integer> provider = open(spec(dir.resolve("s"), 10), MEDIUM);
    TreeMap<String, Integer> v1 = new TreeMap<>();
    TreeMap<String, Integer> v2 = commitTwoLargeVersions(provider, v1);
    StateStore<String, Integer> rerun = provider.getStore(1);

    List<Path> copies = new ArrayList<>();
    copies.add(copy(provider, "applied"));
    for (int round = 0; round < 3; round++) {
      writeUntilMVStoreWrites(provider, rerun, round * 1_000_000);
      copies.add(copy(provider, "writing" + round));
    }
    TreeMap<String, Integer> rerunV2 = toTreeMap(rerun.entries());
    rerun.commit();
    Path committed = copy(provider, "committed");

    for (Path copy : copies) {
      MVStoreStateStoreProvider<String, Integer> recovered = open(spec(copy, 10), MEDIUM);
      assertEquals(2, recovered.latestVersion(), copy.toString());
      assertContents(v2, recovered.getReadStore(2));
      assertContents(v1, recovered.getStore(1));
    }
    MVStoreStateStoreProvider<String, Integer> atCommit = open(spec(committed, 10), MEDIUM);
    assertEquals(2, atCommit.latestVersion());
    assertContents(rerunV2, atCommit.getReadStore(2));
    assertContents(v1, atCommit.getReadStore(1));
  }

  private Path copy(MVStoreStateStoreProvider<?, ?> provider, String name) throws IOException {
    Path copy = dir.resolve(name);
    Files.createDirectories(copy);
    Files.copy(provider.file(), copy.resolve(MVStoreStateStoreProvider.FILE_NAME));
    return copy;
  }

  /**
   * SIGKILL while the provider applies the undo of version 2 to re-run batch 1, or while the
   * re-run writes after it: the file opens at version 2, and version 1 is still there to re-run.
   * For the first, the test kills the child once the file changed after the child began to apply
   * the undo (75,000 keys), which is when MVStore first wrote part of it; whether the application
   * was still going on then cannot be seen from outside, only that it had written, so the test
   * prints whether the child reported its end first.
   */
  @CrashTest
  @ParameterizedTest(name = "killed at {0}")
  @ValueSource(strings = {"APPLYING", "WRITING"})
  void shouldOpenLatestVersionWhenProcessIsKilledDuringRerun(String killAt)
      throws IOException, InterruptedException {
    // The kill must land while the re-run is open in the file. The file's first change after
    // APPLYING is not always the re-run's record (a CI run once killed the child before that
    // record was written), so a kill can land outside the window; such an attempt shows
    // nothing either way, and the test tries again.
    Path storeDir = null;
    List<String> attempts = new ArrayList<>();
    for (int attempt = 0; attempt < KILL_ATTEMPTS && storeDir == null; attempt++) {
      Path candidate = dir.resolve("killed" + attempt);
      List<String> lines = killChildDuringRerun(candidate, killAt);
      // The kill left a store open in the file: MVStore wrote after the re-run began.
      int rollback = rollbackMapInFile(candidate.resolve(MVStoreStateStoreProvider.FILE_NAME));
      System.out.println("killed at " + killAt + ": the child printed " + lines
          + "; the file names rollback map " + rollback);
      attempts.add(lines + " -> rollback map " + rollback);
      if (rollback >= 0) {
        storeDir = candidate;
      }
    }
    assertTrue(storeDir != null,
        "no kill landed while the re-run was open in the file: " + attempts);

    MVStoreStateStoreProvider<String, Long> recovered =
        openWithChildOptions(StateStoreSpec.of(MVStoreRerunCrashMain.ID, storeDir));
    assertEquals(2, recovered.latestVersion());
    Map<String, Long> v1 = new HashMap<>();
    Map<String, Long> v2 = new HashMap<>();
    for (int i = 0; i < MVStoreRerunCrashMain.KEYS * 3 / 2; i++) {
      if (i < MVStoreRerunCrashMain.KEYS) {
        v1.put("k" + i, MVStoreRerunCrashMain.version1(i));
      }
      Long value = MVStoreRerunCrashMain.version2(i);
      if (value != null) {
        v2.put("k" + i, value);
      }
    }
    ReadStateStore<String, Long> read2 = recovered.getReadStore(2);
    assertEquals(v2.size(), read2.numKeys());
    assertEquals(v2, toMap(read2.entries()));
    StateStore<String, Long> rerun = recovered.getStore(1);
    assertEquals(v1.size(), rerun.numKeys());
    assertEquals(v1, toMap(rerun.entries()));
    rerun.put("k0", 42L);
    assertEquals(2, rerun.commit());
    assertEquals(42L, recovered.getReadStore(2).get("k0"));
    assertEquals(v1.size(), recovered.getReadStore(2).numKeys());
  }

  /** Kills of the re-run child tried before the test gives up finding the window. */
  private static final int KILL_ATTEMPTS = 5;

  /**
   * Runs {@link MVStoreRerunCrashMain} on {@code storeDir} and SIGKILLs it when it prints
   * {@code killAt} (for {@code APPLYING}, once the file changed after that); returns what it printed.
   */
  private static List<String> killChildDuringRerun(Path storeDir, String killAt)
      throws IOException, InterruptedException {
    Path storeFile = storeDir.resolve(MVStoreStateStoreProvider.FILE_NAME);
    Process child = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx128m", "-XX:TieredStopAtLevel=1",
        "-cp", System.getProperty("java.class.path"),
        MVStoreRerunCrashMain.class.getName(),
        storeDir.toString())
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        lines.add(line);
        if (line.equals(killAt)) {
          if (killAt.equals("APPLYING")) {
            awaitChange(storeFile, out, lines);
          }
          // SIGKILL: no shutdown hook, no close; what MVStore wrote so far stays in the file.
          child.destroyForcibly();
          break;
        }
      }
    }
    assertTrue(child.waitFor(1, TimeUnit.MINUTES), "the killed child did not end");
    assertTrue(lines.contains(killAt), "the child ended before it was killed: " + lines);
    return lines;
  }

  /**
   * Waits until {@code file} was written since it is called, collecting what the child prints
   * meanwhile; fails after a minute.
   */
  private static void awaitChange(Path file, BufferedReader out, List<String> lines)
      throws IOException {
    FileTime before = Files.getLastModifiedTime(file);
    long size = Files.size(file);
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (Files.getLastModifiedTime(file).equals(before) && Files.size(file) == size) {
      while (out.ready()) {
        lines.add(out.readLine());
      }
      assertTrue(System.nanoTime() < deadline, "the child did not write " + file + ": " + lines);
      Thread.onSpinWait();
    }
  }

  /**
   * The rollback undo map the record of a file names, -1 if none: whether MVStore wrote the file
   * while a store was open (and had changed something, or was re-running a batch).
   */
  private static int rollbackMapInFile(Path file) {
    try (MVStore store = new MVStore.Builder().fileName(file.toString()).readOnly().open()) {
      MVMap<Long, byte[]> versions = store.openMap("versions",
          new MVMap.Builder<Long, byte[]>().keyType(LongDataType.INSTANCE)
              .valueType(UnsignedBytesType.INSTANCE));
      return MVStoreVersionRecord.decode(versions.get(versions.lastKey()))
          .rollback();
    }
  }

  /**
   * Model test of the two versions the provider holds, with crashes: seeded random put, remove,
   * commit, abort, re-run of the batch before the latest, going back to the latest, reopening,
   * closing abruptly (MVStore has usually written part of the open batch, or of the applied undo)
   * and opening a copy of the file, against a {@link TreeMap} per version held. Set
   * {@code -Dfreshet.test.seed} to replay a run.
   */
  @Test void shouldMatchTwoVersionModelWhenCrashingRandomly() throws IOException {
    long rootSeed = Long.getLong("freshet.test.seed", System.nanoTime());
    Random seeds = new Random(rootSeed);
    for (int run = 0; run < 15; run++) {
      long seed = seeds.nextLong();
      System.out.println("crash model run " + run + ": rootSeed=" + rootSeed + ", seed=" + seed);
      runCrashModel(seed, run, "rootSeed=" + rootSeed + " (set -Dfreshet.test.seed), seed=" + seed);
    }
  }

  private void runCrashModel(long seed, int run, String where) throws IOException {
    Random random = new Random(seed);
    StateStoreSpec spec = spec(dir.resolve("model" + run), 10);
    MVStoreStateStoreProvider<String, Integer> provider = openTiny(spec);
    String[] keys = new String[1 + random.nextInt(60)];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = i == 0 ? null : "k" + i;
    }
    // The versions the provider holds: the latest committed and, once there is one, the one before.
    TreeMap<Long, TreeMap<String, Integer>> held = new TreeMap<>();
    held.put(0L, newModel());
    long version = 0;
    TreeMap<String, Integer> working = newModel();
    StateStore<String, Integer> store = provider.getStore(version);
    List<String> log = new ArrayList<>();
    for (int step = 0; step < 400; step++) {
      int currentStep = step;
      // Built when needed, so that it lists the operation being checked.
      Supplier<String> at = () -> where + ", step=" + currentStep + ", ops="
          + log.subList(Math.max(0, log.size() - 12), log.size());
      long latest = held.lastKey();
      try {
        String key = keys[random.nextInt(keys.length)];
        int op = random.nextInt(100);
        if (op < 45) {
          int value = random.nextInt(1000);
          log.add("put(" + key + "," + value + ")");
          store.put(key, value);
          working.put(key, value);
        } else if (op < 65) {
          log.add("remove(" + key + ")");
          store.remove(key);
          working.remove(key);
        } else if (op < 75) {
          log.add("commit@" + version);
          assertEquals(version + 1, store.commit(), at);
          TreeMap<String, Integer> base = held.get(version);
          held.clear();
          held.put(version, base);
          held.put(version + 1, copy(working));
          version++;
          store = provider.getStore(version);
        } else if (op < 80) {
          log.add("abort@" + version);
          store.abort();
          working = copy(held.get(version));
          store = provider.getStore(version);
        } else if (op < 88) {
          long other = version == latest ? held.firstKey() : latest;
          log.add("switch(" + other + ")@" + version);
          store.abort();
          version = other;
          working = copy(held.get(version));
          store = provider.getStore(version);
        } else if (op < 91) {
          log.add("reopen@" + version);
          provider.close();
          provider = openTiny(spec);
          working = copy(held.get(version));
          store = provider.getStore(version);
        } else if (op < 95) {
          version = random.nextBoolean() ? held.firstKey() : latest;
          log.add("crash, open " + version);
          provider.closeAbruptly();
          provider = openTiny(spec);
          assertEquals(latest, provider.latestVersion(), at);
          working = copy(held.get(version));
          store = provider.getStore(version);
        } else if (op < 97) {
          log.add("copy@" + version);
          Path copy = dir.resolve("model" + run + "copy" + step);
          Files.createDirectories(copy);
          Files.copy(provider.file(), copy.resolve(MVStoreStateStoreProvider.FILE_NAME));
          MVStoreStateStoreProvider<String, Integer> copied = openTiny(spec(copy, 10));
          assertHeld(copied, held, at);
          copied.close();
        } else {
          log.add("read@" + version);
          assertHeld(provider, held, at);
        }
        assertEquals(version, store.version(), at);
        assertEquals(working.size(), store.numKeys(), at);
        assertEquals(working, toTreeMap(store.entries()), at);
        for (String k : keys) {
          assertEquals(working.get(k), store.get(k), () -> "get(" + k + "); " + at.get());
        }
      } catch (RuntimeException e) {
        throw new AssertionError(at.get(), e);
      }
    }
    store.abort();
  }

  /** Tiny buffers: MVStore writes pages to the file every few writes. */
  private <K, V> MVStoreStateStoreProvider<K, V> openTiny(StateStoreSpec spec) {
    MVStoreStateStoreProvider<K, V> provider = new MVStoreStateStoreProvider<>(spec,
        MVStoreStateStoreProviderContractTest.SMALL);
    opened.add(provider);
    return provider;
  }

  /** Checks that {@code provider} holds exactly the versions of {@code held}. */
  private static void assertHeld(MVStoreStateStoreProvider<String, Integer> provider,
      TreeMap<Long, TreeMap<String, Integer>> held, Supplier<String> at) {
    assertEquals(held.lastKey(), provider.latestVersion(), at);
    for (Map.Entry<Long, TreeMap<String, Integer>> e : held.entrySet()) {
      ReadStateStore<String, Integer> read = provider.getReadStore(e.getKey());
      Supplier<String> which = () -> "version " + e.getKey() + "; " + at.get();
      assertEquals(e.getValue(), toTreeMap(read.entries()), which);
      assertEquals(e.getValue().size(), read.numKeys(), which);
      for (String k : e.getValue().keySet()) {
        assertEquals(e.getValue().get(k), read.get(k), which);
      }
    }
    long tooOld = held.firstKey() - 1;
    StateStoreException e = assertThrows(StateStoreException.class,
        () -> provider.getReadStore(tooOld), at);
    assertTrue(e.getMessage().startsWith("Cannot load version " + tooOld + " of " + ID + ": "), at);
  }

  private static TreeMap<String, Integer> newModel() {
    return new TreeMap<>(Comparator.nullsFirst(Comparator.<String>naturalOrder()));
  }

  private static TreeMap<String, Integer> copy(TreeMap<String, Integer> model) {
    TreeMap<String, Integer> copy = newModel();
    copy.putAll(model);
    return copy;
  }

  private static <V> TreeMap<String, V> toTreeMap(Iterable<Map.Entry<String, V>> entries) {
    TreeMap<String, V> map = new TreeMap<>(Comparator.nullsFirst(Comparator.naturalOrder()));
    for (Map.Entry<String, V> e : entries) {
      assertFalse(map.containsKey(e.getKey()), "entries() repeats key " + e.getKey());
      map.put(e.getKey(), e.getValue());
    }
    return map;
  }

  /** Checks entries, count and every key's value, and that a key absent from both is absent. */
  private static void assertContents(Map<String, Integer> expected,
      ReadStateStore<String, Integer> store) {
    assertEquals(expected, toTreeMap(store.entries()));
    assertEquals(expected.size(), store.numKeys());
    for (int i = 0; i < 3_000; i++) {
      assertEquals(expected.get("k" + i), store.get("k" + i), "get(k" + i + ")");
    }
  }

  @Test void shouldRejectFileWhenLayoutVersionIsUnknown() {
    StateStoreSpec spec = spec(dir.resolve("s"), 10);
    open(spec).close();
    try (MVStore store = new MVStore.Builder()
        .fileName(spec.directory().resolve(MVStoreStateStoreProvider.FILE_NAME).toString())
        .open()) {
      MVMap<String, String> info = store.openMap("info");
      info.put("layout", "2");
      store.commit();
    }

    StateStoreException e = assertThrows(StateStoreException.class,
        () -> new MVStoreStateStoreProvider<String, Integer>(spec));
    assertEquals(spec.directory().resolve(MVStoreStateStoreProvider.FILE_NAME) + " of " + ID
        + " has layout version 2 and codec version 1; this Freshet reads layout version 1 with"
        + " codec version 1", e.getMessage());
  }

  @Test void shouldRejectSecondProviderWhenFileIsOpen() {
    StateStoreSpec spec = spec(dir.resolve("s"), 10);
    open(spec);

    StateStoreException e = assertThrows(StateStoreException.class,
        () -> new MVStoreStateStoreProvider<String, Integer>(spec));
    assertEquals("Cannot open " + spec.directory().resolve(MVStoreStateStoreProvider.FILE_NAME)
        + " of " + ID, e.getMessage());
    assertInstanceOf(org.h2.mvstore.MVStoreException.class, e.getCause());
  }

  @Test void shouldThrowWhenReadStoreOutlivesItsVersion() {
    MVStoreStateStoreProvider<String, Integer> provider = open(spec(dir.resolve("s"), 10));
    commitFirstVersion(provider);
    ReadStateStore<String, Integer> v1 = provider.getReadStore(1);
    StateStore<String, Integer> writer = provider.getStore(1);
    writer.put("k1", -1);
    assertEquals(1, v1.get("k1"));
    writer.commit();

    StateStoreException e = assertThrows(StateStoreException.class, () -> v1.get("k1"));
    assertEquals("Version 1 of " + ID + " can no longer be read: a later version was committed",
        e.getMessage());
    assertThrows(StateStoreException.class, v1::numKeys);
    assertThrows(StateStoreException.class, () -> v1.entries().iterator());
    assertEquals(-1, provider.getReadStore(2).get("k1"));
  }

  @Test void shouldThrowNamingStoreWhenClosed() {
    MVStoreStateStoreProvider<String, Integer> provider = open(spec(dir.resolve("s"), 10));
    commitFirstVersion(provider);
    ReadStateStore<String, Integer> read = provider.getReadStore(1);
    provider.close();

    for (Runnable call : List.<Runnable>of(() -> provider.getStore(1),
        () -> provider.getReadStore(1), () -> read.get("k1"))) {
      StateStoreException e = assertThrows(StateStoreException.class, call::run);
      assertEquals(ID + " is closed", e.getMessage());
    }
  }

  private static <K, V> Map<K, V> toMap(Iterable<Map.Entry<K, V>> entries) {
    Map<K, V> map = new HashMap<>();
    for (Map.Entry<K, V> e : entries) {
      assertNull(map.put(e.getKey(), e.getValue()), "entries() repeats key " + e.getKey());
    }
    return map;
  }
}
