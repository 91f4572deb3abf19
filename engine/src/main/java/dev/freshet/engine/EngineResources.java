package dev.freshet.engine;

import dev.freshet.engine.store.DirectoryNames;
import dev.freshet.executor.limits.MemoryPool;
import dev.freshet.executor.source.StreamMemoryPool;
import dev.freshet.executor.state.StateStoreMaintenance;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.function.LongSupplier;

/**
 * What an engine's queries run on and with, shared by all of them: the thread pools, the memory
 * pools, the data directory and the clock. Statements that start a query take what they need
 * from here; the engine stops the threads when it closes.
 *
 * <pre>{@code
 * new ExecPlanBuilder(typeFactory, id, stores, resources.partitionExecutor(),
 *     resources.inputTasks());
 * }</pre>
 */
final class EngineResources {
  /**
   * How many threads may read one batch of a query, and how many the pool below has: one per
   * core, as Spark's {@code local[*]} runs a task per core.
   */
  private static final int INPUT_TASKS = Runtime.getRuntime().availableProcessors();

  /** Runs the input tasks and the state partitions of every query's batches. */
  private final ExecutorService partitionExecutor =
      Executors.newFixedThreadPool(INPUT_TASKS, runnable -> {
        Thread thread = new Thread(runnable, "freshet-task");
        thread.setDaemon(true);
        return thread;
      });
  /** Runs push queries' timeouts; one daemon thread, as the timeouts only flag and stop. */
  private final ScheduledThreadPoolExecutor scheduler;
  /**
   * Snapshots and cleans the checkpointed state stores in the background, as Spark's maintenance
   * task does (every 60 s there; 10 s here, as batches are small and frequent).
   */
  private final StateStoreMaintenance stateStoreMaintenance =
      new StateStoreMaintenance(Duration.ofSeconds(10));
  /** The memory every continuous query's estimate takes from. */
  private final MemoryPool memoryPool;
  /** The bound of all its streams' rows in memory together. */
  private final StreamMemoryPool streamMemoryPool =
      new StreamMemoryPool(StreamMemoryPool.defaultMax());
  private final Optional<Path> dataDir;

  /**
   * Starts the engine's threads.
   *
   * @param engineName names the timeout thread
   * @param dataDir the engine's data directory, absolute and normalized; empty in memory
   * @param memoryBudgetBytes the budget of all queries together, or {@link MemoryPool#UNLIMITED}
   */
  EngineResources(String engineName, Optional<Path> dataDir, long memoryBudgetBytes) {
    this.dataDir = dataDir;
    this.memoryPool = new MemoryPool(memoryBudgetBytes);
    this.scheduler = new ScheduledThreadPoolExecutor(1, runnable -> {
      Thread thread = new Thread(runnable, "freshet-timeouts-" + engineName);
      thread.setDaemon(true);
      return thread;
    });
    // A cancelled timeout (the query ended first) must not stay queued until it would fire.
    scheduler.setRemoveOnCancelPolicy(true);
  }

  /** The pool that runs input tasks and state partitions in parallel. */
  Executor partitionExecutor() {
    return partitionExecutor;
  }

  /** How many threads may read one batch of a query (see {@code ExecPlanBuilder}). */
  int inputTasks() {
    return INPUT_TASKS;
  }

  /** Runs push queries' timeouts and the retries of objects not restored. */
  ScheduledExecutorService scheduler() {
    return scheduler;
  }

  /** The thread that maintains checkpointed state stores. */
  StateStoreMaintenance stateStoreMaintenance() {
    return stateStoreMaintenance;
  }

  /** The memory of the engine's queries; see {@link Engine#memoryPool()}. */
  MemoryPool memoryPool() {
    return memoryPool;
  }

  /** The rows all the engine's streams keep in memory; see {@link Engine#streamMemoryPool()}. */
  StreamMemoryPool streamMemoryPool() {
    return streamMemoryPool;
  }

  /** Where the engine keeps its streams' rows and checkpoints; empty if in memory. */
  Optional<Path> dataDir() {
    return dataDir;
  }

  /** The directory of stream {@code stream}'s files, if the engine has a data directory. */
  Optional<Path> streamDirectory(String stream) {
    return dataDir.map(d -> d.resolve("streams").resolve(DirectoryNames.of(stream)));
  }

  /** The clock of the queries' batches, in epoch milliseconds. */
  LongSupplier clock() {
    return System::currentTimeMillis;
  }

  /** Stops the pools and the maintenance thread; queries using them are stopped already. */
  void stopThreads() {
    partitionExecutor.shutdown();
    scheduler.shutdownNow();
    stateStoreMaintenance.stop();
  }
}
