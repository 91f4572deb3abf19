package dev.freshet.spark.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.testkit.CrashTest;
import dev.freshet.testkit.SparkTest;
import dev.freshet.testkit.crash.ChildJvm;
import dev.freshet.testkit.crash.KillLoop;
import dev.freshet.testkit.oracle.H2Oracle;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly once across real crashes of the Freshet server driving Spark: a child JVM runs a view
 * {@code WITH ('engine' = 'spark')} and INSERTs into its stream; the test SIGKILLs it at random
 * moments (during an INSERT, while Spark runs a batch, between the view's applying a batch and
 * Spark's commit of it, as they fall), starts it again on the same data directory, where Spark
 * resumes from its checkpoint and the view from its own result, and at the end compares the view
 * with H2's GROUP BY over the stream: nothing acknowledged is lost, nothing counted twice.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@CrashTest
@SparkTest
class SparkViewCrashTest {
  /** Kills; each costs a child JVM's start with Spark (seconds). */
  private static final int KILLS = 2;

  @TempDir Path dataDir;
  private long lastAck = -1;

  @Test void shouldLoseNothingAndCountNothingTwiceWhenTheDriverIsKilled() throws Exception {
    KillLoop loop = new KillLoop();
    String context = loop.context();
    loop.run(KILLS, run -> child("run"), (child, run) -> {
      // Kill after a few more acknowledged INSERTs, while Spark runs their batches.
      int acks = 2 + loop.random().nextInt(8);
      for (int ack = 0; ack < acks; ack++) {
        lastAck = Math.max(lastAck, Long.parseLong(child.awaitLine("ACK ").substring(4)));
      }
    });
    assertTrue(lastAck >= 0, context + ": no INSERT was acknowledged");

    ChildJvm.Output verify = child("verify").awaitExit();
    assertTrue(verify.last("LASTBATCH", -1) >= 0, context + ": the view ran no batch");
    // Every acknowledged INSERT is in the stream, whole and once.
    List<String> in = verify.values("IN");
    TreeSet<Long> statements = new TreeSet<>();
    for (String row : in) {
      statements.add(Long.parseLong(row.split(" ")[1]) / 100);
    }
    assertEquals(in.size(), statements.size() * SparkViewCrashChild.ROWS, context + ": torn");
    for (long i = 0; i <= lastAck; i++) {
      assertTrue(statements.contains(i), context + ": acknowledged INSERT " + i + " lost");
    }
    try (H2Oracle h2 = new H2Oracle()) {
      h2.createTable("clicks", "user_id VARCHAR, amount BIGINT").insertText("clicks", in);
      h2.assertSameRows("SELECT user_id, COUNT(*), SUM(amount) FROM clicks GROUP BY user_id",
          verify.values("ROW"), context + ", last ack " + lastAck);
    }
  }

  private ChildJvm child(String mode) throws Exception {
    // Spark's JVM options on Java 17, from the file the launcher reads too (the module's
    // directory is the tests' working directory). A child loads Spark's, Calcite's and the
    // engine's classes, thousands, before its first statement: verifying their bytecode in every
    // child is much of its start's CPU, and proves nothing about crashes.
    return ChildJvm.of(SparkViewCrashChild.class)
        .jvmOptions("-Xmx768m", "-XX:+UseSerialGC", "-XX:+UnlockDiagnosticVMOptions",
            "-XX:-BytecodeVerificationRemote",
            "@" + Path.of("jvm.options").toAbsolutePath())
        .args(dataDir, mode).start();
  }
}
