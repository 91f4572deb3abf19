package dev.freshet.engine.query;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.errors.StreamErrors;
import dev.freshet.executor.source.MemoryStream;
import dev.freshet.executor.source.StreamLogException;
import dev.freshet.executor.source.StreamMemoryFullException;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.catalog.StreamTable;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.DataContexts;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.adapter.enumerable.RexToLixTranslator;
import org.apache.calcite.linq4j.tree.ConstantExpression;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexExecutorImpl;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;

/**
 * Executes {@code INSERT INTO stream VALUES (...), (...)}: all rows of the statement become one
 * offset of the stream, visible to continuous queries together.
 */
public final class InsertExecutor {
  private InsertExecutor() {
  }

  /** Appends the statement's rows to its stream and returns how many there were. */
  public static long insert(FreshetPlanner planner, SqlInsert insert) throws SQLException {
    Rows rows = evaluate(planner, insert);
    try {
      rows.target().addData(rows.rows());
    } catch (StreamLogException e) {
      // Not written: the INSERT fails, and the stream is as it was.
      throw StreamErrors.streamLogError(e);
    } catch (StreamMemoryFullException e) {
      throw StreamErrors.streamMemoryFull(e);
    }
    return rows.rows().size();
  }

  /**
   * The rows an INSERT statement gives and the stream they go to, evaluated and checked but not
   * appended: a transaction holds them until it commits ({@link PendingInserts}).
   *
   * @param stream the stream's name in the catalog
   * @param target the stream's rows, which the rows are appended to
   * @param rows the rows, in the stream's column order and internal representation
   */
  public record Rows(String stream, MemoryStream target, List<Object[]> rows) {
  }

  /** Evaluates the statement's rows for its stream, without appending them. */
  public static Rows evaluate(FreshetPlanner planner, SqlInsert insert) throws SQLException {
    StreamTable stream = Errors.fromPlanner(
        () -> planner.stream((SqlIdentifier) insert.getTargetTable()));
    // Checked first: a stream that generates its rows has nowhere to put them.
    MemoryStream target = stream.memoryStream().orElseThrow(() ->
        StreamErrors.streamNotInsertable(stream.name(), stream.connector()));
    Optional<List<Object[]>> literal =
        LiteralValues.rows(insert, stream.getRowType(planner.typeFactory()));
    if (literal.isPresent()) {
      return new Rows(stream.name(), target, literal.get());
    }
    return new Rows(stream.name(), target, planned(planner, insert, stream));
  }

  /**
   * The statement's rows as Calcite validates, converts and reduces them: the one path for
   * any INSERT outside {@link LiteralValues}' shape.
   */
  static List<Object[]> planned(FreshetPlanner planner, SqlInsert insert, StreamTable stream)
      throws SQLException {
    RelNode plan = Errors.fromPlanner(() -> planner.planInsert(insert));
    if (!(plan instanceof TableModify)) {
      throw Errors.notSupported("Cannot plan " + insert);
    }
    return evaluate(planner, ((TableModify) plan).getInput(), stream);
  }

