package dev.freshet.jdbc.crash;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.testkit.CrashTest;
import dev.freshet.testkit.crash.ChildJvm;
import dev.freshet.testkit.crash.KillLoop;
import dev.freshet.testkit.oracle.H2Oracle;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly once for a view over a view across crashes: a child JVM runs an UPDATE view over a
 * memory stream and a view over the first view's changes, and INSERTs; the test SIGKILLs it at
 * random moments, starts it again on the same data directory, and at the end starts the engine
 * once more (in the test's JVM) and compares the second view with H2 running the nested query
 * over the stream: a batch of the second view that runs again reads the same versions of the
 * first, none is skipped and none read twice.
 */
@CrashTest
class ViewOverViewExactlyOnceCrashTest {
  /** Two kills, then a check in the test's JVM. */
  private static final int KILLS = 2;

  @TempDir Path dataDir;
  private long lastAck = -1;

  @Test void shouldEqualTheNestedQueryAfterKillsAtRandomMoments() throws Exception {
    KillLoop loop = new KillLoop();
    String context = loop.context();
    loop.run(KILLS, run -> child(), (child, run) -> {
      // Kill after a random number of further acknowledged INSERTs: 0 kills at start-up.
      int acks = loop.random().nextInt(15);
      child.awaitLine("START");
      for (int ack = 0; ack < acks; ack++) {
        lastAck = Math.max(lastAck, Long.parseLong(child.awaitLine("ACK ").substring(4)));
      }
    });

    ChildJvm.Output verify = verify();
    List<String> in = verify.values("IN");
    assertTrue(in.size() >= (lastAck + 1) * ViewOverViewCrashTestChild.ROWS,
        context + ": acknowledged rows lost");
    try (H2Oracle h2 = new H2Oracle()) {
      h2.createTable("clicks", "user_id VARCHAR, amount BIGINT").insertText("clicks", in);
      h2.assertSameRows(ViewOverViewCrashTestChild.DOWNSTREAM.formatted(
          "(" + ViewOverViewCrashTestChild.UPSTREAM + ")"), verify.values("ROW"),
          context + ", " + KILLS + " kills, last ack " + lastAck);
    }
  }

  private ChildJvm child() throws Exception {
    return ChildJvm.of(ViewOverViewCrashTestChild.class).jvmOptions("-Xmx512m")
        .args(dataDir).start();
  }

  /**
   * Starts the engine again after the last kill, in this JVM, waits until both views have caught
   * up with the stream, and returns the stream's rows ({@code IN}) and {@code per_count}'s rows
   * ({@code ROW}), as lines a child would print.
   */
  private ChildJvm.Output verify() throws Exception {
    List<String> lines = new ArrayList<>();
    try (RestartedEngine engine = new RestartedEngine(dataDir)) {
      for (String sql : ViewOverViewCrashTestChild.declarations()) {
        engine.execute(sql);
      }
      long rows = engine.number("SELECT COUNT(*) FROM clicks");
      // per_count has caught up when its groups hold every row: n rows for each of its users.
      engine.await("the views to catch up with " + rows + " rows", Duration.ofMinutes(2),
          () -> engine.number("SELECT COALESCE(SUM(n), 0) FROM per_user") == rows
              && engine.number("SELECT COALESCE(SUM(n * users), 0) FROM per_count") == rows);
      for (String line : engine.lines("SELECT user_id, amount FROM clicks")) {
        lines.add("IN " + line);
      }
      for (String line : engine.lines("SELECT n, users, total, lo, hi FROM per_count")) {
        lines.add("ROW " + line);
      }
    }
    return new ChildJvm.Output(lines);
  }
}
