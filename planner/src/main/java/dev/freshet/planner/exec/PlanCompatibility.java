package dev.freshet.planner.exec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether a query planned by the running code can resume from the state an earlier plan wrote:
 * the same stateful operators (by operator id), each with the same state name, key schema and
 * value schema, column for column. Stateless operators may differ; their output is not kept.
 *
 * <p>As Spark's {@code StateSchemaCompatibilityChecker}, it refuses rather than guesses: a state
 * value read with another layout would be silently wrong, so any difference in a column's name,
 * type or accumulator counts.
 *
 * <pre>{@code
 * List<String> differences = PlanCompatibility.differences(stored, ExecPlanGenerator.generate(q));
 * if (!differences.isEmpty()) {
 *   // fail the query, naming each difference
 * }
 * }</pre>
 */
public final class PlanCompatibility {
  private PlanCompatibility() {
  }

  /**
   * What differs between the state of {@code stored} and that of {@code current}, one sentence
   * per stateful operator, such as {@code "operator 0 (aggregate): the value schema was [...],
   * now [...]"}; empty if {@code current} can read the state {@code stored} wrote.
   */
  public static List<String> differences(ExecPlan stored, ExecPlan current) {
    Map<Integer, StateSchema> before = byOperator(stored);
    Map<Integer, StateSchema> now = byOperator(current);
    List<String> differences = new ArrayList<>();
    for (StateSchema old : before.values()) {
      StateSchema schema = now.get(old.operatorId());
      String operator = "operator " + old.operatorId() + " (" + old.name() + ")";
      if (schema == null) {
        differences.add(operator + ": the stored plan keeps state there, the new plan has no"
            + " stateful operator " + old.operatorId());
        continue;
      }
      if (!schema.name().equals(old.name())) {
        differences.add(operator + ": the state was named " + old.name() + ", now "
            + schema.name());
      }
      if (!schema.key().equals(old.key())) {
        differences.add(operator + ": the key schema was " + old.key() + ", now "
            + schema.key());
      }
      if (!schema.value().equals(old.value())) {
        differences.add(operator + ": the value schema was " + old.value() + ", now "
            + schema.value());
      }
    }
    for (StateSchema schema : now.values()) {
      if (!before.containsKey(schema.operatorId())) {
        differences.add("operator " + schema.operatorId() + " (" + schema.name() + "): the new"
            + " plan keeps state there, the stored plan has no stateful operator "
            + schema.operatorId());
      }
    }
    return differences;
  }

  private static Map<Integer, StateSchema> byOperator(ExecPlan plan) {
    Map<Integer, StateSchema> schemas = new LinkedHashMap<>();
    for (StateSchema schema : plan.stateSchemas()) {
      schemas.put(schema.operatorId(), schema);
    }
    return schemas;
  }
}
