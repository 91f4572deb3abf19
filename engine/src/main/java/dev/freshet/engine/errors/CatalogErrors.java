package dev.freshet.engine.errors;

import dev.freshet.common.errors.SqlState;
import dev.freshet.executor.checkpoint.CheckpointException;
import dev.freshet.executor.source.StreamLogException;
import dev.freshet.planner.errors.PlannerErrors;
import java.sql.SQLException;
import org.checkerframework.checker.nullness.qual.Nullable;
import java.util.List;
import java.util.Optional;

/**
 * The errors about the catalog's objects (streams, materialized views and queries) that the
 * engine's statements name: each says what is wrong and which statement fixes it.
 *
 * <pre>{@code
 * throw CatalogErrors.viewNotFound("TOTALS");   // SQLSTATE 42S02
 * }</pre>
 */
public final class CatalogErrors {
  private CatalogErrors() {
  }

  /** A stream that already exists. */
  public static SQLException streamExists(String name) {
    return Errors.of(SqlState.OBJECT_EXISTS, "Stream '" + name + "' already exists. Use CREATE"
        + " STREAM IF NOT EXISTS, or DROP STREAM " + name + " first.");
  }

  /** A stream that does not exist; the planner reports it too, with the same message. */
  public static SQLException streamNotFound(String name) {
    return Errors.toSqlException(PlannerErrors.streamNotFound(name));
  }

  /**
   * A name that an object of another kind holds; streams and views share one namespace.
   *
   * @param kind what the statement creates, e.g. {@code stream}
   * @param holderKind what holds the name, e.g. {@code materialized view}
   * @param dropHolder the statement that would free the name
   */
  public static SQLException nameTaken(String kind, String name, String holderKind,
      String dropHolder) {
    return Errors.of(SqlState.OBJECT_EXISTS, "Cannot create " + kind + " '" + name + "': a "
        + holderKind + " of that name exists, and streams, views and tables share one namespace."
        + " Choose"
        + " another name, or " + dropHolder + " first.");
  }

  /** A materialized view that already exists. */
  public static SQLException viewExists(String name) {
    return Errors.of(SqlState.OBJECT_EXISTS, "Materialized view '" + name + "' already exists."
        + " Use CREATE MATERIALIZED VIEW IF NOT EXISTS, or DROP MATERIALIZED VIEW " + name
        + " first.");
  }

  /** A materialized view that does not exist. */
  public static SQLException viewNotFound(String name) {
    return Errors.of(SqlState.OBJECT_NOT_FOUND, "Materialized view '" + name + "' not found. See"
        + " SHOW VIEWS, or create it with CREATE MATERIALIZED VIEW " + name + " AS SELECT ...");
  }

  /** A name that is neither a stream nor a view. */
  public static SQLException objectNotFound(String name) {
    return Errors.of(SqlState.OBJECT_NOT_FOUND, "Stream or view '" + name + "' not found. See"
        + " SHOW STREAMS and SHOW VIEWS.");
  }

  /** A stream that cannot be dropped because materialized views read it. */
  public static SQLException streamInUse(String name, List<String> views) {
    return inUseByViews("stream", name, views);
  }

  /**
   * {@code DROP} of an object that materialized views read, e.g. a materialized view that
   * another one reads: {@code kind} is {@code "materialized view"}.
   */
  public static SQLException inUseByViews(String kind, String name, List<String> views) {
    String list = String.join(", ", views);
    return Errors.of(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "Cannot drop " + kind + " '" + name
        + "': materialized view" + (views.size() == 1 ? " " : "s ") + list
        + (views.size() == 1 ? " reads" : " read") + " it. Drop "
        + (views.size() == 1 ? "the view" : "them") + " first: DROP MATERIALIZED VIEW "
        + views.get(0) + ".");
  }

  /** {@code CREATE SINK} of a name a sink has (without {@code IF NOT EXISTS}). */
  public static SQLException sinkExists(String name) {
    return Errors.of(SqlState.OBJECT_EXISTS, "Sink " + name + " exists already. DROP SINK "
        + name + " first, or use CREATE SINK IF NOT EXISTS");
  }

  /** {@code CREATE SINK} of a name a stream, view or table has: one namespace for all. */
  public static SQLException sinkNameTaken(String name) {
    return Errors.of(SqlState.OBJECT_EXISTS, "The name " + name + " is taken by a stream,"
        + " materialized view or table, and they share one namespace with sinks. Give the sink"
        + " another name");
  }

