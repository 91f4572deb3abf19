package dev.freshet.jdbc.crash;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.testkit.CrashTest;
import dev.freshet.testkit.crash.ChildJvm;
import dev.freshet.testkit.crash.KillLoop;
import dev.freshet.testkit.oracle.H2Oracle;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once across crashes for a stream-stream join: a child JVM runs a view joining two
 * streams with watermarks in a time range (both sides' rows in its state) and INSERTs into both;
 * the test SIGKILLs it at random moments, starts it again on the same data directory, and at the
 * end starts the engine once more (in the test's JVM) and compares the view's rows, duplicates
 * counted, with H2's join over everything the streams hold: no joined row lost, none twice.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@CrashTest
class JoinExactlyOnceCrashTest {
  private static final int KILLS = 4;
  // The child's event times: order i at i s, a payment at its step's i s, amount i (or -i out
  // of range), so the range condition is: step - order in [0, 10] seconds.
  private static final String JOIN = "SELECT o.id, p.amount FROM orders o JOIN payments p"
      + " ON o.id = p.order_id AND ABS(p.amount) - o.id BETWEEN 0 AND 10";

  @TempDir Path dataDir;
  // The most rows the view was seen to hold before a kill.
  private long viewed;

  @Test void shouldLoseNoJoinedRowAndEmitNoneTwiceWhenKilledAtRandomMoments() throws Exception {
    KillLoop loop = new KillLoop();
    String context = loop.context();
    loop.run(KILLS, run -> child(), (child, run) -> {
      int acks = 2 + loop.random().nextInt(12);
      for (int ack = 0; ack < acks; ack++) {
        child.awaitLine(this::see);
      }
    });
    // The engine started again after the last kill, in this JVM.
    try (RestartedEngine engine = new RestartedEngine(dataDir);
         H2Oracle h2 = new H2Oracle()) {
      for (String sql : JoinCrashTestChild.declarations()) {
        engine.execute(sql);
      }
      h2.createTable("orders", "id BIGINT").insertText("orders",
          engine.lines("SELECT id FROM orders"));
      h2.createTable("payments", "order_id BIGINT, amount BIGINT")
          .insertText("payments", engine.lines("SELECT order_id, amount FROM payments"));
      List<String> expected = h2.rows(JOIN);
      assertTrue(expected.size() >= viewed, context + ": the view had " + viewed
          + " rows before a kill, but the streams join to " + expected.size());
      try {
        engine.await("the view to hold " + expected.size() + " rows", Duration.ofMinutes(1),
            () -> engine.number("SELECT COUNT(*) FROM paid") >= expected.size());
      } catch (IllegalStateException stillShort) {
        // The comparison below shows the difference.
      }
      H2Oracle.assertSameRows(expected, engine.lines("SELECT id, amount FROM paid"),
          context + ", " + KILLS + " kills");
      if (viewed > 0) {
        assertTrue(engine.number("SELECT LAST_BATCH_ID FROM sys.queries WHERE NAME = 'PAID'") > 0,
            context + ": the view's query did not resume");
      }
    }
  }

  /** Notes what a run line says; true for an acknowledged step. */
  private boolean see(String line) {
    if (line.startsWith("VIEWED ")) {
      viewed = Math.max(viewed, Long.parseLong(line.substring(7)));
    }
    return line.startsWith("ACK ");
  }

  private ChildJvm child() throws Exception {
    return ChildJvm.of(JoinCrashTestChild.class).jvmOptions("-Xmx512m").args(dataDir).start();
  }
}
