package dev.freshet.executor.runtime;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.operators.CollectOperator;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.source.Source;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a streaming query as a sequence of micro-batches on its own thread.
 *
 * <p>Each batch takes the source's offsets {@code (committed, latest]}, pushes those rows through
 * the operator pipeline, hands the output to the sink, and only then marks the range committed.
 * When there is no new data the thread waits for the source's new-data signal: it never spins.
 */
public final class MicroBatchExecution implements StreamingQuery {
  private static final Logger LOG = LoggerFactory.getLogger(MicroBatchExecution.class);

  private final String id;
  private final String name;
  private final Source source;
  private final Operator pipeline;
  private final CollectOperator output;
  private final Sink sink;
  private final LongSupplier clock;
  private final Thread thread;

  /** Guards the fields below; also the monitor the batch thread waits on. */
  private final Object lock = new Object();
  private boolean newData;
  private boolean stopRequested;
  private QueryStatus status = QueryStatus.INITIALIZING;
  private Throwable error;
  private long committedOffset;
  private long lastBatchId = -1;

  /**
   * Creates a query; call {@link #start()} to run it.
   *
   * @param id query id
   * @param name display name
   * @param source the input
   * @param pipeline first operator; rows of the source are pushed into it
   * @param output last operator of the pipeline, whose rows go to the sink
   * @param sink receives each batch's output
   * @param clock processing-time clock in milliseconds
   */
  public MicroBatchExecution(String id, String name, Source source, Operator pipeline,
      CollectOperator output, Sink sink, LongSupplier clock) {
    this.id = requireNonNull(id, "id");
    this.name = requireNonNull(name, "name");
    this.source = requireNonNull(source, "source");
    this.pipeline = requireNonNull(pipeline, "pipeline");
    this.output = requireNonNull(output, "output");
    this.sink = requireNonNull(sink, "sink");
    this.clock = requireNonNull(clock, "clock");
    this.thread = new Thread(this::runBatches, "freshet-query-" + name);
    this.thread.setDaemon(true);
  }

  /** Starts the batch thread and returns this query. */
  public StreamingQuery start() {
    synchronized (lock) {
      if (status != QueryStatus.INITIALIZING) {
        throw new IllegalStateException("query " + name + " was already started");
      }
      status = QueryStatus.ACTIVE;
    }
    thread.start();
    return this;
  }

  @Override public String id() {
    return id;
  }

  @Override public String name() {
    return name;
  }

  @Override public QueryStatus status() {
    synchronized (lock) {
      return status;
    }
  }

  @Override public long lastBatchId() {
    synchronized (lock) {
      return lastBatchId;
    }
  }

  @Override public Optional<Throwable> exception() {
    synchronized (lock) {
      return Optional.ofNullable(error);
    }
  }

  @Override public boolean processAllAvailable(Duration timeout) throws InterruptedException {
    long target = source.latestOffset();
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (lock) {
      while (committedOffset < target && status == QueryStatus.ACTIVE) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        Duration wait = Duration.ofNanos(left);
        lock.wait(Math.max(1, wait.toMillis()));
      }
      return committedOffset >= target;
    }
  }

  @Override public void stop() {
    synchronized (lock) {
      stopRequested = true;
      lock.notifyAll();
      if (status == QueryStatus.INITIALIZING) {
        status = QueryStatus.STOPPED;
        sink.queryTerminated(null);
        return;
      }
    }
    if (Thread.currentThread() != thread && thread.isAlive()) {
      boolean interrupted = false;
      while (thread.isAlive()) {
        try {
          thread.join();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void runBatches() {
    Throwable failure = null;
    try (AutoCloseable registration = source.onNewData(this::signalNewData)) {
      long batchId = 0;
      while (awaitWork()) {
        long start = committedOffsetSnapshot();
        long end = source.latestOffset();
        if (end <= start) {
          continue;
        }
        runBatch(new BatchContext(batchId, clock.getAsLong()), start, end);
        synchronized (lock) {
          committedOffset = end;
          lastBatchId = batchId;
          lock.notifyAll();
        }
        batchId++;
      }
    } catch (Throwable t) {
      failure = t;
      LOG.warn("Query {} failed", name, t);
    }
    // The sink hears first, so that whoever sees the final status knows the sink has too.
    sink.queryTerminated(failure);
    synchronized (lock) {
      status = failure == null ? QueryStatus.STOPPED : QueryStatus.FAILED;
      error = failure;
      lock.notifyAll();
    }
  }

  private void runBatch(BatchContext batch, long start, long end) {
    pipeline.startBatch(batch);
    try {
      source.readRange(start, end, pipeline::push);
      pipeline.finishBatch(batch);
    } catch (RuntimeException | Error e) {
      pipeline.abortBatch(batch);
      throw e;
    }
    List<Object[]> rows = output.takeRows();
    sink.addBatch(batch.batchId(), rows);
  }

  /** Waits until the source has data beyond the committed offset; false if stop was requested. */
  private boolean awaitWork() throws InterruptedException {
    synchronized (lock) {
      while (!stopRequested) {
        if (newData || source.latestOffset() > committedOffset) {
          newData = false;
          return true;
        }
        lock.wait();
      }
      return false;
    }
  }

  private long committedOffsetSnapshot() {
    synchronized (lock) {
      return committedOffset;
    }
  }

  private void signalNewData() {
    synchronized (lock) {
      newData = true;
      lock.notifyAll();
    }
  }
}
