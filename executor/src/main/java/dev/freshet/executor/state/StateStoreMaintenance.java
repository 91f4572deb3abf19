package dev.freshet.executor.state;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Background thread that runs {@link StateStoreProvider#doMaintenance()} of the registered
 * providers every interval (Spark's {@code spark.sql.streaming.stateStore.maintenanceInterval},
 * 60 s by default), so that snapshots and file deletion stay off the batch thread.
 *
 * <p>One daemon thread, started by the constructor, runs the providers one after the other; a run
 * starts one interval after the previous one ended. A provider that throws is logged and does not
 * stop the others or later runs. {@link #stop()} cancels the runs to come, waits for the one in
 * progress and ends the thread; it is idempotent. Thread-safe.
 *
 * <pre>{@code
 * StateStoreMaintenance maintenance = new StateStoreMaintenance(Duration.ofSeconds(60));
 * maintenance.register(provider);
 * ...
 * maintenance.unregister(provider);
 * provider.close();
 * maintenance.stop();
 * }</pre>
 */
public final class StateStoreMaintenance implements AutoCloseable {
  /** Spark's default maintenance interval. */
  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(60);
  /** Name of the thread, for thread dumps. */
  public static final String THREAD_NAME = "freshet-state-maintenance";

  private static final Logger LOG = LoggerFactory.getLogger(StateStoreMaintenance.class);

  private final CopyOnWriteArrayList<StateStoreProvider<?, ?>> providers =
      new CopyOnWriteArrayList<>();
  private final ScheduledExecutorService executor;
  /** The maintenance thread, once started. */
  private volatile Thread thread;

  /**
   * Starts the thread.
   *
   * @param interval time between the end of one run and the start of the next; positive
   */
  public StateStoreMaintenance(Duration interval) {
    requireNonNull(interval, "interval");
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("interval must be positive: " + interval);
    }
    executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread started = new Thread(runnable, THREAD_NAME);
      started.setDaemon(true);
      thread = started;
      return started;
    });
    long nanos = interval.toNanos();
    executor.scheduleWithFixedDelay(this::runOnce, nanos, nanos, TimeUnit.NANOSECONDS);
  }

  /** Adds {@code provider} to the next runs; registering it twice has no further effect. */
  public void register(StateStoreProvider<?, ?> provider) {
    providers.addIfAbsent(requireNonNull(provider, "provider"));
  }

  /**
   * Removes {@code provider} from the next runs; a run in progress may still reach it, which is
   * harmless since maintenance of a closed provider does nothing.
   */
  public void unregister(StateStoreProvider<?, ?> provider) {
    providers.remove(provider);
  }

  /** Runs maintenance of every registered provider now, on the calling thread. */
  public void runOnce() {
    for (StateStoreProvider<?, ?> provider : providers) {
      try {
        provider.doMaintenance();
      } catch (RuntimeException e) {
        // doMaintenance should not throw; if one does, it must not end the schedule, which
        // a ScheduledExecutorService does to a task that throws.
        LOG.warn("Maintenance of {} failed", provider.id(), e);
      }
    }
  }

  /**
   * Cancels the runs to come, waits for the one in progress and ends the thread. Called by a
   * provider on the maintenance thread itself, it does not wait, which would never end.
   */
  public void stop() {
    executor.shutdown();
    if (Thread.currentThread() == thread) {
      return;
    }
    try {
      while (!executor.awaitTermination(1, TimeUnit.MINUTES)) {
        LOG.info("Waiting for state store maintenance to finish");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Same as {@link #stop()}. */
  @Override public void close() {
    stop();
  }
}
