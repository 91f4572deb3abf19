package dev.freshet.engine.push;

import dev.freshet.engine.errors.Errors;
import dev.freshet.planner.PlannedQuery;
import dev.freshet.planner.rel.SessionAggregate;
import dev.freshet.planner.rel.StateStoreSave;
import dev.freshet.planner.rel.StreamTopN;
import java.sql.SQLException;
import dev.freshet.executor.operators.OutputMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexProgramBuilder;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.Pair;

/**
 * Makes an aggregating query's rows carry their group key, so that a materialized view in UPDATE
 * mode can upsert them.
 *
 * <pre>{@code
 * SELECT UPPER(user_id) AS u, COUNT(*) AS n FROM clicks GROUP BY user_id
 * // rows become (u, n, user_id): the view shows (u, n) and upserts by user_id
 * UpsertKeys.Keyed keyed = UpsertKeys.appendKeyColumns(plan, "V");  // keyColumns() = [2]
 * }</pre>
 *
 * <p>A top-N ({@link StreamTopN}) is keyed alike by its group columns and its rank.
 *
 * <p>The key is the {@link StateStoreSave}'s: it is what the state store groups by, so two rows of
 * different batches are the same group exactly when their keys are equal. The select list cannot
 * stand in for it: it may leave out a grouping column, compute over one ({@code UPPER(k)}, a
 * window's end), or show it twice. So, rather than trace output columns back to the key, each
 * {@link Calc} above the save is rewritten to output the key columns of its input after its own
 * columns, and the view's sink drops them after extracting the key. Rows a HAVING condition
 * rejects stay rejected: the condition is kept as it is.
 */
public final class UpsertKeys {
  /**
   * A query whose rows end with the group key, then the aggregation's new-key flag.
   *
   * @param plan the query with its physical plan rewritten
   * @param keyColumns positions of the key columns in its rows, after the visible columns
   * @param newKeyColumn position of the {@link StateStoreSave#NEW_KEY_FLAG} column, after them
   */
  public record Keyed(PlannedQuery plan, int[] keyColumns, int newKeyColumn) {
  }

  /**
   * A push query whose rows end with hidden columns: the group key, then (UPDATE mode) whether the
   * key is new.
   *
   * @param plan the query with its physical plan rewritten
   * @param keyColumns positions of the key columns in its rows, after the visible columns
   * @param newKeyColumn position of the {@link StateStoreSave#NEW_KEY_FLAG} column, or -1
   */
  public record Hidden(PlannedQuery plan, int[] keyColumns, int newKeyColumn) {
  }

  /** A rewritten plan and the positions of its hidden columns (keys, then maybe the flag). */
  private record KeyedRel(RelNode rel, int[] keyColumns) {
  }

  /** Makes the error for a plan with {@code rel} above the aggregation. */
  private interface Unsupported {
    SQLException at(RelNode rel);
  }

  private UpsertKeys() {
  }

  /**
   * Rewrites {@code plan}, an aggregation in UPDATE mode, so that its rows end with the group key
   * of its aggregation and then its new-key flag: how a push query coalesces a group's unread
   * rows and tells a new group's row without looking for it. UPDATE views store this plan too
   * (they read their state, so these columns are computed and dropped): restarts of views made
   * by earlier releases run the plan they stored.
   *
   * <pre>{@code
   * // SELECT k, COUNT(*) AS n ... : rows (k, n, KEY$0, $NEW_KEY)
   * UpsertKeys.Keyed keyed = UpsertKeys.appendKeyColumns(plan, "V");
   * keyed.keyColumns();    // [2]
   * keyed.newKeyColumn();  // 3
   * }</pre>
   *
   * @throws SQLException if the plan has, above the aggregation, something other than calcs
   */
  public static Keyed appendKeyColumns(PlannedQuery plan, String viewName) throws SQLException {
    KeyedRel keyed = keyed(plan.physical(), true, false, rel -> Errors.notSupported(
        "Materialized view " + viewName + " cannot be maintained"
        + " in UPDATE mode: its plan has " + rel.getRelTypeName() + " above the aggregation,"
        + " so its rows cannot be matched to their groups. Use EMIT COMPLETE"));
    int[] hidden = keyed.keyColumns();
    return new Keyed(plan.withPhysical(keyed.rel()), Arrays.copyOf(hidden, hidden.length - 1),
        hidden[hidden.length - 1]);
  }

