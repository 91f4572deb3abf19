package dev.freshet.planner.exec;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One operator of an {@link ExecPlan}.
 *
 * @param id the operator's id in its plan, assigned by the planner: 0 for the node next to the
 *     source, counting up towards the sink
 * @param operator what the operator does, with everything the executor needs to run it
 * @param detail the operator as the planner explains it (a calc's expressions, ...), for people
 *     reading the plan; not read back
 * @param output the columns of the rows it emits
 * @param state its state store, null for a stateless operator
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"id", "operator", "detail", "output", "state"})
public record ExecNode(int id, ExecOperator operator, String detail, List<ExecColumn> output,
    @Nullable StateSchema state) {
  public ExecNode {
    if (id < 0) {
      throw new IllegalArgumentException("id must not be negative: " + id);
    }
    requireNonNull(operator, "operator");
    requireNonNull(detail, "detail");
    output = List.copyOf(output);
  }

  /**
   * What the operator does: {@code scan}, {@code watermark}, {@code window}, {@code sort},
   * {@code calc}, {@code stateful-aggregate} or {@code lookup-join}.
   */
  public String kind() {
    return operator.kind();
  }
}
