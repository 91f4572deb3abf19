package dev.freshet.engine.query;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The {@code INFORMATION_SCHEMA} schema of SQL, which many tools query before anything else: its
 * {@code TABLES} and {@code COLUMNS} list what {@code DatabaseMetaData.getTables} and
 * {@code getColumns} list, from the same description of the engine
 * ({@code dev.freshet.engine.EngineMetadata}); {@code VIEWS} gives each materialized view's
 * query, which JDBC has no call for.
 *
 * <pre>{@code
 * SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = 'FRESHET';
 * SELECT column_name, data_type FROM information_schema.columns
 *   WHERE table_name = 'CLICKS' ORDER BY ordinal_position;
 * SELECT view_definition FROM information_schema.views WHERE table_name = 'PER_USER';
 * }</pre>
 *
 * <p>{@code TABLE_TYPE} is {@code TABLE} for a stream, {@code VIEW} for a materialized view and
 * {@code SYSTEM TABLE} for a table of {@code SYS}, as {@code getTables} says; Freshet has no
 * catalogs, so {@code TABLE_CATALOG} is NULL. {@code DATA_TYPE} is the SQL type's name, e.g.
 * {@code VARCHAR}. The schema lists no tables of its own, as {@code getTables} does not.
 */
public final class InformationSchema extends AbstractSchema {
  /** The schema's name, as SQL names it (unquoted {@code information_schema} is upper-cased). */
  public static final String NAME = "INFORMATION_SCHEMA";

  private final Map<String, Table> tables;

  /**
   * Creates the schema over the rows that {@code tables} ({@code TABLE_CATALOG, TABLE_SCHEMA,
   * TABLE_NAME, TABLE_TYPE}) and {@code columns} ({@code TABLE_CATALOG, TABLE_SCHEMA, TABLE_NAME,
   * COLUMN_NAME, ORDINAL_POSITION, DATA_TYPE, IS_NULLABLE, CHARACTER_MAXIMUM_LENGTH,
   * NUMERIC_PRECISION, NUMERIC_SCALE}) and {@code views} ({@code TABLE_CATALOG, TABLE_SCHEMA,
   * TABLE_NAME, VIEW_DEFINITION, CHECK_OPTION, IS_UPDATABLE}) return when the table is scanned.
   */
  public InformationSchema(Supplier<List<Object[]>> tables, Supplier<List<Object[]>> columns,
      Supplier<List<Object[]>> views) {
    requireNonNull(tables, "tables");
    requireNonNull(columns, "columns");
    requireNonNull(views, "views");
    this.tables = Map.of(
        "TABLES", new SystemSchema.SystemTable(InformationSchema::tablesType, tables),
        "COLUMNS", new SystemSchema.SystemTable(InformationSchema::columnsType, columns),
        "VIEWS", new SystemSchema.SystemTable(InformationSchema::viewsType, views));
  }

  /** The names of its tables, sorted, for messages. */
  public static List<String> tableNames() {
    return List.of("COLUMNS", "TABLES", "VIEWS");
  }

  @Override public Map<String, Table> getTableMap() {
    return tables;
  }

  private static RelDataType tablesType(RelDataTypeFactory f) {
    return f.builder()
        .add("TABLE_CATALOG", SqlTypeName.VARCHAR).nullable(true)
        .add("TABLE_SCHEMA", SqlTypeName.VARCHAR)
        .add("TABLE_NAME", SqlTypeName.VARCHAR)
        .add("TABLE_TYPE", SqlTypeName.VARCHAR)
        .build();
  }

  private static RelDataType viewsType(RelDataTypeFactory f) {
    return f.builder()
        .add("TABLE_CATALOG", SqlTypeName.VARCHAR).nullable(true)
        .add("TABLE_SCHEMA", SqlTypeName.VARCHAR)
        .add("TABLE_NAME", SqlTypeName.VARCHAR)
        .add("VIEW_DEFINITION", SqlTypeName.VARCHAR)
        .add("CHECK_OPTION", SqlTypeName.VARCHAR)
        .add("IS_UPDATABLE", SqlTypeName.VARCHAR)
        .build();
  }

  private static RelDataType columnsType(RelDataTypeFactory f) {
    return f.builder()
        .add("TABLE_CATALOG", SqlTypeName.VARCHAR).nullable(true)
        .add("TABLE_SCHEMA", SqlTypeName.VARCHAR)
        .add("TABLE_NAME", SqlTypeName.VARCHAR)
        .add("COLUMN_NAME", SqlTypeName.VARCHAR)
        .add("ORDINAL_POSITION", SqlTypeName.INTEGER)
        .add("DATA_TYPE", SqlTypeName.VARCHAR)
        .add("IS_NULLABLE", SqlTypeName.VARCHAR)
        .add("CHARACTER_MAXIMUM_LENGTH", SqlTypeName.INTEGER).nullable(true)
        .add("NUMERIC_PRECISION", SqlTypeName.INTEGER).nullable(true)
        .add("NUMERIC_SCALE", SqlTypeName.INTEGER).nullable(true)
        .build();
  }
}
