package dev.freshet.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.common.errors.SqlState;
import dev.freshet.executor.source.MemoryStream;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.errors.PlanningException;
import dev.freshet.sql.FreshetSqlParser;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.rel.type.RelDataTypeImpl;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/**
 * The SQLSTATE of a validation error comes from the Calcite message resource the validator made
 * it of, and travels in the planner's {@link PlanningException}.
 */
class FreshetValidatorTest {
  private final Catalog catalog = new Catalog();
  private final FreshetPlanner planner = new FreshetPlanner(catalog);

  FreshetValidatorTest() {
    catalog.addStream(new StreamTable("S", RelDataTypeImpl.proto(planner.typeFactory().builder()
        .add("K", SqlTypeName.VARCHAR).nullable(false)
        .add("V", SqlTypeName.INTEGER).nullable(true)
        .build()), Optional.empty(), Map.of("connector", "memory"), new MemoryStream("S", 2)));
  }

  private PlanningException planningFails(String sql) {
    return assertThrows(PlanningException.class,
        () -> planner.planQuery(FreshetSqlParser.parse(sql), null, 1), sql);
  }

  @Test void shouldReportAnUnknownStreamAsObjectNotFound() {
    PlanningException e = planningFails("SELECT STREAM k FROM nope");
    assertEquals(SqlState.OBJECT_NOT_FOUND, e.state());
    assertTrue(e.getMessage().contains("Object 'NOPE' not found. See SHOW STREAMS"),
        e.getMessage());
    assertTrue(e.getCause() instanceof CalciteContextException, String.valueOf(e.getCause()));
  }

  @Test void shouldReportAnUnknownColumnAsColumnNotFound() {
    PlanningException e = planningFails("SELECT STREAM w FROM s");
    assertEquals(SqlState.COLUMN_NOT_FOUND, e.state());
    assertTrue(e.getMessage().endsWith("Column 'W' not found in any table. DESCRIBE the stream"
        + " to see its columns"), e.getMessage());
  }

  @Test void shouldReportAColumnOfTwoInputsAsAmbiguous() {
    PlanningException e = planningFails("SELECT STREAM k FROM s a JOIN s b ON a.v = b.v");
    assertEquals(SqlState.AMBIGUOUS_COLUMN, e.state());
    assertTrue(e.getMessage().endsWith("Column 'K' is ambiguous"), e.getMessage());
  }

  @Test void shouldReportAnInsertWithoutANotNullColumnAsNotNullViolation() throws Exception {
    SqlInsert insert = (SqlInsert) FreshetSqlParser.parse("INSERT INTO s (v) VALUES (1)");
    PlanningException e = assertThrows(PlanningException.class, () -> planner.planInsert(insert));
    assertEquals(SqlState.NOT_NULL_VIOLATION, e.state());
    assertTrue(e.getMessage().endsWith("Column 'K' has no default value and does not allow"
        + " NULLs"), e.getMessage());
  }

  @Test void shouldReportAnUnknownFunctionAsUndefinedFunctionNamingIt() {
    PlanningException e = planningFails("SELECT STREAM FILE_READ(k, NULL) FROM s");
    assertEquals(SqlState.UNDEFINED_FUNCTION, e.state());
    assertTrue(e.getMessage().endsWith("No match found for function signature"
        + " FILE_READ(<CHARACTER>, <NULL>). FILE_READ is not one of Freshet's functions, which"
        + " docs/sql.md lists (Functions): use one of them, or compute the value in the client"),
        e.getMessage());
  }

  @Test void shouldReportAnInsertIntoAnUnknownColumnAsColumnNotFound() throws Exception {
    SqlInsert insert = (SqlInsert) FreshetSqlParser.parse("INSERT INTO s (k, w) VALUES ('a', 1)");
    PlanningException e = assertThrows(PlanningException.class, () -> planner.planInsert(insert));
    assertEquals(SqlState.COLUMN_NOT_FOUND, e.state());
  }

  @Test void shouldReportOtherValidationErrorsAsSyntaxErrors() {
    PlanningException e = planningFails("SELECT STREAM k + TRUE FROM s");
    assertEquals(SqlState.SYNTAX_ERROR, e.state());
  }
}
