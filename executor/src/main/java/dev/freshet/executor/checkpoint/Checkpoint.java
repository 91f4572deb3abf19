package dev.freshet.executor.checkpoint;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.storage.DurableFiles;
import dev.freshet.executor.storage.StorageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A streaming query's checkpoint directory: its id, its offset and commit logs and where its
 * state stores live (SEMANTICS.md §7.4).
 *
 * <pre>
 * &lt;root&gt;/
 *   metadata                         {"id":"&lt;query id&gt;"}, see {@link CheckpointMetadata}
 *   offsets/0, offsets/1, ...        {@link OffsetLog}, written before a batch runs
 *   commits/0, commits/1, ...        {@link CommitLog}, written after its output is in the sink
 *   plan                             the query's execution plan, written once at creation
 *   sources/0/                       the source's own: its initial offset 0, a file source's log
 *   state/&lt;operatorId&gt;/&lt;partitionId&gt;/  one directory per state store
 * </pre>
 *
 * <p>One batch follows the protocol: {@code offsetLog().add(N, ...)} (false means another run owns
 * the checkpoint), {@link #retain}, run the batch, {@code commitLog().add(N, ...)}. On start,
 * {@link RestartDecision#decide} reads the logs and says which batch runs next.
 *
 * <pre>{@code
 * Checkpoint checkpoint = Checkpoint.open(Path.of("/var/freshet/q1"));
 * RestartDecision next = RestartDecision.decide(checkpoint, 1,
 *     Map.of(OffsetSeq.STATE_PARTITIONS, "4"));
 * Path store = checkpoint.stateDirectory(0, 3);   // /var/freshet/q1/state/0/3
 * }</pre>
 */
public final class Checkpoint {
  /** Spark's default {@code minBatchesToRetain}: batches kept loadable behind the latest one. */
  public static final int DEFAULT_MIN_BATCHES_TO_RETAIN = 100;

  /** Name of the plan file in the checkpoint directory. */
  private static final String PLAN = "plan";

  private final Path root;
  private final String queryId;
  private final OffsetLog offsetLog;
  private final CommitLog commitLog;
  private final int minBatchesToRetain;

  private Checkpoint(Path root, String queryId, OffsetLog offsetLog, CommitLog commitLog,
      int minBatchesToRetain) {
    if (minBatchesToRetain < 1) {
      throw new IllegalArgumentException("minBatchesToRetain must be positive: "
          + minBatchesToRetain);
    }
    this.minBatchesToRetain = minBatchesToRetain;
    this.root = root;
    this.queryId = queryId;
    this.offsetLog = offsetLog;
    this.commitLog = commitLog;
  }

  /**
   * Opens the checkpoint in {@code root}, creating the directory, the query id and the log
   * directories if this is the query's first run, and deleting temp files a crash left.
   *
   * @throws CheckpointException if the files are not as a checkpoint's
   * @throws StorageException if they cannot be read or created
   */
  public static Checkpoint open(Path root) {
    return open(root, DEFAULT_MIN_BATCHES_TO_RETAIN);
  }

  /**
   * Opens the checkpoint in {@code root} as {@link #open(Path)} does; {@link #retain()} keeps
   * {@code minBatchesToRetain} batches behind the latest.
   *
   * @throws IllegalArgumentException if {@code minBatchesToRetain} is not positive
   */
  public static Checkpoint open(Path root, int minBatchesToRetain) {
    requireNonNull(root, "root");
    String queryId = CheckpointMetadata.loadOrCreateQueryId(root);
    DurableFiles.deleteTempFiles(root, PLAN);
    return new Checkpoint(root, queryId, new OffsetLog(root.resolve("offsets")),
        new CommitLog(root.resolve("commits")), minBatchesToRetain);
  }

  /** How many batches behind the latest {@link #retain()} keeps. */
  public int minBatchesToRetain() {
    return minBatchesToRetain;
  }

  /** {@link #retain(int)} with the checkpoint's own {@link #minBatchesToRetain()}. */
  public void retain() {
    retain(minBatchesToRetain);
  }

  /** The checkpoint directory. */
  public Path root() {
    return root;
  }

  /** The query's id, the same in every run on this checkpoint. */
  public String queryId() {
    return queryId;
  }

  /** The write-ahead log, {@code offsets/}. */
  public OffsetLog offsetLog() {
    return offsetLog;
  }

  /** The completion log, {@code commits/}. */
  public CommitLog commitLog() {
    return commitLog;
  }

  /** The file {@code plan}, the query's execution plan, which the planner writes and reads. */
  public Path planFile() {
    return root.resolve(PLAN);
  }

  /**
   * Writes {@code plan} as the file {@code plan}, atomically and durably, unless it exists: a
   * query's plan is written once, when it is created, and a restart reads it, never replaces it.
   *
   * @return false, leaving the file untouched, if it already existed
   * @throws CheckpointException if the file system fails
   */
  public boolean createPlan(byte[] plan) {
    return DurableFiles.createAtomically(planFile(), FileChecksum.seal(plan));
  }

  /**
   * The contents of the file {@code plan} without its checksum line, or empty if none was written.
   *
   * @throws CheckpointException if its checksum does not match ({@link FileChecksum})
   */
  public Optional<byte[]> readPlan() {
    Path file = planFile();
    return DurableFiles.readIfExists(file).map(bytes -> FileChecksum.open(bytes, file));
  }

  /**
   * Records, once, the offset that source {@code source} started from, as the file
   * {@code sources/<source>/0} (Spark's {@code KafkaSourceInitialOffsetWriter}): a source whose
   * start depends on when the query first ran ({@code latest-offset}) must start from the same
   * place when its first batch runs again after a crash.
   *
   * @return the recorded offset: {@code offset}, or the one an earlier run recorded
   * @throws CheckpointException if the file system fails or the recorded file is not an offset
   */
  public SourceOffset recordInitialOffset(int source, SourceOffset offset) {
    Path file = initialOffsetFile(source);
    try {
      Files.createDirectories(file.getParent());
    } catch (IOException e) {
      throw StorageException.io("create", file.getParent(), e);
    }
    if (DurableFiles.createAtomically(file,
        FileChecksum.seal(offset.json().getBytes(StandardCharsets.UTF_8)))) {
      return offset;
    }
    String recorded = new String(
        FileChecksum.open(DurableFiles.readIfExists(file).orElseThrow(), file),
        StandardCharsets.UTF_8).trim();
    try {
      return new SourceOffset(recorded);
    } catch (IllegalArgumentException e) {
      throw CheckpointException.corrupt(file, "it is not a source offset: "
          + MetadataLog.quote(recorded));
    }
  }

  private Path initialOffsetFile(int source) {
    return sourceDirectory(source).resolve("0");
  }

  /**
   * The directory of source {@code source}'s own files, {@code sources/<source>}, as Spark's
   * {@code <checkpoint>/sources/<id>}: its {@linkplain #recordInitialOffset initial offset}
   * {@code 0}, and what a source keeps there itself (a file source's list of files taken).
   */
  public Path sourceDirectory(int source) {
    if (source < 0) {
      throw new IllegalArgumentException("negative source id: " + source);
    }
    return root.resolve("sources").resolve(Integer.toString(source));
  }

  /**
   * Deletes the file {@code plan} of a query that never ran a batch, so that it can be created
   * with another plan; with a batch in {@code offsets/}, the state depends on the plan.
   *
   * @throws IllegalStateException if a batch has run
   * @throws CheckpointException if the file system fails
   */
  public void deletePlanBeforeFirstBatch() {
    if (offsetLog.latestBatchId().isPresent()) {
      throw new IllegalStateException("query " + queryId + " has run batches on its plan");
    }
    try {
      Files.deleteIfExists(planFile());
    } catch (IOException e) {
      throw StorageException.io("delete", planFile(), e);
    }
  }

  /**
   * The directory of the state store of partition {@code partitionId} of stateful operator
   * {@code operatorId}, {@code state/<operatorId>/<partitionId>}; the store creates it.
   */
  public Path stateDirectory(int operatorId, int partitionId) {
    if (operatorId < 0 || partitionId < 0) {
      throw new IllegalArgumentException("negative operator or partition id: " + operatorId
          + ", " + partitionId);
    }
    return root.resolve("state").resolve(Integer.toString(operatorId))
        .resolve(Integer.toString(partitionId));
  }

  /**
   * Purges old log entries after {@code offsets/N} was added (SEMANTICS.md §7.1 step 1d): with
   * {@code N} the latest offsets entry, deletes the offsets and commits entries of every batch
   * below {@code N - minBatchesToRetain}. Batches {@code N - minBatchesToRetain} to {@code N}
   * stay, so a restart still finds the entry before the latest one.
   *
   * @param minBatchesToRetain how many batches before the latest to keep, at least 1; normally
   *     {@link #DEFAULT_MIN_BATCHES_TO_RETAIN}
   * @throws StorageException if the file system fails
   */
  public void retain(int minBatchesToRetain) {
    if (minBatchesToRetain < 1) {
      throw new IllegalArgumentException("minBatchesToRetain must be positive: "
          + minBatchesToRetain);
    }
    OptionalLong latest = offsetLog.latestBatchId();
    if (latest.isPresent() && latest.getAsLong() > minBatchesToRetain) {
      long threshold = latest.getAsLong() - minBatchesToRetain;
      offsetLog.purgeBefore(threshold);
      commitLog.purgeBefore(threshold);
    }
  }

  @Override public String toString() {
    return "Checkpoint[" + root + ", query " + queryId + "]";
  }
}
