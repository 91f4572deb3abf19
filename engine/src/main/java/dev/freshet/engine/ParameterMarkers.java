package dev.freshet.engine;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * The parameter markers ({@code ?}) of a parsed statement.
 *
 * <pre>{@code
 * ParameterMarkers.count(Session.parse("INSERT INTO s VALUES (?, 1)"));   // 1
 * }</pre>
 */
final class ParameterMarkers {
  private ParameterMarkers() {
  }

  /** How many {@code ?} markers {@code node} holds. */
  static int count(SqlNode node) {
    int[] count = {0};
    node.accept(new SqlBasicVisitor<Void>() {
      @Override public Void visit(SqlDynamicParam param) {
        count[0]++;
        return null;
      }

      @Override public Void visit(SqlCall call) {
        // Custom statements (CREATE STREAM, EMIT, ...) may have null operands.
        for (SqlNode operand : call.getOperandList()) {
          if (operand != null) {
            operand.accept(this);
          }
        }
        return null;
      }
    });
    return count[0];
  }
}
