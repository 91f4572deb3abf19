package dev.freshet.executor.operators;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * Runs a batch's tasks at once and waits for all of them: the input tasks that read its slices,
 * the state partitions that merge and commit it.
 *
 * <pre>{@code
 * ParallelTasks.runAll(List.of(readSlice0, readSlice1), pool);   // slice 0 on this thread
 * }</pre>
 *
 * <p>The first task runs on the calling thread, which would otherwise only wait; the others on
 * the executor. It returns only when every task has ended, so that none is still running when
 * the caller finishes or aborts the batch, and then rethrows the first failure as it was thrown,
 * with the other failures suppressed in it.
 *
 * <p>It belongs to the operators, the lower of its two users: {@link StatefulAggregateOperator}
 * runs its state partitions with it, and the runtime its input tasks.
 */
public final class ParallelTasks {
  private ParallelTasks() {
  }

  /**
   * Runs {@code tasks}, in parallel on {@code executor} when there are several and it is not
   * null, else one after the other on this thread (where the first failure stops the rest).
   */
  public static void runAll(List<? extends Runnable> tasks, Executor executor) {
    if (executor == null || tasks.size() <= 1) {
      tasks.forEach(Runnable::run);
      return;
    }
    List<CompletableFuture<Void>> others = new ArrayList<>(tasks.size() - 1);
    Throwable failure = null;
    try {
      for (Runnable task : tasks.subList(1, tasks.size())) {
        others.add(CompletableFuture.runAsync(task, executor));
      }
      tasks.get(0).run();
    } catch (RuntimeException | Error e) {
      failure = e;
    }
    for (CompletableFuture<Void> other : others) {
      try {
        other.join();
      } catch (CompletionException | CancellationException e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        if (failure == null) {
          failure = cause;
        } else {
          failure.addSuppressed(cause);
        }
      }
    }
    if (failure instanceof RuntimeException) {
      throw (RuntimeException) failure;
    }
    if (failure instanceof Error) {
      throw (Error) failure;
    }
    if (failure != null) {
      throw new IllegalStateException("A task failed: " + failure, failure);
    }
  }
}
