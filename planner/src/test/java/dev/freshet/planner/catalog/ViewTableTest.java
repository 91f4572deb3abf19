package dev.freshet.planner.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.executor.runtime.OutputMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.calcite.DataContext;
import org.apache.calcite.DataContexts;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataTypeImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/** What a scan of a view reads, and how views and streams share the catalog's names. */
class ViewTableTest {
  private static ViewTable view(String name) {
    JavaTypeFactoryImpl types = new JavaTypeFactoryImpl();
    return new ViewTable(name, RelDataTypeImpl.proto(types.builder()
        .add("N", SqlTypeName.BIGINT).build()), OutputMode.COMPLETE, "q", "sql", List.of("S"));
  }

  private static List<List<Object>> scan(ViewTable view, DataContext context) {
    List<List<Object>> rows = new ArrayList<>();
    for (Object[] row : view.scan(context)) {
      rows.add(Arrays.asList(row));
    }
    return rows;
  }

  @Test void shouldReadThePinnedSnapshotWhenTheStatementPinnedOne() {
    ViewTable view = view("V");
    ViewSnapshot pinned = new ViewSnapshot(0, List.<Object[]>of(new Object[] {1L}));
    view.publish(pinned);
    DataContext statement = DataContexts.of(Map.of(ViewTable.snapshotVariable("V"), pinned));
    view.publish(new ViewSnapshot(1, List.<Object[]>of(new Object[] {2L})));

    assertEquals(List.of(List.of(1L)), scan(view, statement));
    assertEquals(List.of(List.of(2L)), scan(view, DataContexts.EMPTY));
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
