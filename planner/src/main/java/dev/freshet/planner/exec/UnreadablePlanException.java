package dev.freshet.planner.exec;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A stored {@link ExecPlan} that this code cannot read: not JSON, not a plan, or a plan of another
 * version. The message says why, in words that complete "The stored plan cannot be read: ".
 */
public final class UnreadablePlanException extends RuntimeException {
  UnreadablePlanException(String why, @Nullable Throwable cause) {
    super(why, cause);
  }
}
