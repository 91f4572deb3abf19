package dev.freshet.planner.catalog;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.source.ReferenceData;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelProtoDataType;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A reference table as Calcite sees it: a bounded table of current rows (products, customers,
 * prices) that a continuous query joins its stream with, and that a plain query reads.
 *
 * <pre>{@code
 * ReferenceTable products = new ReferenceTable("PRODUCTS", proto, List.of("ID"),
 *     Map.of(), true, h2Rows);
 * catalog.addTable(products);
 * // SELECT STREAM o.id, p.category FROM orders o JOIN products p ON o.product_id = p.id
 * // joins each batch of orders with products.data() as it is when the batch starts
 * }</pre>
 *
 * <p>Its rows come from a {@link ReferenceData}, which the engine implements over its own H2
 * database (a table changed by INSERT, UPDATE and DELETE) or over an external database through
 * JDBC (read-only). The planner recognizes a table by
 * {@code scan.getTable().unwrap(ReferenceTable.class)}; it is never a stream.
 */
public final class ReferenceTable extends AbstractTable implements ScannableTable {
  private final String name;
  private final RelProtoDataType rowType;
  private final List<String> primaryKey;
  private final Map<String, String> options;
  private final boolean writable;
  private final ReferenceData data;

  /**
   * Creates a reference table.
   *
   * @param name table name as stored in the catalog
   * @param rowType column names and types
   * @param primaryKey the primary key's columns, empty if none was declared
   * @param options the {@code WITH (...)} options (an external table's connector)
   * @param writable whether INSERT, UPDATE and DELETE change it (the engine's own tables)
   * @param data its current rows
   */
  public ReferenceTable(String name, RelProtoDataType rowType, List<String> primaryKey,
      Map<String, String> options, boolean writable, ReferenceData data) {
    this.name = requireNonNull(name, "name");
    this.rowType = requireNonNull(rowType, "rowType");
    this.primaryKey = List.copyOf(primaryKey);
    this.options = Map.copyOf(options);
    this.writable = writable;
    this.data = requireNonNull(data, "data");
  }

  @Override public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    return rowType.apply(typeFactory);
  }

  @Override public Schema.TableType getJdbcTableType() {
    return Schema.TableType.TABLE;
  }

  /** Every current row, read when the query enumerates them. */
  @Override public Enumerable<@Nullable Object[]> scan(DataContext root) {
    List<@Nullable Object[]> rows = new ArrayList<>();
    data.scan(rows::add);
    return Linq4j.asEnumerable(rows);
  }

  /** The table's name. */
  public String name() {
    return name;
  }

  /** The primary key's columns in key order; empty if the table declares none. */
  public List<String> primaryKey() {
    return primaryKey;
  }

  /** The {@code WITH} options; empty for a table kept in the engine's own database. */
  public Map<String, String> options() {
    return options;
  }

  /** Whether INSERT, UPDATE and DELETE may change the table (false for an external table). */
  public boolean writable() {
    return writable;
  }

  /** The table's current rows. */
  public ReferenceData data() {
    return data;
  }

  /** The names of the reference tables that {@code rel} reads, sorted. */
  public static Set<String> readBy(RelNode rel) {
    Set<String> names = new TreeSet<>();
    for (RelOptTable table : RelOptUtil.findAllTables(rel)) {
      ReferenceTable reference = table.unwrap(ReferenceTable.class);
      if (reference != null) {
        names.add(reference.name());
      }
    }
    return names;
  }
}
