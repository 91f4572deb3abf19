package dev.freshet.engine.query;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableInterpreter;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.interpreter.Bindables;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.tree.Blocks;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgramBuilder;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.schema.ProjectableFilterableTable;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A scan of a {@link ProjectableFilterableTable} (a view) that hands the table its filters, run
 * as generated code. Calcite plans such a scan as {@code EnumerableInterpreter} over a
 * {@code BindableTableScan}, and its interpreter compiles the filters the table leaves to it
 * with Janino at every execution (milliseconds): here the filters go to the table as they do
 * there, and an {@link EnumerableCalc} on top, compiled once with the query, applies them again
 * (a table may return more rows than pass, never fewer) and projects.
 *
 * <pre>{@code
 * // EnumerableInterpreter(BindableTableScan(table=[[FRESHET, V]], filters=[[=($0, ?0)]],
 * //     projects=[[1]]))  becomes
 * // EnumerableCalc(expr: $1, condition: =($0, ?0))
 * //   CompiledFilterScan(table=[[FRESHET, V]], filters=[[=($0, ?0)]])
 * EnumerableRel best = CompiledFilterScan.replaceInterpreters(best);
 * }</pre>
 */
public final class CompiledFilterScan extends TableScan implements EnumerableRel {
  private final List<RexNode> filters;

  private CompiledFilterScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table,
      List<RexNode> filters) {
    super(cluster, traits, List.of(), table);
    this.filters = List.copyOf(filters);
  }

  /**
   * {@code rel} with each interpreted scan of a filterable table replaced by generated code;
   * other interpreted plans are left as they are.
   */
  public static EnumerableRel replaceInterpreters(EnumerableRel rel) {
    return (EnumerableRel) replace(rel);
  }

  private static RelNode replace(RelNode rel) {
    if (rel instanceof EnumerableInterpreter interpreter
        && interpreter.getInput() instanceof Bindables.BindableTableScan scan) {
      RelNode replaced = replaceScan(scan);
      if (replaced != null) {
        return replaced;
      }
    }
    List<RelNode> inputs = rel.getInputs();
    List<RelNode> replaced = new ArrayList<>(inputs.size());
    boolean changed = false;
    for (RelNode input : inputs) {
      RelNode r = replace(input);
      changed |= r != input;
      replaced.add(r);
    }
    return changed ? rel.copy(rel.getTraitSet(), replaced) : rel;
  }

  private static @Nullable RelNode replaceScan(Bindables.BindableTableScan scan) {
    ProjectableFilterableTable table = scan.getTable().unwrap(ProjectableFilterableTable.class);
    if (table == null) {
      return null;
    }
    RelOptCluster cluster = scan.getCluster();
    CompiledFilterScan compiled = new CompiledFilterScan(cluster,
        cluster.traitSetOf(EnumerableConvention.INSTANCE), scan.getTable(), scan.filters);
    RexBuilder rexBuilder = cluster.getRexBuilder();
    RexProgramBuilder program = new RexProgramBuilder(compiled.getRowType(), rexBuilder);
    if (!scan.filters.isEmpty()) {
      program.addCondition(RexUtil.composeConjunction(rexBuilder, scan.filters));
    }
    List<String> names = scan.getRowType().getFieldNames();
    for (int i = 0; i < scan.projects.size(); i++) {
      program.addProject(scan.projects.get(i), names.get(i));
    }
    return EnumerableCalc.create(compiled, program.getProgram());
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return this;
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw).item("filters", filters);
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    // Every column, as arrays: the Calc on top reads them by position.
    PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        JavaRowFormat.ARRAY, false);
    Expression table = implementor.stash(
        getTable().unwrap(ProjectableFilterableTable.class), ProjectableFilterableTable.class);
    Expression filterList = implementor.stash(filters, List.class);
    Expression rows = Expressions.call(CompiledFilterScan.class, "scan",
        implementor.getRootExpression(), table, filterList);
    return implementor.result(physType, Blocks.toBlock(rows));
  }

  /**
   * The rows of {@code table} that may pass {@code filters}; called by generated code. The
   * table gets a list of its own to take the filters it applies from.
   */
  public static Enumerable<Object[]> scan(DataContext root, ProjectableFilterableTable table,
      List<RexNode> filters) {
    return table.scan(root, new ArrayList<>(filters), null);
  }
}
