package dev.freshet.engine;

import dev.freshet.engine.errors.Errors;
import dev.freshet.executor.operators.OutputMode;
import dev.freshet.planner.PlannedQuery;
import dev.freshet.planner.catalog.ViewTable;
import dev.freshet.planner.errors.PlanningException;
import dev.freshet.planner.rel.StateStoreSave;
import dev.freshet.sql.parser.EmitMode;
import dev.freshet.sql.parser.SqlEmit;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.ddl.SqlCreateMaterializedView;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The group key of a materialized view, as columns of the view: the columns that identify its
 * rows, which catalog browsers show as its primary key.
 *
 * <pre>{@code
 * // CREATE MATERIALIZED VIEW v AS SELECT region, user_id, COUNT(*) AS n FROM clicks
 * //   GROUP BY user_id, region
 * ViewKeys.visibleKey(engine, v);   // [USER_ID, REGION]
 * }</pre>
 *
 * <p>In UPDATE and COMPLETE mode the view holds one row per group of its aggregation, so the
 * group key is unique; but it is a key of the view only if the view shows every key column as
 * it is. {@code SELECT UPPER(k), COUNT(*) ... GROUP BY k} shows no key column, and
 * {@code SELECT a, COUNT(*) ... GROUP BY a, b} only part of one, which is not unique: neither has
 * a key. A view that appends (APPEND mode, or no aggregation) has none either.
 *
 * <p>The key is read from the plan of the view's query (its {@link StateStoreSave}'s keys, as
 * {@link UpsertKeys} reads them to upsert), planned again from the view's statement: planning
 * runs nothing, and the view's stream cannot change while the view exists.
 */
final class ViewKeys {
  private ViewKeys() {
  }

  /** The view's key column names in the order of the group key; empty if it has no key. */
  static List<String> visibleKey(Engine engine, ViewTable view) {
    if (view.outputMode() == OutputMode.APPEND) {
      return List.of();
    }
    PlannedQuery plan;
    try {
      plan = plan(engine, view);
    } catch (SQLException e) {
      // The query was planned when the view was created; a view whose query no longer plans
      // (which would be a bug) is reported without key rather than failing a catalog browser.
      return List.of();
    }
    int[] shown = columnsOfKey(plan);
    if (shown.length == 0) {
      return List.of();
    }
    List<String> names = view.getRowType(engine.planner().typeFactory()).getFieldNames();
    List<String> key = new ArrayList<>();
    for (int column : shown) {
      if (column < 0) {
        return List.of();
      }
      key.add(names.get(column));
    }
    return key;
  }

  /**
   * For each column of the group key of {@code plan}, an aggregating query, in the order of the
   * key: the view column that shows it as it is, or -1 if none does; an empty array if the plan
   * is not one whose columns this can follow.
   *
   * <pre>{@code
   * // SELECT n % 10 AS k, COUNT(*) AS c FROM nums GROUP BY n % 10
   * ViewKeys.columnsOfKey(plan);   // [0]
   * }</pre>
   */
  static int[] columnsOfKey(PlannedQuery plan) {
    if (!plan.aggregating()) {
      return new int[0];
    }
    int @Nullable [] origins = keyOrigins(plan.physical());
    StateStoreSave save = save(plan.physical());
    if (origins == null || save == null) {
      return new int[0];
    }
    int[] shown = new int[save.keys().cardinality()];
    for (int k = 0; k < shown.length; k++) {
      shown[k] = indexOf(origins, k);
    }
    return shown;
  }

  private static PlannedQuery plan(Engine engine, ViewTable view) throws SQLException {
    SqlNode query = ((SqlCreateMaterializedView) Session.parse(view.sql())).query;
    EmitMode emit = null;
    if (query instanceof SqlEmit) {
      emit = ((SqlEmit) query).mode();
      query = ((SqlEmit) query).query();
    }
    try {
      // The view was accepted when it was created: its windows are not counted again.
      return engine.planner().planQuery(query, emit, 1, Integer.MAX_VALUE);
    } catch (PlanningException e) {
      throw Errors.toSqlException(e);
    }
  }

  private static int indexOf(int[] origins, int key) {
    for (int i = 0; i < origins.length; i++) {
      if (origins[i] == key) {
        return i;
      }
    }
    return -1;
  }

  private static @Nullable StateStoreSave save(RelNode rel) {
    if (rel instanceof StateStoreSave) {
      return (StateStoreSave) rel;
    }
    return rel.getInputs().size() == 1 ? save(rel.getInput(0)) : null;
  }

  /**
   * For each column of {@code rel}, which key column of the aggregation it is (0 for the first
   * key column, ...), or -1 if it is anything else; null if {@code rel} has, above the
   * aggregation, an operator whose columns this does not follow.
   */
  private static int @Nullable [] keyOrigins(RelNode rel) {
    if (rel instanceof StateStoreSave) {
      // The save outputs its input's columns, so its key columns are positions in its rows.
      List<Integer> keys = ((StateStoreSave) rel).keys().asList();
      int[] origins = new int[rel.getRowType().getFieldCount()];
      for (int i = 0; i < origins.length; i++) {
        origins[i] = keys.indexOf(i);
      }
      return origins;
    }
    if (rel instanceof Sort) {
      // ORDER BY and LIMIT (allowed in COMPLETE mode) keep the columns as they are.
      return keyOrigins(((Sort) rel).getInput());
    }
    if (!(rel instanceof Calc)) {
      return null;
    }
    int @Nullable [] input = keyOrigins(((Calc) rel).getInput());
    if (input == null) {
      return null;
    }
    RexProgram program = ((Calc) rel).getProgram();
    List<RexNode> projects = program.expandList(program.getProjectList());
    int[] origins = new int[projects.size()];
    Arrays.fill(origins, -1);
    for (int i = 0; i < origins.length; i++) {
      if (projects.get(i) instanceof RexInputRef) {
        origins[i] = input[((RexInputRef) projects.get(i)).getIndex()];
      }
    }
    return origins;
  }
}
