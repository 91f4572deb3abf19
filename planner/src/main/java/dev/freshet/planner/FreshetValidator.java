package dev.freshet.planner;

import static org.apache.calcite.util.Static.RESOURCE;

import dev.freshet.common.errors.SqlState;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.runtime.Resources;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.validate.SqlValidatorCatalogReader;
import org.apache.calcite.sql.validate.SqlValidatorException;
import org.apache.calcite.sql.validate.SqlValidatorImpl;

/**
 * Calcite's validator that also knows the SQLSTATE of each error it makes, from the Calcite
 * message resource the error is made of: an unknown stream is {@code 42S02}, an unknown column
 * {@code 42S22}, an unknown function {@code 42883}, anything else {@code 42000}. Calcite's
 * exceptions carry no code of their own, and their text is Calcite's to change.
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
  /** The function each unknown-function error names, as the statement wrote it. */
  private final Map<CalciteContextException, String> unknownFunctions = new IdentityHashMap<>();

  /** A validator with the standard operators, as {@code SqlValidatorUtil.newValidator}. */
  public FreshetValidator(SqlValidatorCatalogReader catalogReader, RelDataTypeFactory typeFactory,
      Config config) {
    super(SqlStdOperatorTable.instance(), catalogReader, typeFactory, config);
  }

  /**
   * A validator of Freshet's SQL over {@code catalogReader}: identifiers expanded, Freshet's
   * conformance, as plain queries and table DML are validated.
   */
  public static FreshetValidator of(SqlValidatorCatalogReader catalogReader,
      RelDataTypeFactory typeFactory) {
    return new FreshetValidator(catalogReader, typeFactory, Config.DEFAULT
        .withIdentifierExpansion(true)
        .withConformance(dev.freshet.sql.parser.FreshetConformance.INSTANCE));
  }

  @Override public CalciteContextException newValidationError(SqlNode node,
      Resources.ExInst<SqlValidatorException> e) {
    CalciteContextException error = super.newValidationError(node, e);
    SqlState state = STATES.getOrDefault(e.raw(), SqlState.SYNTAX_ERROR);
    made.put(error, state);
    if (state == SqlState.UNDEFINED_FUNCTION && node instanceof SqlCall call) {
      unknownFunctions.put(error, call.getOperator().getName());
    }
    return error;
  }

  /**
   * The SQLSTATE of a validation error: the one recorded when this validator made {@code e}, else
   * {@link SqlState#SYNTAX_ERROR} (Calcite makes a few errors without the validator).
   */
  public SqlState state(CalciteContextException e) {
    return made.getOrDefault(e, SqlState.SYNTAX_ERROR);
  }

  /**
   * What to add to the message of a validation error to say how to fix it, or an empty string:
   * for an unknown function, that Freshet's functions are listed in docs/sql.md.
   *
   * <pre>{@code
   * validator.hint(e);   // ". FILE_READ is not one of Freshet's functions, which docs/sql.md ..."
   * }</pre>
   */
  public String hint(CalciteContextException e) {
    String function = unknownFunctions.get(e);
    return function == null ? "" : ". " + function + " is not one of Freshet's functions, which"
        + " docs/sql.md lists (Functions): use one of them, or compute the value in the client";
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
        RESOURCE.columnNotFoundInTableDidYouMean("", "", ""), RESOURCE.unknownTargetColumn(""))) {
      states.put(notFound.raw(), SqlState.COLUMN_NOT_FOUND);
    }
    states.put(RESOURCE.columnAmbiguous("").raw(), SqlState.AMBIGUOUS_COLUMN);
    states.put(RESOURCE.columnNotNullable("").raw(), SqlState.NOT_NULL_VIOLATION);
    states.put(RESOURCE.validatorUnknownFunction("").raw(), SqlState.UNDEFINED_FUNCTION);
    return Map.copyOf(states);
  }
}
