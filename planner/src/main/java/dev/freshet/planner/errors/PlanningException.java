package dev.freshet.planner.errors;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.errors.SqlState;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A query the planner cannot plan, with the SQLSTATE of the problem and a message that says what
 * is wrong and how to fix it. The engine turns it into a JDBC {@code SQLException} with the same
 * state and message; the planner knows no JDBC.
 *
 * <pre>{@code
 * try {
 *   planner.planQuery(query, null, 1);
 * } catch (PlanningException e) {
 *   e.state();   // e.g. SqlState.NOT_VALID_ON_STREAM
 * }
 * }</pre>
 */
public final class PlanningException extends Exception {
  private static final long serialVersionUID = 1L;

  private final SqlState state;

  /** A problem of the query, found by the planner itself. */
  public PlanningException(SqlState state, String message) {
    this(state, message, null);
  }

  /** A problem of the query, shown by {@code cause}, e.g. Calcite's validation error. */
  public PlanningException(SqlState state, String message, @Nullable Throwable cause) {
    super(requireNonNull(message, "message"), cause);
    this.state = requireNonNull(state, "state");
  }

  /** The SQLSTATE that the error reaches JDBC with. */
  public SqlState state() {
    return state;
  }
}
