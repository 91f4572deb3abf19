package dev.freshet.planner.exec;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The state store of a stateful {@link ExecNode}: where its state lives and how its keys and
 * values are laid out. A restarted query can read the state its checkpoint holds only if the
 * running code plans the same schema (Spark's {@code StateSchemaCompatibilityChecker}).
 *
 * @param operatorId the stateful operator id the planner assigned; the state directory
 *     {@code state/<operatorId>/} of the checkpoint
 * @param name the state's stable name, e.g. {@code aggregate}
 * @param key the columns of a state key, in order
 * @param value the columns of a state value, in order
 */
public record StateSchema(int operatorId, String name, List<ExecColumn> key,
    List<ExecColumn> value) {
  public StateSchema {
    if (operatorId < 0) {
      throw new IllegalArgumentException("operatorId must not be negative: " + operatorId);
    }
    requireNonNull(name, "name");
    key = List.copyOf(key);
    value = List.copyOf(value);
  }
}
