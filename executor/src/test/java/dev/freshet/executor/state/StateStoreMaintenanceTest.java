package dev.freshet.executor.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Tests {@link StateStoreMaintenance}. The background runs are awaited with a deadline (real
 * asynchronous work), never with a sleep.
 */
class StateStoreMaintenanceTest {
  private static final long DEADLINE_SECONDS = 30;

  @Test void shouldRunRegisteredProvidersOnOneDaemonThreadUntilStopped() throws Exception {
    CountingProvider first = new CountingProvider(0, 3);
    CountingProvider second = new CountingProvider(1, 3);
    StateStoreMaintenance maintenance = new StateStoreMaintenance(Duration.ofMillis(1));
    try {
      maintenance.register(first);
      maintenance.register(second);
      maintenance.register(first);

      assertTrue(first.runs.await(DEADLINE_SECONDS, TimeUnit.SECONDS));
      assertTrue(second.runs.await(DEADLINE_SECONDS, TimeUnit.SECONDS));
    } finally {
      maintenance.stop();
    }

    Thread thread = first.thread.get();
    assertSame(thread, second.thread.get());
    assertEquals(StateStoreMaintenance.THREAD_NAME, thread.getName());
    assertTrue(thread.isDaemon());
    thread.join(TimeUnit.SECONDS.toMillis(DEADLINE_SECONDS));
    assertFalse(thread.isAlive(), "stop() ends the thread");
    int runs = first.count.get();
    maintenance.runOnce();
    assertEquals(runs + 1, first.count.get(), "registered twice, run once");
    maintenance.stop();
  }

  @Test void shouldKeepRunningOthersWhenProviderThrows() throws Exception {
    CountingProvider throwing = new CountingProvider(0, 2) {
      @Override public void doMaintenance() {
        super.doMaintenance();
        throw new IllegalStateException("broken provider");
      }
    };
    CountingProvider healthy = new CountingProvider(1, 3);
    try (StateStoreMaintenance maintenance = new StateStoreMaintenance(Duration.ofMillis(1))) {
      maintenance.register(throwing);
      maintenance.register(healthy);

      assertTrue(throwing.runs.await(DEADLINE_SECONDS, TimeUnit.SECONDS));
      assertTrue(healthy.runs.await(DEADLINE_SECONDS, TimeUnit.SECONDS));
    }
  }

  @Test void shouldNotRunProviderWhenUnregistered() {
    CountingProvider provider = new CountingProvider(0, 1);
    try (StateStoreMaintenance maintenance = new StateStoreMaintenance(Duration.ofHours(1))) {
      maintenance.register(provider);
      maintenance.runOnce();
      maintenance.unregister(provider);
      maintenance.runOnce();
    }
    assertEquals(1, provider.count.get());
  }

  @Test void shouldRejectIntervalWhenNotPositive() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new StateStoreMaintenance(Duration.ZERO));
    assertEquals("interval must be positive: PT0S", e.getMessage());
  }

  /** Provider that only counts its maintenance runs and records the thread. */
  private static class CountingProvider implements StateStoreProvider<Object, Object[]> {
    private final StateStoreId id;
    final CountDownLatch runs;
    final AtomicInteger count = new AtomicInteger();
    final AtomicReference<Thread> thread = new AtomicReference<>();

    CountingProvider(int partition, int runsToAwait) {
      this.id = new StateStoreId("query", 0, partition);
      this.runs = new CountDownLatch(runsToAwait);
    }

    @Override public StateStoreId id() {
      return id;
    }

    @Override public StateStore<Object, Object[]> getStore(long version) {
      throw new UnsupportedOperationException();
    }

    @Override public ReadStateStore<Object, Object[]> getReadStore(long version) {
      throw new UnsupportedOperationException();
    }

    @Override public void doMaintenance() {
      thread.compareAndSet(null, Thread.currentThread());
      count.incrementAndGet();
      runs.countDown();
    }

    @Override public void close() {
    }
  }
}
