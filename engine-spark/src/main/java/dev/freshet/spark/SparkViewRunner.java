package dev.freshet.spark;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.spi.RunningView;
import dev.freshet.engine.spi.ViewJob;
import dev.freshet.engine.spi.ViewRunner;
import dev.freshet.planner.logical.LogicalStream;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import scala.Option;

/**
 * Runs one Freshet engine's Spark views, in the JVM's one long-lived SparkSession: Freshet is
 * the driver (client mode); the master is {@code local[2]} or a cluster's.
 *
 * <pre>{@code
 * RunningView v = runner.prepare(job);   // sources and translation: 0A000 before any Spark job
 * v.start();                             // Spark's query, its batches fed to job.sink()
 * }</pre>
 *
 * <p>The session outlives the runner: Spark allows one SparkContext per JVM, which every engine
 * of the JVM shares (and Spark's shutdown hook stops). Engines of one JVM must therefore name
 * the same master.
 */
final class SparkViewRunner implements ViewRunner {
  private final SparkViewSettings settings;
  private final SparkSession spark;
  private final Set<SparkRunningView> views = ConcurrentHashMap.newKeySet();

  SparkViewRunner(SparkViewSettings settings) throws SQLException {
    this.settings = requireNonNull(settings, "settings");
    this.spark = session(settings);
  }

  /** The JVM's session, made for {@code settings} if there is none yet. */
  private static SparkSession session(SparkViewSettings settings) throws SQLException {
    synchronized (SparkViewRunner.class) {
      Option<SparkSession> existing = SparkSession.getDefaultSession();
      if (existing.isDefined() && !existing.get().sparkContext().isStopped()) {
        String master = existing.get().sparkContext().master();
        if (!master.equals(settings.master())) {
          throw Errors.of(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, "This JVM already drives"
              + " Spark master " + master + ", and Spark allows one per JVM, so views cannot"
              + " run on " + settings.master() + " from it. Give every engine of the JVM the"
              + " same spark.master, or run another Freshet server for the other cluster");
        }
        return existing.get();
      }
      try {
        return SparkSessions.create(settings.master(), settings.conf());
      } catch (RuntimeException e) {
        throw Errors.of(SqlState.UNABLE_TO_CONNECT, "Cannot start Spark on master "
            + settings.master() + ": " + e.getMessage() + ". Check that the master is up and"
            + " reachable from this server, and that this server's address is reachable from"
            + " the cluster (spark.driver.host; see docs/deployment-spark.md)", e);
      }
    }
  }

  @Override public RunningView prepare(ViewJob job) throws SQLException {
    List<SparkSource> sources = new ArrayList<>();
    try {
      Map<String, Dataset<Row>> datasets = new HashMap<>();
      for (LogicalStream stream : job.query().sources()) {
        SparkSource source = SparkSources.of(spark, stream);
        sources.add(source);
        datasets.put(source.name(), source.rows());
      }
      SparkQuery query = new SparkPlanTranslator(datasets).translate(job.query(), job.keyed());
      SparkRunningView view = new SparkRunningView(job, query, checkpoint(job), sources,
          views::remove);
      views.add(view);
      return view;
    } catch (SQLException | RuntimeException e) {
      sources.forEach(SparkSource::close);
      throw e;
    }
  }

  /**
   * Where Spark checkpoints the view's query: under {@code spark.checkpoint.dir} (shared by the
   * cluster), else in the view's directory in Freshet's data directory, else (an engine in
   * memory) in a temporary directory that goes with the query.
   */
  private SparkCheckpoint checkpoint(ViewJob job) {
    if (settings.checkpointDir().isPresent()) {
      String dir = settings.checkpointDir().get();
      return new SparkCheckpoint(dir + (dir.endsWith("/") ? "" : "/") + job.view() + "-"
          + job.queryId(), false);
    }
    if (job.localDir().isPresent()) {
      return new SparkCheckpoint(job.localDir().get().resolve("spark").toString(), false);
    }
    // Named, not made: Spark makes it when the query starts (an EXPLAIN starts none).
    return new SparkCheckpoint(Path.of(System.getProperty("java.io.tmpdir"),
        "freshet-spark-" + job.queryId()).toString(), true);
  }

  /** Stops the views this runner still runs (the engine has stopped them first, normally). */
  @Override public void close() {
    for (SparkRunningView view : List.copyOf(views)) {
      view.stop();
    }
  }
}