  /** Evaluates {@code VALUES}, with the casts to the stream's column types above it. */
  private static List<Object[]> evaluate(FreshetPlanner planner, RelNode input,
      StreamTable stream) throws SQLException {
    RexBuilder rexBuilder = input.getCluster().getRexBuilder();
    List<List<RexNode>> tuples = new ArrayList<>();
    collectTuples(input, stream, tuples);

    // Constant expressions that are not literals (casts Calcite did not fold, functions) are
    // reduced together, so a statement compiles at most one piece of code.
    List<RexNode> pending = new ArrayList<>();
    for (List<RexNode> tuple : tuples) {
      for (RexNode e : tuple) {
        if (!(fold(rexBuilder, e) instanceof RexLiteral)) {
          pending.add(e);
        }
      }
    }
    List<RexNode> reduced = new ArrayList<>();
    if (!pending.isEmpty()) {
      new RexExecutorImpl(DataContexts.EMPTY).reduce(rexBuilder, pending, reduced);
    }
    // The stream's own columns: a value cast to a column's type (CAST(NULL AS INT)) is typed
    // nullable whatever the column says.
    var fields = stream.getRowType(planner.typeFactory()).getFieldList();
    List<Object[]> rows = new ArrayList<>(tuples.size());
    int next = 0;
    for (List<RexNode> tuple : tuples) {
      Object[] row = new Object[tuple.size()];
      for (int i = 0; i < row.length; i++) {
        RexNode e = fold(rexBuilder, tuple.get(i));
        if (!(e instanceof RexLiteral)) {
          e = fold(rexBuilder, reduced.get(next++));
        }
        if (!(e instanceof RexLiteral)) {
          throw Errors.of(SqlState.DATA_EXCEPTION, "Cannot evaluate " + tuple.get(i)
              + " for column " + fields.get(i).getName() + " of stream " + stream.name()
              + ". INSERT accepts constant expressions only");
        }
        row[i] = internalValue(planner, (RexLiteral) e);
        if (row[i] == null && !fields.get(i).getType().isNullable()) {
          throw Errors.of(SqlState.NOT_NULL_VIOLATION, "Column " + fields.get(i).getName()
              + " of stream " + stream.name() + " is NOT NULL, but a row gives it no value");
        }
      }
      rows.add(row);
    }
    return rows;
  }

  /**
   * Collects the expressions of each row of a VALUES plan: {@code Values}, {@code Project}s over
   * it (with the tuple's literals in place of input references) and {@code Union}s of those.
   */
  private static void collectTuples(RelNode rel, StreamTable stream, List<List<RexNode>> tuples)
      throws SQLException {
    if (rel instanceof Values) {
      for (List<RexLiteral> tuple : ((Values) rel).getTuples()) {
        tuples.add(new ArrayList<>(tuple));
      }
    } else if (rel instanceof Union && ((Union) rel).all) {
      for (RelNode input : rel.getInputs()) {
        collectTuples(input, stream, tuples);
      }
    } else if (rel instanceof Project) {
      Project project = (Project) rel;
      List<List<RexNode>> inputs = new ArrayList<>();
      collectTuples(project.getInput(), stream, inputs);
      for (List<RexNode> input : inputs) {
        RexShuttle substitute = new RexShuttle() {
          @Override public RexNode visitInputRef(RexInputRef ref) {
            return input.get(ref.getIndex());
          }
        };
        tuples.add(substitute.apply(project.getProjects()));
      }
    } else {
      throw Errors.notSupported("INSERT INTO " + stream.name() + " supports VALUES only;"
          + " INSERT ... SELECT is not supported yet");
    }
  }

  /**
   * {@code e} with a cast of a literal folded into a literal where Calcite can. A cast that only
   * makes a literal nullable, which is how Calcite types a literal for a nullable column, is
   * dropped: the value is the same.
   */
  private static RexNode fold(RexBuilder rexBuilder, RexNode e) {
    if (e.getKind() != SqlKind.CAST
        || !(((RexCall) e).getOperands().get(0) instanceof RexLiteral)) {
      return e;
    }
    RexLiteral literal = (RexLiteral) ((RexCall) e).getOperands().get(0);
    if (SqlTypeUtil.equalSansNullability(rexBuilder.getTypeFactory(), literal.getType(),
        e.getType())) {
      return literal;
    }
    RexNode folded = rexBuilder.makeCast(e.getType(), literal, true, false);
    if (folded instanceof RexLiteral) {
      return folded;
    }
    return folded.getKind() == SqlKind.CAST && folded != e ? fold(rexBuilder, folded) : e;
  }

  /** A literal in Calcite's internal representation, e.g. a TIMESTAMP as {@code Long}. */
  private static Object internalValue(FreshetPlanner planner, RexLiteral literal) {
    if (literal.getType().getSqlTypeName() == SqlTypeName.DECIMAL) {
      // Calcite translates a decimal literal to code that constructs it, not to a constant.
      return literal.getValueAs(BigDecimal.class);
    }
    Expression e = RexToLixTranslator.translateLiteral(literal, literal.getType(),
        planner.typeFactory(), RexImpTable.NullAs.NULL);
    if (e instanceof ConstantExpression) {
      return ((ConstantExpression) e).value;
    }
    throw new IllegalArgumentException("cannot evaluate literal " + literal);
  }
}
