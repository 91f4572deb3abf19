package dev.freshet.testkit.crash;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * Crashes at random moments, one after another on the same data: a child is started, read up to
 * a kill point the test draws from {@link #random()}, SIGKILLed, and the next one started where
 * it left off. The seed is printed and named in {@link #context()}, so a failure can be replayed
 * with {@code new KillLoop(seed)}.
 *
 * <pre>{@code
 * KillLoop loop = new KillLoop();
 * loop.run(3, run -> ChildJvm.of(MyChild.class).args(dataDir, "run").start(),
 *     (child, run) -> {
 *       int acks = loop.random().nextInt(12);     // 0: killed during start-up
 *       for (int i = 0; i < acks; i++) {
 *         child.awaitLine("ACK ");
 *       }
 *     });
 * // then start a child that verifies, and compare with H2Oracle
 * }</pre>
 */
public final class KillLoop {
  private final long seed;
  private final Random random;
  private Optional<Duration> killAtLatestAfter = Optional.empty();

  /** A loop with a seed from the clock. */
  public KillLoop() {
    this(System.nanoTime());
  }

  /** A loop replaying the kill points of {@code seed}. */
  public KillLoop(long seed) {
    this.seed = seed;
    this.random = new Random(seed);
    System.out.println("KillLoop seed " + seed);
  }

  /** Starts a child. */
  @FunctionalInterface
  public interface Start {
    ChildJvm start(int run) throws Exception;
  }

  /** Reads a child up to the moment it is to be killed; the loop kills it when this returns. */
  @FunctionalInterface
  public interface KillPoint {
    void await(ChildJvm child, int run) throws Exception;
  }

  /** What the test checks after each kill, with the lines the child printed as it died. */
  @FunctionalInterface
  public interface AfterKill {
    void killed(List<String> lastLines, int run) throws Exception;
  }

  /** Draws the kill points; the same seed draws the same ones. */
  public Random random() {
    return random;
  }

  /** The seed, for failure messages: {@code "seed 1234"}. */
  public String context() {
    return "seed " + seed;
  }

  /**
   * Kills a child at the latest {@code delay} after its start, should its kill point not come
   * by then (a view that changes less often than drawn): the kill point then is that moment.
   */
  public KillLoop killAtLatestAfter(Duration delay) {
    killAtLatestAfter = Optional.of(delay);
    return this;
  }

  /**
   * {@code kills} times: starts a child, waits for its kill point, SIGKILLs it and waits until
   * it is gone. A child that ends by itself before its kill point fails the test, with its
   * stderr.
   */
  public void run(int kills, Start start, KillPoint killPoint) throws Exception {
    run(kills, start, killPoint, (lastLines, run) -> { });
  }

  /** As {@link #run(int, Start, KillPoint)}, checking {@code afterKill} after each kill. */
  public void run(int kills, Start start, KillPoint killPoint, AfterKill afterKill)
      throws Exception {
    for (int run = 0; run < kills; run++) {
      try (ChildJvm child = start.start(run)) {
        killAtLatestAfter.ifPresent(child::killLater);
        try {
          killPoint.await(child, run);
        } catch (ChildJvm.KilledException killedByTime) {
          // The kill point came by time.
        }
        afterKill.killed(child.kill(), run);
      }
    }
  }
}
