package dev.freshet.engine;

import java.util.ArrayList;
import java.util.List;
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
    return of(node).size();
  }

  /** The {@code ?} markers of {@code node}, in the order of their indexes. */
  static List<SqlDynamicParam> of(SqlNode node) {
    List<SqlDynamicParam> markers = new ArrayList<>();
    node.accept(new SqlBasicVisitor<Void>() {
      @Override public Void visit(SqlDynamicParam param) {
        markers.add(param);
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
    markers.sort((a, b) -> Integer.compare(a.getIndex(), b.getIndex()));
    return markers;
  }
}
