package dev.freshet.executor.checkpoint;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a query does first when it starts on a checkpoint, read from its logs (Spark's
 * {@code populateStartOffsets}, SEMANTICS.md §7.2). With {@code L} the latest batch in
 * {@code offsets/} and {@code C} the latest in {@code commits/}, it is one of:
 * <ul>
 *   <li>fresh start, no offsets: batch 0 from offsets 0, watermarks 0, the session's settings;
 *   <li>resume, {@code C == L}: batch {@code L} finished, so batch {@code L + 1} comes next,
 *       from where {@code L} ended, with watermark {@code max(offsets/L's, commits/L's
 *       nextBatchWatermarkMs)}; it is not constructed yet: it runs only if there is new data
 *       or the watermark makes a batch without data due;
 *   <li>re-run, {@code C < L} or no commits: batch {@code L} may have written part of its output
 *       or state, so it runs again exactly as recorded (offsets {@code (offsets/L-1, offsets/L]},
 *       the same watermark and batch timestamp) and overwrites what it wrote. A sink that is
 *       idempotent per batch id makes this exactly once.
 * </ul>
 * In both restart cases the settings pinned in {@code offsets/L} override the session's.
 *
 * <p>Freshet's sources start at offset 0 ("nothing yet"), so a source recorded without an offset
 * ({@code -}) starts or ends at 0 here.
 *
 * <pre>{@code
 * RestartDecision next = RestartDecision.decide(checkpoint, 1,
 *     Map.of(OffsetSeq.STATE_PARTITIONS, "4"));
 * SourceOffset from = next.startOffsets().get(0);
 * SourceOffset to = next.rerun() ? next.endOffsets().get().get(0) : null;   // null: ask the source
 * BatchContext batch = new BatchContext(next.batchId(),
 *     next.batchTimestampMs().orElse(clock.getAsLong()), next.previousBatchWatermarkMs(),
 *     next.watermarkMs());
 * }</pre>
 *
 * @param batchId the batch to run next; its state version (SEMANTICS.md §1)
 * @param rerun whether batch {@code batchId} is recorded in {@code offsets/} and must run again
 *     exactly as recorded
 * @param startOffsets per source, the offset after which the batch reads
 * @param endOffsets per source, the offset up to which a re-run batch reads; empty unless
 *     {@code rerun}, as the next batch's end is asked from the sources
 * @param watermarkMs the event-time watermark of batch {@code batchId} (it evicts with it)
 * @param previousBatchWatermarkMs the watermark of batch {@code batchId - 1}, 0 if none: rows at
 *     or before it are late
 * @param batchTimestampMs the recorded processing time of a re-run batch; empty unless
 *     {@code rerun}
 * @param conf the settings to run with and to pin in the next offsets entry, sorted by key
 */
