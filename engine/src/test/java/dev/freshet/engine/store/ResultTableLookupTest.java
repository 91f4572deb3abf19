package dev.freshet.engine.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.DataContext;
import org.apache.calcite.DataContexts;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Which rows a result reads from H2 for a scan whose filters fix the view's key: only the key's
 * row when the key is one column the view shows, else every row (Calcite filters them again).
 */
class ResultTableLookupTest {
  private static final JavaTypeFactoryImpl TYPES = new JavaTypeFactoryImpl();
  private static final RexBuilder REX = new RexBuilder(TYPES);
  private static final RelDataType BIGINT = TYPES.createSqlType(SqlTypeName.BIGINT);
  private static final RelDataType VARCHAR =
      TYPES.createTypeWithNullability(TYPES.createSqlType(SqlTypeName.VARCHAR), true);
  /** View (K BIGINT NOT NULL, N BIGINT NOT NULL). */
  private static final RelDataType K_N = TYPES.builder()
      .add("K", SqlTypeName.BIGINT).add("N", SqlTypeName.BIGINT).build();
  /** View (NAME VARCHAR, N BIGINT NOT NULL). */
  private static final RelDataType NAME_N = TYPES.builder()
      .add("NAME", SqlTypeName.VARCHAR).nullable(true).add("N", SqlTypeName.BIGINT).build();
  private static final int GROUPS = 1000;

  private ResultDatabase db;

  @BeforeEach void open() throws SQLException {
    db = ResultDatabase.open(Optional.empty());
  }

  @AfterEach void close() throws SQLException {
    db.close();
  }

  /** Rows (k, 10 * k, hidden key k) for k in 0 .. GROUPS - 1; the view shows the key first. */
  private ResultTable integral(String view, int[] shownAt) throws SQLException {
    ResultTable table = ResultTable.open(db, view, "q", K_N, ResultTable.Layout.UPSERT,
        ResultKey.of(new int[] {2}, List.of(BIGINT), -1).shownAt(shownAt), 100);
    List<Object[]> rows = new ArrayList<>();
    for (long k = 0; k < GROUPS; k++) {
      rows.add(new Object[] {k, 10 * k, k});
    }
    table.apply(0, rows);
    return table;
  }

  private static RexNode column(int i, RelDataType type) {
    return REX.makeInputRef(type, i);
  }

  private static RexNode equals(RexNode a, RexNode b) {
    return REX.makeCall(SqlStdOperatorTable.EQUALS, a, b);
  }

  private static RexNode number(long value) {
    return REX.makeExactLiteral(BigDecimal.valueOf(value), BIGINT);
  }

  private static List<List<Object>> scan(ResultTable table, DataContext root,
      int @Nullable [] projects, RexNode... filters) {
    List<RexNode> list = new ArrayList<>(List.of(filters));
    List<List<Object>> rows = new ArrayList<>();
    for (Object[] row : table.scan(root, list, projects)) {
      rows.add(Arrays.asList(row));
    }
    // Every filter is left for Calcite to apply again.
    assertEquals(List.of(filters), list);
    return rows;
  }

  private static List<List<Object>> scan(ResultTable table, RexNode... filters) {
    return scan(table, DataContexts.EMPTY, null, filters);
  }

  @Test void shouldReadOnlyTheRowOfAnIntegralKeyThatTheFiltersFix() throws SQLException {
    ResultTable table = integral("V", new int[] {0});
    RexNode k = column(0, BIGINT);
    RexNode n = column(1, BIGINT);
    assertEquals(List.of(List.of(7L, 70L)), scan(table, equals(k, number(7))));
    assertEquals(List.of(List.of(7L, 70L)), scan(table, equals(number(7), k)));
    assertEquals(List.of(), scan(table, equals(k, number(GROUPS))));
    assertEquals(List.of(List.of(7L, 70L)), scan(table,
        REX.makeCall(SqlStdOperatorTable.AND, REX.makeCall(SqlStdOperatorTable.GREATER_THAN,
            n, number(0)), equals(k, number(7)))));
    assertEquals(List.of(List.of(7L, 70L)), scan(table,
        REX.makeCall(SqlStdOperatorTable.GREATER_THAN, n, number(0)), equals(k, number(7))));
    assertEquals(List.of(List.of(70L)), scan(table, DataContexts.EMPTY, new int[] {1},
        equals(k, number(7))));
    // A parameter's value is read from the statement's context.
    DataContext withParameter = DataContexts.of(Map.of("?0", 9L));
    assertEquals(List.of(List.of(9L, 90L)), scan(table, withParameter, null,
        equals(k, REX.makeDynamicParam(BIGINT, 0))));
  }

  @Test void shouldReadEveryRowWhenTheFiltersDoNotFixTheKey() throws SQLException {
    ResultTable table = integral("V", new int[] {0});
    RexNode k = column(0, BIGINT);
    assertEquals(GROUPS, scan(table).size());
    assertEquals(GROUPS, scan(table, REX.makeCall(SqlStdOperatorTable.OR,
        equals(k, number(7)), equals(k, number(8)))).size());
    assertEquals(GROUPS, scan(table, equals(column(1, BIGINT), number(70))).size());
    assertEquals(GROUPS, scan(table, equals(k, REX.makeExactLiteral(new BigDecimal("7.5"))))
        .size());
  }

  @Test void shouldReadEveryRowWhenTheViewDoesNotShowItsKey() throws SQLException {
    ResultTable table = integral("V", new int[] {-1});
    assertEquals(GROUPS, scan(table, equals(column(0, BIGINT), number(7))).size());
    ResultTable unknown = integral("U", new int[0]);
    assertEquals(GROUPS, scan(unknown, equals(column(0, BIGINT), number(7))).size());
  }

  @Test void shouldLookUpAVarcharKeyByItsEncodingThroughThePinnedSnapshot() throws SQLException {
    ResultTable table = ResultTable.open(db, "W", "q", NAME_N, ResultTable.Layout.UPSERT,
        ResultKey.of(new int[] {2}, List.of(VARCHAR), -1).shownAt(new int[] {0}), 100);
    table.apply(0, new ArrayList<>(List.<Object[]>of(new Object[] {"a", 1L, "a"},
        new Object[] {null, 2L, null}, new Object[] {"b", 3L, "b"})));
    RexNode name = column(0, VARCHAR);
    try (Connection snapshot = db.connectSnapshot()) {
      Map<String, Object> variables = new HashMap<>();
      variables.put(ResultTable.SNAPSHOT_VARIABLE, snapshot);
      DataContext statement = DataContexts.of(variables);
      // The snapshot starts with the statement's first read.
      assertEquals(3, scan(table, statement, null).size());
      table.apply(1, new ArrayList<>(List.<Object[]>of(new Object[] {"a", 5L, "a"})));
      // The statement's snapshot: batch 0's row of a, not batch 1's.
      assertEquals(List.of(List.of("a", 1L)), scan(table, statement, null,
          equals(name, REX.makeLiteral("a"))));
    }
    assertEquals(List.of(List.of("a", 5L)), scan(table, equals(name, REX.makeLiteral("a"))));
    assertEquals(List.of(), scan(table, equals(name, REX.makeLiteral("c"))));
    assertEquals(3, scan(table, REX.makeCall(SqlStdOperatorTable.IS_NULL, name)).size());
  }
}
