package dev.freshet.planner.logical;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.common.types.SqlType;
import dev.freshet.executor.source.ReferenceData;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class LogicalPlanTest {
  /** An external table's rows; never read here. */
  private static final ReferenceData NO_ROWS = new ReferenceData() {
    @Override public String description() {
      return "no rows";
    }

    @Override public void scan(Consumer<Object[]> rows) {
    }
  };

  @Test void shouldHideATableScansSecretsWhenPrinted() {
    LogicalPlan.TableScan scan = new LogicalPlan.TableScan("USERS",
        Map.of("connector", "jdbc",
            "url", "jdbc:postgresql://db:5432/app?user=app&password=s3cret-url",
            "password", "s3cret-option"),
        NO_ROWS,
        List.of(new LogicalField("ID", new LogicalType(SqlType.INTEGER, 10, 0, false, "INTEGER"))));

    assertEquals("TableScan[table=USERS, options={connector=jdbc, password=***,"
        + " url=jdbc:postgresql://db:5432/app?user=app&password=***}, columns=["
        + scan.columns().get(0) + "]]", scan.toString());
  }
}
