package dev.freshet.executor.runtime;

import dev.freshet.executor.source.QueryReader;
import dev.freshet.executor.source.Source;
import dev.freshet.executor.source.SupportsAdmissionControl;
import dev.freshet.executor.source.SupportsCommits;
import dev.freshet.executor.source.SupportsTimedAvailability;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every stream a query reads, as its batch loop asks them, Spark's {@code sources} of a
 * {@code StreamExecution}: their latest offsets, the next batch's end offsets within admission
 * control, their new-data signals, and the commits they hear. The streams are in the order of
 * the offset log's entries; every offset array here has one element per stream.
 *
 * <pre>{@code
 * InputStreams streams = new InputStreams("q", pipeline.inputs(), trigger);
 * long[] end = streams.nextBatchEnds(committed, null);
 * streams.committed(end);
 * }</pre>
 */
final class InputStreams {
  /** The query's logger, as before the streams had a class of their own. */
  private static final Logger LOG = LoggerFactory.getLogger(MicroBatchExecution.class);

  private final String name;
  private final List<SourceInput> inputs;
  private final Trigger trigger;

  InputStreams(String name, List<SourceInput> inputs, Trigger trigger) {
    this.name = name;
    this.inputs = inputs;
    this.trigger = trigger;
  }

  /** The number of streams. */
  int size() {
    return inputs.size();
  }

  /** Tells the streams that hear commits that query {@code name} started reading them. */
  void queryStarted() {
    for (SourceInput input : inputs) {
      if (input.source() instanceof SupportsCommits committing) {
        committing.queryStarted(name);
      }
    }
  }

  /** Registers for every stream's new-data signal; closing the result unregisters them all. */
  AutoCloseable onNewData(Runnable signal) throws Exception {
    List<AutoCloseable> registrations = new ArrayList<>();
    try {
      for (SourceInput input : inputs) {
        registrations.add(input.source().onNewData(signal));
      }
    } catch (Exception | Error e) {
      closeAll(registrations);
      throw e;
    }
    return () -> closeAll(registrations);
  }

  /** Closes the query's own readers (their connections and threads), not streams others read. */
  void closeQueryReaders() {
    for (SourceInput input : inputs) {
      if (input.source() instanceof QueryReader reader) {
        reader.close();
      }
    }
  }

  /** Every stream's latest offset. */
  long[] latestOffsets() {
    long[] latest = new long[inputs.size()];
    for (int i = 0; i < latest.length; i++) {
      latest[i] = inputs.get(i).source().latestOffset();
    }
    return latest;
  }

  /**
   * The end offsets of the batch that starts after {@code start}: what each stream has
   * available, within its admission control and the bounded trigger's {@code target} (null:
   * none). {@link Trigger.Once} runs one batch, so it takes everything, as Spark's
   * {@code ReadAllAvailable} does.
   */
  long[] nextBatchEnds(long[] start, long[] target) {
    long[] end = new long[start.length];
    for (int i = 0; i < end.length; i++) {
      Source s = inputs.get(i).source();
      long latest = s instanceof SupportsAdmissionControl limited
          && !(trigger instanceof Trigger.Once)
          ? limited.latestOffset(start[i]) : s.latestOffset();
      end[i] = target == null ? latest : Math.min(latest, target[i]);
    }
    return end;
  }

  /** Whether a stream has offsets beyond its offset in {@code committed}. */
  boolean anyAhead(long[] committed) {
    for (int i = 0; i < inputs.size(); i++) {
      if (inputs.get(i).source().latestOffset() > committed[i]) {
        return true;
      }
    }
    return false;
  }

  /** Whether the watermark {@code watermark} makes a batch without data due in any chain. */
  boolean needsNoDataBatch(long watermark) {
    for (SourceInput input : inputs) {
      if (input.head().needsNoDataBatch(watermark)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The milliseconds until the next offset after {@code committed} of a stream whose data appears
   * with time is due, starting from {@code due}: the smaller of the two.
   */
  long millisUntilAvailable(long[] committed, long due) {
    for (int i = 0; i < inputs.size(); i++) {
      if (inputs.get(i).source() instanceof SupportsTimedAvailability timed) {
        OptionalLong next = timed.millisUntilAvailable(committed[i] + 1);
        if (next.isPresent()) {
          due = Math.min(due, next.getAsLong());
        }
      }
    }
    return due;
  }

  /**
   * Tells each source that hears commits that the query committed through {@code end}, as
   * Spark's {@code MicroBatchExecution} calls {@code commit} after the commit log is written:
   * a stream lets rows and log segments go that no reader needs any more.
   */
  void committed(long[] end) {
    for (int i = 0; i < inputs.size(); i++) {
      if (inputs.get(i).source() instanceof SupportsCommits committing) {
        try {
          committing.commit(end[i]);
        } catch (RuntimeException e) {
          LOG.warn("Source {} of query {} failed to hear a commit", committing.description(),
              name, e);
        }
      }
    }
  }

  private static void closeAll(List<AutoCloseable> registrations) throws Exception {
    Exception first = null;
    for (AutoCloseable r : registrations) {
      try {
        r.close();
      } catch (Exception e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
