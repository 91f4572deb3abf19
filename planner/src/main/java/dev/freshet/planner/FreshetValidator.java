package dev.freshet.planner;

import static org.apache.calcite.util.Static.RESOURCE;

import dev.freshet.planner.errors.SqlState;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.runtime.Resources;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.validate.SqlValidatorCatalogReader;
import org.apache.calcite.sql.validate.SqlValidatorException;
import org.apache.calcite.sql.validate.SqlValidatorImpl;

/**
 * Calcite's validator that also knows the SQLSTATE of each error it makes, from the Calcite
 * message resource the error is made of: an unknown stream is {@code 42S02}, an unknown column
 * {@code 42S22}, anything else {@code 42000}. Calcite's exceptions carry no code of their own,
 * and their text is Calcite's to change.
 *
 * <pre>{@code
 * FreshetValidator validator = new FreshetValidator(catalogReader, typeFactory, config);
 * try {
 *   validator.validate(query);
 * } catch (CalciteContextException e) {
 *   SqlState state = validator.state(e);   // e.g. SqlState.COLUMN_NOT_FOUND
 * }
 * }</pre>
 *
 * <p>Like Calcite's, one validator serves one query.
 */
public final class FreshetValidator extends SqlValidatorImpl {
  /** The states of the errors that are not plain syntax errors, by their resource's pattern. */
  private static final Map<String, SqlState> STATES = states();

  /** The state of each error this validator made; Calcite makes some that it then catches. */
  private final Map<CalciteContextException, SqlState> made = new IdentityHashMap<>();

  /** A validator with the standard operators, as {@code SqlValidatorUtil.newValidator}. */
  public FreshetValidator(SqlValidatorCatalogReader catalogReader, RelDataTypeFactory typeFactory,
      Config config) {
    super(SqlStdOperatorTable.instance(), catalogReader, typeFactory, config);
  }

  @Override public CalciteContextException newValidationError(SqlNode node,
      Resources.ExInst<SqlValidatorException> e) {
    CalciteContextException error = super.newValidationError(node, e);
    made.put(error, STATES.getOrDefault(e.raw(), SqlState.SYNTAX_ERROR));
    return error;
  }

  /**
   * The SQLSTATE of a validation error: the one recorded when this validator made {@code e}, else
   * {@link SqlState#SYNTAX_ERROR} (Calcite makes a few errors without the validator).
   */
  public SqlState state(CalciteContextException e) {
    return made.getOrDefault(e, SqlState.SYNTAX_ERROR);
  }

  private static Map<String, SqlState> states() {
    Map<String, SqlState> states = new HashMap<>();
    for (Resources.Inst notFound : List.of(RESOURCE.objectNotFound(""),
        RESOURCE.objectNotFoundWithin("", ""), RESOURCE.objectNotFoundDidYouMean("", ""),
        RESOURCE.objectNotFoundWithinDidYouMean("", "", ""), RESOURCE.tableNameNotFound(""),
        RESOURCE.tableNameNotFoundDidYouMean("", ""))) {
      states.put(notFound.raw(), SqlState.OBJECT_NOT_FOUND);
    }
    for (Resources.Inst notFound : List.of(RESOURCE.columnNotFound(""),
        RESOURCE.columnNotFoundDidYouMean("", ""), RESOURCE.columnNotFoundInTable("", ""),
        RESOURCE.columnNotFoundInTableDidYouMean("", "", ""))) {
      states.put(notFound.raw(), SqlState.COLUMN_NOT_FOUND);
    }
    states.put(RESOURCE.columnAmbiguous("").raw(), SqlState.AMBIGUOUS_COLUMN);
    states.put(RESOURCE.columnNotNullable("").raw(), SqlState.NOT_NULL_VIOLATION);
    return Map.copyOf(states);
  }
}
