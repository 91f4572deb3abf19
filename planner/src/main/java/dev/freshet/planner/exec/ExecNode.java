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
 * @param inputs the ids of the nodes whose rows it reads, in order (a join's left, then its
 *     right), each lower than {@code id}; null for the usual case, which plans of one stream
 *     always are: a scan reads none, any other node the node before it
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"id", "inputs", "operator", "detail", "output", "state"})
public record ExecNode(int id, ExecOperator operator, String detail, List<ExecColumn> output,
    @Nullable StateSchema state, @Nullable List<Integer> inputs) {
  public ExecNode {
    if (id < 0) {
      throw new IllegalArgumentException("id must not be negative: " + id);
    }
    requireNonNull(operator, "operator");
    requireNonNull(detail, "detail");
    output = List.copyOf(output);
    if (inputs != null) {
      inputs = List.copyOf(inputs);
      for (int input : inputs) {
        if (input < 0 || input >= id) {
          throw new IllegalArgumentException("node " + id + " cannot read node " + input
              + ": a node reads nodes before it");
        }
      }
      if (inputs.equals(defaultInputs(id, operator))) {
        // Written only where it says something: plans of one stream read as they always did.
        inputs = null;
      }
    }
  }

  /** A node that reads the node before it (none, if it is a scan). */
  public ExecNode(int id, ExecOperator operator, String detail, List<ExecColumn> output,
      @Nullable StateSchema state) {
    this(id, operator, detail, output, state, null);
  }

  /** The ids of the nodes this one reads, in order: none for a scan. */
  public List<Integer> inputIds() {
    return inputs != null ? inputs : defaultInputs(id, operator);
  }

  private static List<Integer> defaultInputs(int id, ExecOperator operator) {
    return operator instanceof ExecOperator.Scan || id == 0 ? List.of() : List.of(id - 1);
  }

  /**
   * What the operator does: {@code scan}, {@code watermark}, {@code window}, {@code sort},
   * {@code calc}, {@code union}, {@code stateful-aggregate}, {@code lookup-join},
   * {@code stream-join} or {@code deduplicate}.
   */
  public String kind() {
    return operator.kind();
  }
}
