package dev.freshet.jdbc.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.testkit.CrashTest;
import dev.freshet.testkit.crash.ChildJvm;
import dev.freshet.testkit.crash.KillLoop;
import dev.freshet.testkit.oracle.H2Oracle;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once across crashes: a child JVM runs a named UPDATE-mode view over a memory stream
 * and INSERTs into it; the test SIGKILLs it at random moments (during INSERTs, mid-batch, between
 * the offset and commit log writes, during state commits and snapshots, as they fall), starts it
 * again on the same data directory, and at the end starts the engine once more (in the test's
 * JVM) and compares the view with H2's GROUP BY over the stream: nothing acknowledged is lost,
 * nothing is counted twice.
 *
 * <p>One subclass per state store provider ({@link InMemoryExactlyOnceCrashTest},
 * {@link MVStoreExactlyOnceCrashTest}): each is a whole test class, so the build's two test JVMs
 * run the two providers' kill loops at once instead of one after the other.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@CrashTest
abstract class ExactlyOnceCrashTest {
  /**
   * Kills per state store provider: the twenty issue 4's acceptance line names. Random kills
   * sample the moments of a batch; the power-loss test (engine, PowerLossTest) also crashes at
   * every file operation of one in turn.
   */
  private static final int KILLS = 20;

  @TempDir Path dataDir;
  private long lastAck = -1;
  // The most rows the view was seen to have counted before the last kill.
  private long viewed;

  /** The state store provider the view runs on, as its {@code state.provider} option names it. */
  abstract String provider();

  @Test void shouldLoseNothingAndCountNothingTwiceWhenKilledAtRandomMoments() throws Exception {
    String provider = provider();
    KillLoop loop = new KillLoop();
    String context = "provider " + provider + ", " + loop.context();
    loop.run(KILLS, run -> child(provider), (child, run) -> {
      // Kill after a random number of further acknowledged INSERTs: 0 kills at start-up.
      int acks = loop.random().nextInt(12);
      child.awaitLine("START");
      for (int ack = 0; ack < acks; ack++) {
        child.awaitLine(this::see);
      }
    });

    ChildJvm.Output verify = verify(provider);
    List<String> in = verify.values("IN");
    // The last run resumed from the checkpoint: it did not start over from the first row.
    long lastBatch = verify.last("LASTBATCH", -1);
    if (viewed > 0) {
      assertTrue(lastBatch > 0, context + ": the view's query did not resume; last batch "
          + lastBatch);
    }
    // Rows the view had committed before a kill are never read again; how many it committed
    // depends on when the kills came, so the bound is what the runs saw.
    long read = verify.last("READ", -1);
    assertTrue(read <= in.size() - viewed, context + ": the last run read " + read + " of "
        + in.size() + " rows, though the view had counted " + viewed + " before");

    // Every acknowledged INSERT is in the stream, each exactly once, with all its rows.
    TreeSet<Long> statements = new TreeSet<>();
    for (String row : in) {
      statements.add(Long.parseLong(row.split(" ")[1]) / 100);
    }
    assertEquals(in.size(), statements.size() * CrashTestChild.ROWS, context + ": torn INSERT");
    for (long i = 0; i <= lastAck; i++) {
      assertTrue(statements.contains(i), context + ": acknowledged INSERT " + i + " lost");
    }

    try (H2Oracle h2 = new H2Oracle()) {
      h2.createTable("clicks", "user_id VARCHAR, amount BIGINT").insertText("clicks", in);
      h2.assertSameRows("SELECT user_id, COUNT(*), SUM(amount) FROM clicks GROUP BY user_id",
          verify.values("ROW"), context + ", " + KILLS + " kills, last ack " + lastAck);
    }
  }

  /** Notes what a run line says; true for an acknowledged INSERT. */
  private boolean see(String line) {
    if (line.startsWith("VIEWED ")) {
      viewed = Math.max(viewed, Long.parseLong(line.substring(7)));
    } else if (line.startsWith("ACK ")) {
      lastAck = Math.max(lastAck, Long.parseLong(line.substring(4)));
      return true;
    }
    return false;
  }

  private ChildJvm child(String provider) throws Exception {
    return ChildJvm.of(CrashTestChild.class).jvmOptions("-Xmx512m")
        .args(dataDir, provider).start();
  }

  /**
   * Starts the engine again after the last kill, in this JVM, waits until the view has caught up
   * with the stream, and returns the stream's rows ({@code IN}), the view's rows ({@code ROW}),
   * the batch its query resumed at ({@code LASTBATCH}) and the rows it read since ({@code READ}),
   * as lines a child would print.
   */
  private ChildJvm.Output verify(String provider) throws Exception {
    List<String> lines = new ArrayList<>();
    try (RestartedEngine engine = new RestartedEngine(dataDir)) {
      for (String sql : CrashTestChild.declarations(provider)) {
        engine.execute(sql);
      }
      long rows = engine.number("SELECT COUNT(*) FROM clicks");
      engine.await("the view to catch up with " + rows + " rows", Duration.ofMinutes(2),
          () -> engine.number("SELECT COALESCE(SUM(n), 0) FROM totals") == rows);
      for (String line : engine.lines("SELECT user_id, amount FROM clicks")) {
        lines.add("IN " + line);
      }
      for (String line : engine.lines("SELECT user_id, n, total FROM totals")) {
        lines.add("ROW " + line);
      }
      // How the view's query started in this engine: resumed at a later batch, reading only new
      // rows.
      lines.add("LASTBATCH " + engine.number("SELECT LAST_BATCH_ID FROM sys.queries"
          + " WHERE NAME = 'TOTALS'"));
      lines.add("READ " + engine.number("SELECT COALESCE(SUM(NUM_INPUT_ROWS), 0)"
          + " FROM sys.query_progress WHERE NAME = 'TOTALS'"));
    }
    return new ChildJvm.Output(lines);
  }
}
