package dev.freshet.engine;

import dev.freshet.common.errors.SqlState;
import dev.freshet.connectors.jdbc.JdbcReferenceData;
import dev.freshet.engine.errors.CatalogErrors;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.security.StatementSecrets;
import dev.freshet.engine.store.CatalogStore;
import dev.freshet.engine.store.LocalTables;
import dev.freshet.engine.table.TableColumn;
import dev.freshet.executor.source.ReferenceData;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.ReferenceTable;
import dev.freshet.sql.parser.SqlCreateTable;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeImpl;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.calcite.sql.ddl.SqlDropTable;

/**
 * Executes {@code CREATE TABLE} and {@code DROP TABLE}: reference tables, which continuous
 * queries join their stream with and plain queries read.
 *
 * <pre>{@code
 * CREATE TABLE products (id BIGINT PRIMARY KEY, category VARCHAR)     -- in the engine's H2
 * CREATE TABLE customers (id BIGINT, name VARCHAR) WITH (connector = 'jdbc',
 *     'url' = 'jdbc:postgresql://db/shop', 'table-name' = 'customers',
 *     'username' = 'app', 'password' = '...')                        -- read through HikariCP
 * DROP TABLE IF EXISTS products
 * }</pre>
 *
 * <p>A table without options lives in the engine's own database ({@link LocalTables}), survives
 * restarts with its rows, and is changed by INSERT, UPDATE and DELETE ({@link TableDml}). A JDBC
 * table is read-only, through its own pool, closed when the table is dropped or the engine
 * closes. On a server its URL must be one the engine's {@code ConnectorPolicy} allows (42501).
 * Tables share the namespace of streams, views and sinks; a table that a running query reads
 * cannot be dropped (2BP01).
 */
final class TableDdl {
  /** The options of {@code connector = 'jdbc'}. */
  private static final List<String> JDBC_OPTIONS =
      List.of("connector", "url", "table-name", "username", "password");

  private TableDdl() {
  }

  /**
   * Creates the table of {@code create}.
   *
   * @param secrets its options with the values of the secrets they name, and the statement as
   *     recorded
   */
  static void create(Engine engine, SqlCreateTable create, StatementSecrets secrets)
      throws SQLException {
    FreshetPlanner planner = engine.planner();
    String name = StreamDdl.simpleName(create.name());
    RelDataType rowType = rowType(planner, name, create);
    List<String> primaryKey = primaryKey(name, create, rowType);
    Map<String, String> options = new LinkedHashMap<>();
    secrets.options().forEach((k, v) -> options.put(k.toLowerCase(Locale.ROOT), v));
    List<TableColumn> columns = TableColumn.of(rowType);
    for (TableColumn column : columns) {
      Optional<String> unsupported = column.unsupported();
      if (unsupported.isPresent()) {
        throw Errors.notSupported("Table " + name + ": " + unsupported.get()
            + ". Declare it with one of those types");
      }
    }
    boolean external = !options.isEmpty();
    if (external) {
      checkJdbcOptions(name, options);
      // Before anything is connected; again when a restarted engine declares the table anew.
      engine.security().connectors().checkJdbcUrl("Table " + name, options.get("url"));
    }
    Catalog catalog = engine.catalog();
    if (taken(engine, name, create.ifNotExists())) {
      return;
    }
    // Connected outside the DDL lock: a database that does not answer holds up no other DDL.
    JdbcReferenceData jdbc = external ? JdbcReferenceData.open(name, options.get("url"),
        options.get("table-name"), Optional.ofNullable(options.get("username")),
        engine.security().connectors().jdbcPassword(Optional.ofNullable(options.get("password"))),
        TableColumn.jdbc(columns)) : null;
    synchronized (engine.ddlLock()) {
      try {
        if (taken(engine, name, create.ifNotExists())) {
          if (jdbc != null) {
            jdbc.close();
          }
          return;
        }
      } catch (SQLException e) {
        if (jdbc != null) {
          jdbc.close();
        }
        throw e;
      }
      ReferenceData data = jdbc != null ? jdbc
          : engine.localTables().create(name, columns, primaryKey);
      ReferenceTable table = new ReferenceTable(name, RelDataTypeImpl.proto(rowType), primaryKey,
          options, !external, data);
      if (!catalog.addTable(table)) {
        close(table);
        throw new IllegalStateException("name " + name + " was taken while the DDL lock was held");
      }
      try {
        secrets.store();
        engine.catalogStore().record(CatalogStore.Kind.TABLE, name, secrets.sql(), Map.of());
      } catch (SQLException | RuntimeException e) {
        catalog.dropTable(name);
        close(table);
        engine.secrets().dropped(name);
        throw e;
      }
    }
  }

  private static RelDataType rowType(FreshetPlanner planner, String name, SqlCreateTable create)
      throws SQLException {
    Set<String> keyColumns = new HashSet<>();
    create.primaryKeys().forEach(keyColumns::addAll);
    RelDataTypeFactory.Builder fields = planner.typeFactory().builder();
    Set<String> names = new HashSet<>();
    for (SqlNode node : create.columns()) {
      SqlColumnDeclaration column = (SqlColumnDeclaration) node;
      String columnName = StreamDdl.simpleName(column.name);
      if (!names.add(columnName)) {
        throw Errors.invalidDefinition("Column " + columnName + " is declared twice in table "
            + name + ". Give each column a distinct name");
      }
      Boolean nullable = column.dataType.getNullable();
      // A key column is NOT NULL, as SQL has it.
      boolean isNullable = (nullable == null || nullable) && !keyColumns.contains(columnName);
      fields.add(columnName, planner.columnType(column.dataType, isNullable));
    }
    return fields.build();
  }

