package dev.freshet.spark.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Every process a test fixture started, and those they started in turn (a Spark worker forks its
 * executors), remembered by pid so that an orphan whose parent died is still found and killed.
 *
 * <pre>{@code
 * ProcessReaper reaper = new ProcessReaper();
 * reaper.remember(List.of(process.toHandle()));
 * List<ProcessHandle> survivors = reaper.killAll(List.of(process));   // empty when all exited
 * }</pre>
 */
final class ProcessReaper {
  static final Duration EXIT_DEADLINE = Duration.ofSeconds(20);
  private final List<ProcessHandle> seen = new ArrayList<>();

  synchronized void remember(List<ProcessHandle> handles) {
    for (ProcessHandle handle : handles) {
      if (seen.stream().noneMatch(h -> h.pid() == handle.pid())) {
        seen.add(handle);
      }
    }
  }

  /**
   * SIGKILLs the descendants of {@code roots}, then the roots in reverse order, then any process
   * remembered earlier; waits for each to exit and returns those still alive.
   */
  synchronized List<ProcessHandle> killAll(List<Process> roots) {
    List<ProcessHandle> tree = new ArrayList<>();
    for (Process root : roots) {
      root.descendants().forEach(tree::add);
    }
    for (int i = roots.size() - 1; i >= 0; i--) {
      tree.add(roots.get(i).toHandle());
    }
    remember(tree);
    // No graceful stop: a worker told to stop would stop its executors by talking to a driver
    // that may be gone, and nothing here needs a clean shutdown.
    tree.forEach(ProcessHandle::destroyForcibly);
    seen.forEach(ProcessHandle::destroyForcibly); // orphans: executors of a worker killed before
    awaitExit(seen);
    return seen.stream().filter(ProcessHandle::isAlive).toList();
  }

  /** Waits up to {@link #EXIT_DEADLINE} for each process to exit. */
  static void awaitExit(List<ProcessHandle> handles) {
    for (ProcessHandle handle : handles) {
      try {
        handle.onExit().get(EXIT_DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
      } catch (Exception stillAlive) {
        // the caller looks at isAlive()
      }
    }
  }
}
