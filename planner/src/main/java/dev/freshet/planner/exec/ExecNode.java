package dev.freshet.planner.exec;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One operator of an {@link ExecPlan}.
 *
 * @param id the operator's id in its plan, assigned by the planner: 0 for the node next to the
 *     source, counting up towards the sink
 * @param kind what the operator does: {@code scan}, {@code watermark}, {@code window},
 *     {@code sort}, {@code calc} or {@code stateful-aggregate}
 * @param detail what else defines the operator, as the planner explains it (the stream a scan
 *     reads, a calc's expressions, ...), for people reading the plan
 * @param output the columns of the rows it emits
 * @param state its state store, null for a stateless operator
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ExecNode(int id, String kind, String detail, List<ExecColumn> output,
    @Nullable StateSchema state) {
  public ExecNode {
    if (id < 0) {
      throw new IllegalArgumentException("id must not be negative: " + id);
    }
    requireNonNull(kind, "kind");
    requireNonNull(detail, "detail");
    output = List.copyOf(output);
  }
}