  private static List<String> primaryKey(String name, SqlCreateTable create, RelDataType rowType)
      throws SQLException {
    List<List<String>> keys = create.primaryKeys();
    if (keys.isEmpty()) {
      return List.of();
    }
    if (keys.size() > 1) {
      throw Errors.invalidDefinition("Table " + name + " declares " + keys.size() + " primary"
          + " keys, and a table has one. Declare one PRIMARY KEY (a, b) for several columns");
    }
    List<String> key = keys.get(0);
    for (String column : key) {
      if (rowType.getField(column, true, false) == null) {
        throw Errors.of(SqlState.COLUMN_NOT_FOUND, "Primary key column " + column + " of table "
            + name + " is not one of its columns " + rowType.getFieldNames()
            + ". Name a declared column");
      }
    }
    if (new HashSet<>(key).size() != key.size()) {
      throw Errors.invalidDefinition("The primary key of table " + name + " names a column"
          + " twice: " + key + ". Name each key column once");
    }
    return List.copyOf(key);
  }

  private static void checkJdbcOptions(String name, Map<String, String> options)
      throws SQLException {
    String connector = options.get("connector");
    if (connector == null || !connector.equalsIgnoreCase("jdbc")) {
      throw Errors.notSupported("Table " + name + " has connector '" + connector + "', but a"
          + " table is kept by the engine (no WITH clause) or read from a database with"
          + " connector = 'jdbc'. Leave the WITH clause out, or use connector = 'jdbc'");
    }
    for (String option : options.keySet()) {
      if (!JDBC_OPTIONS.contains(option)) {
        throw Errors.of(SqlState.SYNTAX_ERROR, "Unknown option '" + option + "' for connector"
            + " 'jdbc' of table " + name + ". Valid options: " + String.join(", ", JDBC_OPTIONS));
      }
    }
    for (String required : List.of("url", "table-name")) {
      if (options.get(required) == null || options.get(required).isBlank()) {
        throw Errors.of(SqlState.SYNTAX_ERROR, "Table " + name + " (connector 'jdbc') needs"
            + " option '" + required + "', e.g. WITH (connector = 'jdbc', 'url' ="
            + " 'jdbc:postgresql://host/db', 'table-name' = 'products')");
      }
    }
  }

  /**
   * Whether a table of {@code name} exists and {@code IF NOT EXISTS} lets the statement do
   * nothing; false if the name is free.
   *
   * @throws SQLException 42S01 if another object, or a table without IF NOT EXISTS, has it
   */
  private static boolean taken(Engine engine, String name, boolean ifNotExists)
      throws SQLException {
    Catalog catalog = engine.catalog();
    if (!catalog.contains(name) && !engine.queryRegistry().sinks().containsKey(name)) {
      return false;
    }
    if (ifNotExists && catalog.table(name).isPresent()) {
      return true;
    }
    throw nameTaken(engine, name);
  }

  private static SQLException nameTaken(Engine engine, String name) {
    Catalog catalog = engine.catalog();
    if (catalog.table(name).isPresent()) {
      return Errors.of(SqlState.OBJECT_EXISTS, "Table '" + name + "' already exists. Use CREATE"
          + " TABLE IF NOT EXISTS, or DROP TABLE " + name + " first.");
    }
    if (catalog.stream(name).isPresent()) {
      return CatalogErrors.nameTaken("table", name, "stream", "DROP STREAM " + name);
    }
    if (catalog.view(name).isPresent()) {
      return CatalogErrors.nameTaken("table", name, "materialized view",
          "DROP MATERIALIZED VIEW " + name);
    }
    return CatalogErrors.nameTaken("table", name, "sink", "DROP SINK " + name);
  }

  static void drop(Engine engine, SqlDropTable drop) throws SQLException {
    String name = StreamDdl.simpleName(drop.name);
    Catalog catalog = engine.catalog();
    ReferenceTable table;
    synchronized (engine.ddlLock()) {
      if (catalog.stream(name).isPresent()) {
        throw CatalogErrors.wrongObjectType(name, "stream", "table", "DROP STREAM " + name);
      }
      if (catalog.view(name).isPresent()) {
        throw CatalogErrors.wrongObjectType(name, "materialized view", "table",
            "DROP MATERIALIZED VIEW " + name);
      }
      List<String> readers = engine.queryRegistry().tableReaders(name);
      if (!readers.isEmpty()) {
        throw Errors.of(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "Cannot drop table '" + name
            + "': " + (readers.size() == 1 ? "query " : "queries ") + String.join(", ", readers)
            + (readers.size() == 1 ? " reads" : " read") + " it. Drop the view or sink, or stop"
            + " the query (STOP QUERY), first.");
      }
      Optional<ReferenceTable> dropped = catalog.dropTable(name);
      if (dropped.isEmpty()) {
        if (!drop.ifExists) {
          throw Errors.of(SqlState.OBJECT_NOT_FOUND, "Table '" + name + "' not found. Use DROP"
              + " TABLE IF EXISTS, or check the name: DatabaseMetaData.getTables lists the"
              + " tables (TABLE_TYPE 'TABLE')");
        }
        return;
      }
      table = dropped.get();
      engine.catalogStore().remove(name);
      engine.secrets().dropped(name);
      close(table);
      if (table.writable()) {
        engine.localTables().drop(name);
      }
    }
  }

  /** Closes an external table's pool; nothing to do for the engine's own table. */
  static void close(ReferenceTable table) {
    if (table.data() instanceof JdbcReferenceData jdbc) {
      jdbc.close();
    }
  }
}