public record RestartDecision(long batchId, boolean rerun, List<SourceOffset> startOffsets,
    Optional<List<SourceOffset>> endOffsets, long watermarkMs, long previousBatchWatermarkMs,
    OptionalLong batchTimestampMs, Map<String, String> conf) {
  private static final Logger LOG = LoggerFactory.getLogger(RestartDecision.class);

  public RestartDecision {
    if (batchId < 0) {
      throw new IllegalArgumentException("batchId must not be negative: " + batchId);
    }
    startOffsets = List.copyOf(requireNonNull(startOffsets, "startOffsets"));
    endOffsets = requireNonNull(endOffsets, "endOffsets").map(List::copyOf);
    requireNonNull(batchTimestampMs, "batchTimestampMs");
    conf = Collections.unmodifiableSortedMap(new TreeMap<>(requireNonNull(conf, "conf")));
    if (endOffsets.isPresent() != rerun || batchTimestampMs.isPresent() != rerun) {
      throw new IllegalArgumentException(
          "endOffsets and batchTimestampMs are given exactly for a re-run");
    }
    if (endOffsets.isPresent() && endOffsets.get().size() != startOffsets.size()) {
      throw new IllegalArgumentException("startOffsets " + startOffsets + " and endOffsets "
          + endOffsets.get() + " differ in length");
    }
  }

  /**
   * Reads {@code checkpoint}'s logs and decides how the query starts.
   *
   * @param numSources the number of sources of the query, which must match the checkpoint's
   * @param sessionConf the session's values of the settings a checkpoint pins
   * @throws CheckpointException if an entry the decision needs is missing, unreadable or does not
   *     match the query, or if a batch is committed that {@code offsets/} does not have
   */
  public static RestartDecision decide(Checkpoint checkpoint, int numSources,
      Map<String, String> sessionConf) {
    requireNonNull(checkpoint, "checkpoint");
    requireNonNull(sessionConf, "sessionConf");
    if (numSources < 1) {
      throw new IllegalArgumentException("numSources must be positive: " + numSources);
    }
    OffsetLog offsets = checkpoint.offsetLog();
    CommitLog commits = checkpoint.commitLog();
    OptionalLong latest = offsets.latestBatchId();
    OptionalLong latestCommit = commits.latestBatchId();
    // A commit is written only after its offsets entry, and purged with it: a commit ahead of
    // the offsets means files were lost, and re-running would repeat or skip output.
    if (latestCommit.isPresent()
        && (latest.isEmpty() || latestCommit.getAsLong() > latest.getAsLong())) {
      throw CheckpointException.inconsistent(commits.batchFile(latestCommit.getAsLong()),
          "batch " + latestCommit.getAsLong() + " is committed, but the latest entry in "
              + offsets.directory() + " is " + (latest.isEmpty() ? "none"
                  : Long.toString(latest.getAsLong())));
    }
    if (latest.isEmpty()) {
      List<SourceOffset> zeros = Collections.nCopies(numSources, SourceOffset.ZERO);
      return new RestartDecision(0, false, zeros, Optional.empty(), 0, 0, OptionalLong.empty(),
          sessionConf);
    }

    long last = latest.getAsLong();
    OffsetSeq lastOffsets = read(offsets, last, numSources,
        "it is the latest entry of " + offsets.directory());
    OffsetSeq previousOffsets = last == 0 ? null : read(offsets, last - 1, numSources,
        "batch " + last + " (the latest in " + offsets.directory() + ") starts where batch "
            + (last - 1) + " ended");
    Map<String, String> conf = pin(sessionConf, lastOffsets.conf(), offsets.batchFile(last));

    if (latestCommit.isPresent() && latestCommit.getAsLong() == last) {
      CommitMetadata commit = commits.get(last).orElseThrow(() -> CheckpointException.missing(
          commits.batchFile(last), "it is the latest entry of " + commits.directory()));
      long watermark = Math.max(lastOffsets.batchWatermarkMs(), commit.nextBatchWatermarkMs());
      return new RestartDecision(last + 1, false, orZero(lastOffsets.offsets()), Optional.empty(),
          watermark, lastOffsets.batchWatermarkMs(), OptionalLong.empty(), conf);
    }
    if (latestCommit.isPresent() && latestCommit.getAsLong() < last - 1) {
      LOG.warn("The latest batch in {} is {}, which is not the batch before {}, the latest in {};"
          + " re-running batch {}", commits.directory(), latestCommit.getAsLong(), last,
          offsets.directory(), last);
    }
    List<SourceOffset> start = previousOffsets == null
        ? Collections.nCopies(numSources, SourceOffset.ZERO) : orZero(previousOffsets.offsets());
    long previousWatermark = previousOffsets == null ? 0 : previousOffsets.batchWatermarkMs();
    return new RestartDecision(last, true, start, Optional.of(orZero(lastOffsets.offsets())),
        lastOffsets.batchWatermarkMs(), previousWatermark,
        OptionalLong.of(lastOffsets.batchTimestampMs()), conf);
  }

  /** Whether this is the query's first run on the checkpoint. */
  public boolean isFreshStart() {
    return batchId == 0 && !rerun;
  }

  /** The state version the batch reads, which is its batch id (SEMANTICS.md §1). */
  public long stateVersion() {
    return batchId;
  }

  /** {@code offsets/batchId}, which {@code why} needs, checked against the query's sources. */
  private static OffsetSeq read(OffsetLog log, long batchId, int numSources, String why) {
    Path file = log.batchFile(batchId);
    OffsetSeq entry = log.get(batchId).orElseThrow(() -> CheckpointException.missing(file, why));
    // Spark's OffsetSeq.toStreamProgress: offsets are matched to sources by position, so a
    // different number of sources would read the wrong offsets.
    if (entry.offsets().size() != numSources) {
      throw CheckpointException.inconsistent(file, "it records offsets of "
          + entry.offsets().size() + " sources, but the query has " + numSources
          + "; a query's sources cannot change while it keeps its checkpoint");
    }
    return entry;
  }

  /** The session's settings with the checkpoint's pinned values in place of theirs. */
  private static Map<String, String> pin(Map<String, String> session, Map<String, String> pinned,
      Path file) {
    Map<String, String> conf = new TreeMap<>(session);
    pinned.forEach((key, value) -> {
      String previous = conf.put(key, value);
      if (previous != null && !previous.equals(value)) {
        LOG.warn("Setting {} is {} in the session but {} in checkpoint file {}; using {}", key,
            previous, value, file, value);
      }
    });
    return conf;
  }

  private static List<SourceOffset> orZero(List<SourceOffset> offsets) {
    List<SourceOffset> result = new ArrayList<>(offsets.size());
    for (SourceOffset offset : offsets) {
      result.add(offset == null ? SourceOffset.ZERO : offset);
    }
    return result;
  }
}