  /** {@code DROP SINK} of a sink there is not. */
  public static SQLException sinkNotFound(String name) {
    return Errors.of(SqlState.OBJECT_NOT_FOUND, "Sink " + name + " does not exist. SHOW SINKS"
        + " lists the sinks");
  }

  /** A stream or view that sinks read, which cannot be dropped before them. */
  public static SQLException inUseBySinks(String kind, String name, List<String> sinks) {
    return Errors.of(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "Cannot drop " + kind + " '" + name
        + "': sink" + (sinks.size() == 1 ? " " : "s ") + String.join(", ", sinks)
        + (sinks.size() == 1 ? " reads" : " read") + " it. Drop " + (sinks.size() == 1
        ? "the sink" : "them") + " first: DROP SINK " + sinks.get(0) + ".");
  }

  /**
   * A statement that names an object of another kind, e.g. {@code DROP STREAM} of a view.
   *
   * @param kind what the name is, e.g. {@code materialized view}
   * @param expected what the statement expects, e.g. {@code stream}
   * @param fix the statement to use instead
   */
  public static SQLException wrongObjectType(String name, String kind, String expected,
      String fix) {
    return Errors.of(SqlState.WRONG_OBJECT_TYPE, "'" + name + "' is a " + kind + ", not a "
        + expected + ". Use " + fix + ".");
  }

  /** A query id that names no query of the engine. */
  public static SQLException queryNotFound(String id) {
    return Errors.of(SqlState.UNDEFINED_OBJECT, "Query '" + id + "' not found. See SHOW QUERIES"
        + " for the ids and names of the engine's queries.");
  }

  /**
   * A view whose checkpoint cannot be used: {@code XX001} (data corrupted) for a damaged,
   * missing or contradictory file, as the file must be restored or the view created afresh;
   * {@code 0A000} for a file of a newer Freshet; {@code 55000} for another run using it.
   */
  public static SQLException viewCheckpointError(CheckpointException e) {
    SqlState state = switch (e.reason()) {
      case UNSUPPORTED_VERSION -> SqlState.FEATURE_NOT_SUPPORTED;
      case CONCURRENT_UPDATE -> SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE;
      default -> SqlState.DATA_CORRUPTED;
    };
    return Errors.of(state, e.getMessage(), e);
  }

  /**
   * A plain SELECT of view {@code name}, whose query failed with {@code error} after batch
   * {@code lastBatchId}: its rows would be stale, with no sign of it. The view's damaged files
   * give {@code XX001} (data corrupted); a failing expression its condition's state
   * ({@code 22012} for a division by zero, ...); any other failure {@code 55000} (the view is not
   * in a state to be read).
   */
  public static SQLException viewFailed(String name, long lastBatchId, Throwable error) {
    if (error instanceof CheckpointException checkpoint) {
      return prefixed("Materialized view " + name + " failed: ", viewCheckpointError(checkpoint));
    }
    if (error instanceof StreamLogException log) {
      return prefixed("Materialized view " + name + " failed: ", StreamErrors.streamLogError(log));
    }
    Optional<Failures.Condition> condition = Failures.condition(error);
    return Errors.of(condition.map(Failures.Condition::state)
        .orElse(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE), "Materialized view " + name + " failed"
        + (lastBatchId < 0 ? " before its first batch" : " after batch " + lastBatchId)
        + ", so its rows are out of date: " + condition.map(Failures.Condition::message)
        .orElse(String.valueOf(error.getMessage()))
        + ". Fix the cause, then DROP MATERIALIZED VIEW " + name + " and create it again"
        + " (after SET 'on.error' = 'skip' a view drops rows whose expressions fail instead of"
        + " failing)", error);
  }

  /** {@code e} with {@code prefix} before its message, the same SQLSTATE and cause. */
  private static SQLException prefixed(String prefix, SQLException e) {
    return new SQLException(prefix + e.getMessage(), e.getSQLState(), e.getErrorCode(),
        e.getCause());
  }

  /**
   * A statement naming {@code name}, a stream or view that the catalog records but that a
   * restarted engine could not declare again, for the reason {@code error} gives.
   */
  public static SQLException notRestored(String kind, String name, SQLException error) {
    SQLException e = new SQLException(kind + " " + name + " could not be declared again when the"
        + " engine started: " + error.getMessage() + ". Fix the cause and restart the engine, or"
        + " DROP it", error.getSQLState(), error.getErrorCode(), error);
    return e;
  }
}
