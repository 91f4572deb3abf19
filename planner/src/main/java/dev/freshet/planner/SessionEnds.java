package dev.freshet.planner;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * Rewrites {@code SESSION_END(ts, gap)} as {@code MAX(ts) + gap} before a query is converted:
 * Calcite converts it to the group's {@code $SESSION} value, which is the session's start, and a
 * session's end is its last row's time plus the gap.
 *
 * <pre>{@code
 * SELECT k, SESSION_END(ts, INTERVAL '5' SECOND) FROM s GROUP BY k, SESSION(ts, INTERVAL '5' SECOND)
 * -- becomes
 * SELECT k, MAX(ts) + INTERVAL '5' SECOND FROM s GROUP BY k, SESSION(ts, INTERVAL '5' SECOND)
 * }</pre>
 */
final class SessionEnds {
  private SessionEnds() {
  }

  /** {@code node} with every {@code SESSION_END} rewritten; {@code node} itself if none. */
  static SqlNode rewrite(SqlNode node) {
    if (!contains(node)) {
      return node;
    }
    return node.accept(new SqlShuttle() {
      @Override public SqlNode visit(SqlCall call) {
        if (isSessionEnd(call) && call.operandCount() == 2) {
          SqlNode ts = call.operand(0).accept(this);
          SqlNode gap = call.operand(1).accept(this);
          return SqlStdOperatorTable.PLUS.createCall(call.getParserPosition(),
              SqlStdOperatorTable.MAX.createCall(call.getParserPosition(), ts), gap);
        }
        return super.visit(call);
      }
    });
  }

  /** By name too: the parser leaves functions unresolved until validation. */
  private static boolean isSessionEnd(SqlCall call) {
    return call.getKind() == SqlKind.SESSION_END
        || call.getOperator().getName().equalsIgnoreCase("SESSION_END");
  }

  private static boolean contains(SqlNode node) {
    boolean[] found = new boolean[1];
    node.accept(new SqlBasicVisitor<Void>() {
      @Override public Void visit(SqlCall call) {
        if (isSessionEnd(call)) {
          found[0] = true;
        }
        return super.visit(call);
      }
    });
    return found[0];
  }
}
