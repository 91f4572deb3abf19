package dev.freshet.engine.query;

import static java.util.Objects.requireNonNull;

import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.ReferenceTable;
import dev.freshet.planner.catalog.ViewTable;
import java.util.HashMap;
import java.util.Map;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

/**
 * The engine's catalog as plain queries read it: each view and table as it is, each stream as a
 * {@link HeldStream} over the rows it holds. The streaming planner reads the {@link Catalog}
 * itself, where a stream is an unbounded source.
 *
 * <pre>{@code
 * rootSchema.add(FreshetPlanner.SCHEMA, new BatchCatalog(catalog));
 * // SELECT * FROM clicks ORDER BY ts DESC   -- a scan of the rows CLICKS holds
 * }</pre>
 *
 * <p>It looks at the catalog at each lookup, so a stream created a moment ago resolves.
 */
final class BatchCatalog extends AbstractSchema {
  private final Catalog catalog;

  BatchCatalog(Catalog catalog) {
    this.catalog = requireNonNull(catalog, "catalog");
  }

  @Override protected Map<String, Table> getTableMap() {
    Map<String, Table> tables = new HashMap<>();
    for (ViewTable view : catalog.views()) {
      tables.put(view.name(), view);
    }
    for (ReferenceTable table : catalog.referenceTables()) {
      // Its current rows, read when the query runs.
      tables.put(table.name(), table);
    }
    for (String name : catalog.streamNames()) {
      // A stream dropped since the names were taken is left out.
      catalog.stream(name).ifPresent(s -> tables.put(name, new HeldStream(s)));
    }
    return tables;
  }
}
