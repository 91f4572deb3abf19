package dev.freshet.planner;

import dev.freshet.executor.operators.OutputMode;
import dev.freshet.executor.operators.StateBound;
import dev.freshet.planner.rel.JoinTimeRange;
import dev.freshet.planner.rel.SessionAggregate;
import dev.freshet.planner.rel.StateStoreSave;
import dev.freshet.planner.rel.StreamDeduplicate;
import dev.freshet.planner.rel.StreamTopN;
import dev.freshet.planner.rel.StreamingJoin;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.externalize.RelWriterImpl;
import org.apache.calcite.sql.SqlExplainLevel;
import org.apache.calcite.util.Pair;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What bounds the state of each stateful operator of a streaming plan: the watermark (a window
 * that closes, an interval join, a deduplication whose keys expire with event time), the state
 * TTL ({@code 'state.ttl'}), or nothing. EXPLAIN labels each operator with it, and creating a
 * view or sink with an unbounded operator warns.
 *
 * <pre>{@code
 * StateBounds.explain(plan.logical(), 0);
 * // LogicalStateStoreSave(operatorId=[0], ..., state=[UNBOUNDED])
 * StateBounds.of(plan.logical(), 0).get(0).bound();   // UNBOUNDED
 * }</pre>
 */
public final class StateBounds {
  private StateBounds() {
  }

  /**
   * One stateful operator of a plan.
   *
   * @param name its plan node and operator id, e.g. {@code StateStoreSave(operatorId=0)}
   * @param kind {@code aggregation}, {@code window aggregation}, {@code session window},
   *     {@code join}, {@code deduplication} or {@code top-n}
   * @param bound what bounds its state
   */
  public record StatefulNode(String name, String kind, StateBound bound) {
    /** E.g. {@code aggregation StateStoreSave(operatorId=0)}. */
    public String describe() {
      return kind + " " + name;
    }
  }

  /** The stateful operators of {@code plan}, from the top down, with a state TTL {@code ttlMs}. */
  public static List<StatefulNode> of(RelNode plan, long ttlMs) {
    List<StatefulNode> nodes = new ArrayList<>();
    new RelVisitor() {
      @Override public void visit(RelNode node, int ordinal, @Nullable RelNode parent) {
        StatefulNode stateful = describe(node, ttlMs);
        if (stateful != null) {
          nodes.add(stateful);
        }
        super.visit(node, ordinal, parent);
      }
    }.go(plan);
    return nodes;
  }

  /** The operators of {@code plan} that nothing bounds. */
  public static List<StatefulNode> unbounded(RelNode plan, long ttlMs) {
    return of(plan, ttlMs).stream().filter(n -> n.bound() == StateBound.UNBOUNDED).toList();
  }

  /**
   * The plan as {@code RelOptUtil.toString} writes it, each stateful operator with one more
   * attribute, {@code state=[BOUNDED BY WATERMARK]}, {@code [BOUNDED BY TTL]} or
   * {@code [UNBOUNDED]}.
   */
  public static String explain(RelNode plan, long ttlMs) {
    StringWriter text = new StringWriter();
    PrintWriter out = new PrintWriter(text);
    plan.explain(new RelWriterImpl(out, SqlExplainLevel.EXPPLAN_ATTRIBUTES, false) {
      @Override protected void explain_(RelNode rel, List<Pair<String, @Nullable Object>> values) {
        StatefulNode stateful = describe(rel, ttlMs);
        if (stateful != null) {
          values = new ArrayList<>(values);
          values.add(Pair.of("state", stateful.bound().label()));
        }
        super.explain_(rel, values);
      }
    });
    out.flush();
    return text.toString();
  }

  /** The operator {@code rel} is, or null if it keeps no state. */
  static @Nullable StatefulNode describe(RelNode rel, long ttlMs) {
    if (rel instanceof StateStoreSave save) {
      // COMPLETE mode keeps every group, windows included: the watermark evicts nothing.
      boolean windowed = save.eventTimeKey() != null;
      return new StatefulNode(name("StateStoreSave", save.operatorId()),
          windowed ? "window aggregation" : "aggregation",
          StateBound.of(windowed && save.outputMode() != OutputMode.COMPLETE, ttlMs));
    }
    if (rel instanceof SessionAggregate session) {
      // Sessions have no TTL: the watermark closes them in APPEND mode.
      return new StatefulNode(name("SessionAggregate", session.operatorId()), "session window",
          StateBound.of(session.outputMode() == OutputMode.APPEND, 0));
    }
    if (rel instanceof StreamingJoin join) {
      return new StatefulNode(name("StreamingJoin", join.operatorId()), "join",
          StateBound.of(evictsBothSides(join), ttlMs));
    }
    if (rel instanceof StreamDeduplicate dedup) {
      return new StatefulNode(name("StreamDeduplicate", dedup.operatorId()), "deduplication",
          StateBound.of(dedup.expiryIndex() >= 0, ttlMs));
    }
    if (rel instanceof StreamTopN topN) {
      return new StatefulNode(name("StreamTopN", topN.operatorId()), "top-n",
          StateBound.of(false, ttlMs));
    }
    return null;
  }

  /**
   * Whether the watermark evicts the rows of both sides: a time range bounded both ways, or
   * equal event times (as the executor's join derives its range).
   */
  private static boolean evictsBothSides(StreamingJoin join) {
    JoinTimeRange range = join.timeRange();
    if (range != null && range.hasLower() && range.hasUpper()) {
      return true;
    }
    for (int i = 0; i < join.leftKeys().size(); i++) {
      if (join.leftEventTime() >= 0 && join.leftKeys().get(i) == join.leftEventTime()
          && join.rightEventTime() >= 0 && join.rightKeys().get(i) == join.rightEventTime()) {
        return true;
      }
    }
    return false;
  }

  private static String name(String node, int operatorId) {
    return node + "(operatorId=" + operatorId + ")";
  }
}
