package dev.freshet.engine.query;

import dev.freshet.common.errors.SqlState;
import dev.freshet.executor.checkpoint.Checkpoint;
import dev.freshet.executor.checkpoint.OffsetSeq;
import dev.freshet.engine.errors.Errors;
import dev.freshet.planner.exec.ExecPlan;
import dev.freshet.planner.exec.PlanCompatibility;
import dev.freshet.planner.exec.UnreadablePlanException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A materialized view's execution plan in its checkpoint ({@code <checkpoint>/plan}): written
 * when the view is created, and run on every restart once a batch has run on it, so that state is
 * never read with a layout other than the one it was written with, and a later planner does not
 * change what a running view computes. A stored plan this code cannot read or run, whose state
 * schema is not the one this code keeps, or whose rows no longer fit the view's result, fails the
 * view with SQLSTATE 55000 ({@link #INCOMPATIBLE_CHECKPOINT_STATE}), naming the view and what
 * differs.
 *
 * <pre>{@code
 * StoredPlans.checkStateFormatVersion(checkpoint, "PER_USER");
 * ExecPlan run = StoredPlans.planToRun(checkpoint, "PER_USER", ExecPlanGenerator.generate(q));
 * StoredPlans.write(checkpoint, run);                // once the view's name is its own
 * }</pre>
 */
public final class StoredPlans {
  /** SQLSTATE when a view's checkpoint cannot be resumed by this code (object not in state). */
  public static final SqlState INCOMPATIBLE_CHECKPOINT_STATE =
      SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE;
  /**
   * The format of the state this code writes and reads, pinned in every {@code offsets/N} as
   * {@value OffsetSeq#STATE_FORMAT_VERSION} (Spark's {@code stateFormatVersion}).
   */
  public static final int STATE_FORMAT_VERSION = 1;

  private StoredPlans() {
  }

  /**
   * The plan view {@code view} runs: the one stored in its checkpoint once a batch has run on it,
   * checked to be one this code reads, with the state schemas this code keeps and the output
   * {@code planned} has (the columns of the view's result); otherwise {@code planned}. Before the
   * first batch there is no state, so a stored plan is left from a CREATE that failed, and
   * {@link #write} replaces it.
   *
   * @param planned the plan the running code makes for the view's query
   * @throws SQLException with SQLSTATE 55000 ({@link #INCOMPATIBLE_CHECKPOINT_STATE}) if the
   *     stored plan cannot be read or does not fit
   */
  public static ExecPlan planToRun(Checkpoint checkpoint, String view, ExecPlan planned)
      throws SQLException {
    Optional<byte[]> stored = checkpoint.readPlan();
    if (stored.isEmpty() || checkpoint.offsetLog().latestBatchId().isEmpty()) {
      return planned;
    }
    ExecPlan plan;
    try {
      plan = ExecPlan.fromJson(new String(stored.get(), StandardCharsets.UTF_8));
    } catch (UnreadablePlanException e) {
      throw cannotRun(view, checkpoint, e);
    }
    List<String> differences = new ArrayList<>(PlanCompatibility.stateDifferences(plan));
    differences.addAll(PlanCompatibility.outputDifferences(plan, planned));
    if (!differences.isEmpty()) {
      throw cannotResume(view, checkpoint, "the plan in its checkpoint does not fit this"
          + " Freshet, and its state or result would be misread. "
          + String.join("; ", differences) + " (stored plan " + checkpoint.planFile() + ")",
          null);
    }
    return plan;
  }

  /**
   * The error for a stored plan of view {@code view} that cannot be read or built: SQLSTATE
   * 55000 ({@link #INCOMPATIBLE_CHECKPOINT_STATE}), naming the file and why.
   */
  public static SQLException cannotRun(String view, Checkpoint checkpoint,
      UnreadablePlanException e) {
    return cannotResume(view, checkpoint, "its stored plan " + checkpoint.planFile()
        + " cannot be read: " + e.getMessage(), e);
  }

  /**
   * Writes {@code plan}, which {@link #planToRun} returned, into the checkpoint if it has none yet,
   * or replaces the stored one if no batch has run on it. Once a batch has run the stored plan
   * stays as it is: it describes the state the checkpoint holds.
   *
   * @throws dev.freshet.executor.checkpoint.CheckpointException if the file system fails
   */
  public static void write(Checkpoint checkpoint, ExecPlan plan) {
    byte[] json = plan.toJson().getBytes(StandardCharsets.UTF_8);
    Optional<byte[]> stored = checkpoint.readPlan();
    if (stored.isEmpty()) {
      // A new view; or one whose checkpoint predates plan files, which has run this same plan.
      checkpoint.createPlan(json);
    } else if (checkpoint.offsetLog().latestBatchId().isEmpty()
        && !Arrays.equals(stored.get(), json)) {
      checkpoint.deletePlanBeforeFirstBatch();
      checkpoint.createPlan(json);
    }
  }

  /**
   * Checks the state format version pinned in the checkpoint's latest {@code offsets/N}.
   *
   * @throws SQLException with SQLSTATE 55000 ({@link #INCOMPATIBLE_CHECKPOINT_STATE}) if it is not
   *     {@value #STATE_FORMAT_VERSION}
   */
  public static void checkStateFormatVersion(Checkpoint checkpoint, String view)
      throws SQLException {
    OptionalLong latest = checkpoint.offsetLog().latestBatchId();
    if (latest.isEmpty()) {
      return;
    }
    String version = checkpoint.offsetLog().get(latest.getAsLong()).map(OffsetSeq::conf)
        .orElse(Map.of()).get(OffsetSeq.STATE_FORMAT_VERSION);
    if (version == null || version.equals(Integer.toString(STATE_FORMAT_VERSION))) {
      return;
    }
    Path file = checkpoint.offsetLog().batchFile(latest.getAsLong());
    throw cannotResume(view, checkpoint, file + " records " + OffsetSeq.STATE_FORMAT_VERSION
        + " '" + version + "', but this Freshet reads state of format version "
        + STATE_FORMAT_VERSION + " only", null);
  }

  private static SQLException cannotResume(String view, Checkpoint checkpoint, String why,
      Throwable cause) {
    return Errors.of(INCOMPATIBLE_CHECKPOINT_STATE, "Materialized view " + view + " cannot resume from its checkpoint "
        + checkpoint.root() + ": " + why + ". Run the Freshet version that created the view, or"
        + " DROP MATERIALIZED VIEW " + view + " and create it again to rebuild its state from"
        + " the beginning of its stream", cause);
  }
}