  /**
   * Rewrites an aggregating push query in UPDATE or COMPLETE mode so that its rows end with the
   * group key and, in UPDATE mode, the aggregation's new-key flag: what its {@link PushQuery}
   * needs to coalesce unread rows per key and to give each row its kind. A sort (COMPLETE mode's
   * ORDER BY and LIMIT) passes the hidden columns through as it does every column.
   *
   * <pre>{@code
   * UpsertKeys.Hidden hidden = UpsertKeys.appendPushColumns(plan);
   * // SELECT k, COUNT(*) AS n ... EMIT UPDATE: rows (k, n, KEY$0, $NEW_KEY), keyColumns() = [2]
   * }</pre>
   *
   * @throws SQLException if the plan has, above the aggregation, something other than calcs and
   *     sorts
   */
  public static Hidden appendPushColumns(PlannedQuery plan) throws SQLException {
    boolean update = plan.outputMode() == OutputMode.UPDATE;
    KeyedRel keyed = keyed(plan.physical(), update, true, rel -> Errors.notSupported(
        "A push query in " + plan.outputMode().name() + " mode cannot have "
        + rel.getRelTypeName() + " above its aggregation: its rows could not be matched to"
        + " their groups. Use EMIT APPEND, or aggregate last"));
    int[] hidden = keyed.keyColumns();
    int[] keys = update ? Arrays.copyOf(hidden, hidden.length - 1) : hidden;
    return new Hidden(plan.withPhysical(keyed.rel()), keys, update ? hidden[hidden.length - 1] : -1);
  }

  private static KeyedRel keyed(RelNode rel, boolean newKeyFlag, boolean sorts,
      Unsupported unsupported) throws SQLException {
    if (rel instanceof StateStoreSave) {
      // The save outputs its input's columns, so its key columns are positions in its rows.
      StateStoreSave save = (StateStoreSave) rel;
      int[] keys = save.keys().toArray();
      if (!newKeyFlag) {
        return new KeyedRel(rel, keys);
      }
      int[] hidden = Arrays.copyOf(keys, keys.length + 1);
      hidden[keys.length] = save.getRowType().getFieldCount();
      return new KeyedRel(save.withNewKeyFlag(), hidden);
    }
    if (rel instanceof SessionAggregate session && !newKeyFlag) {
      // A session's key is all its grouping columns, its bounds too (COMPLETE mode only).
      return new KeyedRel(rel, ImmutableBitSet.range(session.groupSet().cardinality())
          .toArray());
    }
    if (rel instanceof StreamTopN topN) {
      // A top-N is an upsert keyed by its group and rank, which follows the input's columns.
      int[] keys = new int[topN.keys().size() + 1];
      for (int i = 0; i < topN.keys().size(); i++) {
        keys[i] = topN.keys().get(i);
      }
      keys[keys.length - 1] = topN.rankColumn();
      if (!newKeyFlag) {
        return new KeyedRel(rel, keys);
      }
      int[] hidden = Arrays.copyOf(keys, keys.length + 1);
      hidden[keys.length] = topN.rankColumn() + 1;
      return new KeyedRel(topN.withNewKeyFlag(), hidden);
    }
    if (sorts && rel instanceof Sort) {
      // A sort keeps its input's columns, the hidden ones too, at the same positions.
      Sort sort = (Sort) rel;
      KeyedRel input = keyed(sort.getInput(), newKeyFlag, sorts, unsupported);
      return new KeyedRel(sort.copy(sort.getTraitSet(), input.rel(), sort.getCollation(),
          sort.offset, sort.fetch), input.keyColumns());
    }
    if (!(rel instanceof Calc)) {
      throw unsupported.at(rel);
    }
    Calc calc = (Calc) rel;
    KeyedRel input = keyed(calc.getInput(), newKeyFlag, sorts, unsupported);
    RexProgram program = calc.getProgram();
    RexBuilder rexBuilder = calc.getCluster().getRexBuilder();
    // The rewritten input has the old input's columns first, so the old expressions stay valid.
    RexProgramBuilder builder = new RexProgramBuilder(input.rel().getRowType(), rexBuilder);
    List<String> names = new ArrayList<>();
    for (Pair<RexLocalRef, String> project : program.getNamedProjects()) {
      builder.addProject(program.expandLocalRef(project.left), project.right);
      names.add(project.right);
    }
    RexLocalRef condition = program.getCondition();
    if (condition != null) {
      builder.addCondition(program.expandLocalRef(condition));
    }
    int[] keyColumns = new int[input.keyColumns().length];
    for (int i = 0; i < keyColumns.length; i++) {
      names.add("KEY$" + i);
      String name = SqlValidatorUtil.uniquify(names, SqlValidatorUtil.EXPR_SUGGESTER, true)
          .get(names.size() - 1);
      names.set(names.size() - 1, name);
      builder.addProject(rexBuilder.makeInputRef(input.rel(), input.keyColumns()[i]), name);
      keyColumns[i] = program.getProjectList().size() + i;
    }
    return new KeyedRel(calc.copy(calc.getTraitSet(), input.rel(), builder.getProgram()),
        keyColumns);
  }
}
