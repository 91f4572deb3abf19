package dev.freshet.planner.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.executor.operators.OutputMode;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataTypeImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/** How views and streams share the catalog's names. */
class ViewTableTest {
  private static ViewTable view(String name) {
    JavaTypeFactoryImpl types = new JavaTypeFactoryImpl();
    return new ViewTable(name, RelDataTypeImpl.proto(types.builder()
        .add("N", SqlTypeName.BIGINT).build()), OutputMode.COMPLETE, "q", "sql", List.of("S"),
        new ViewResult() {
          @Override public long batchId() {
            return -1;
          }

          @Override public Enumerable<Object[]> scan(DataContext root) {
            return Linq4j.emptyEnumerable();
          }
        });
  }

  @Test void shouldKeepOneNamespaceForStreamsAndViews() {
    Catalog catalog = new Catalog();
    assertEquals(true, catalog.addView(view("V")));
    assertEquals(false, catalog.addView(view("V")));
    assertEquals(false, catalog.dropStream("V"));
    assertEquals(true, catalog.view("V").isPresent());
    assertEquals(List.of(), catalog.streamNames());
    assertEquals("V", catalog.dropView("V").orElseThrow().name());
    assertEquals(false, catalog.contains("V"));
  }
}
