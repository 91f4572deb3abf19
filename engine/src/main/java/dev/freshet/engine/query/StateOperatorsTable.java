package dev.freshet.engine.query;

import dev.freshet.executor.runtime.StateOperatorProgress;
import dev.freshet.executor.runtime.StreamingQueryProgress;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * {@code SYS.STATE_OPERATORS}: one row per stateful operator of each continuous query the user
 * may see (as {@code SYS.QUERIES}), after the query's last batch: what state it keeps, what
 * bounds it, and how much of it there is.
 *
 * <pre>{@code
 * SELECT query, operator, kind, bound, "ROWS", bytes FROM sys.state_operators;
 * -- COUNTS | 0 | stateStoreSave | aggregation | BOUNDED BY TTL | 1000000 | 168000000
 * }</pre>
 *
 * <p>{@code QUERY} is the view's or sink's name (a push query's generated name);
 * {@code OPERATOR_ID} numbers the query's stateful operators from 0 as the plan's
 * {@code operatorId}s do; {@code OPERATOR} is Spark's short name ({@code stateStoreSave},
 * {@code symmetricHashJoin}, {@code dedupe}, ...); {@code KIND} one of {@code aggregation},
 * {@code window aggregation}, {@code session window}, {@code join}, {@code deduplication},
 * {@code top-n}; {@code BOUND} as EXPLAIN labels it; {@code ROWS} the keys (rows) in state and
 * {@code BYTES} an estimate of their heap (from the number of columns, not a measure). A query
 * appears once its first batch ran; one run on another engine reports its own operators, with
 * bound {@code UNKNOWN}.
 */
final class StateOperatorsTable {
  private StateOperatorsTable() {
  }

  static RelDataType rowType(RelDataTypeFactory f) {
    return f.builder()
        .add("QUERY", SqlTypeName.VARCHAR)
        .add("QUERY_ID", SqlTypeName.VARCHAR)
        .add("OPERATOR_ID", SqlTypeName.INTEGER)
        .add("OPERATOR", SqlTypeName.VARCHAR)
        .add("KIND", SqlTypeName.VARCHAR)
        .add("BOUND", SqlTypeName.VARCHAR)
        .add("ROWS", SqlTypeName.BIGINT)
        .add("BYTES", SqlTypeName.BIGINT)
        .build();
  }

  /** One row per stateful operator of every query, from its last batch's progress. */
  static List<Object[]> rows(List<ContinuousQuery> queries) {
    List<Object[]> rows = new ArrayList<>();
    for (ContinuousQuery query : queries) {
      List<StreamingQueryProgress> recent = query.recentProgress();
      if (recent.isEmpty()) {
        continue;
      }
      StreamingQueryProgress last = recent.get(recent.size() - 1);
      String name = query.name() != null ? query.name() : last.name();
      List<StateOperatorProgress> operators = last.stateOperators();
      for (int i = 0; i < operators.size(); i++) {
        StateOperatorProgress op = operators.get(i);
        rows.add(new Object[] {name, query.id(), i, op.operatorName(), op.kind(), op.bound(),
            op.numRowsTotal(), op.stateBytes()});
      }
    }
    return rows;
  }
}
