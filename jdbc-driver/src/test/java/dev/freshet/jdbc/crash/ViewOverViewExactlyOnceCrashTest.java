package dev.freshet.jdbc.crash;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.testkit.CrashTest;
import dev.freshet.testkit.crash.ChildJvm;
import dev.freshet.testkit.crash.KillLoop;
import dev.freshet.testkit.oracle.H2Oracle;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly once for a view over a view across crashes: a child JVM runs an UPDATE view over a
 * memory stream and a view over the first view's changes, and INSERTs; the test SIGKILLs it at
 * random moments, starts it again on the same data directory, and at the end compares the
 * second view with H2 running the nested query over the stream: a batch of the second view that
 * runs again reads the same versions of the first, none is skipped and none read twice.
 */
@CrashTest
class ViewOverViewExactlyOnceCrashTest {
  /** Two kills and a verify: four JVM starts, about 20 s on the shared machine. */
  private static final int KILLS = 2;

  @TempDir Path dataDir;
  private long lastAck = -1;

  @Test void shouldEqualTheNestedQueryAfterKillsAtRandomMoments() throws Exception {
    KillLoop loop = new KillLoop();
    String context = loop.context();
    loop.run(KILLS, run -> child("run"), (child, run) -> {
      // Kill after a random number of further acknowledged INSERTs: 0 kills at start-up.
      int acks = loop.random().nextInt(15);
      child.awaitLine("START");
      for (int ack = 0; ack < acks; ack++) {
        lastAck = Math.max(lastAck, Long.parseLong(child.awaitLine("ACK ").substring(4)));
      }
    });

    ChildJvm.Output verify = child("verify").awaitExit();
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

  private ChildJvm child(String mode) throws Exception {
    return ChildJvm.of(ViewOverViewCrashTestChild.class).jvmOptions("-Xmx512m")
        .args(dataDir, mode).start();
  }
}
