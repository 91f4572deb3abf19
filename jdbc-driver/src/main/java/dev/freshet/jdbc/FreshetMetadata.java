package dev.freshet.jdbc;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.Engine;
import dev.freshet.engine.EngineMetadata;
import dev.freshet.engine.query.ResultColumn;
import java.sql.DatabaseMetaData;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.avatica.Meta.DatabaseProperty;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The answers to {@link DatabaseMetaData} calls about one engine, which BI tools and sqlline
 * make to show what there is to query.
 *
 * <pre>{@code
 * MetadataRows views = new FreshetMetadata(engine).tables(null, "FRESHET", "%", List.of("VIEW"));
 * }</pre>
 *
 * <p>Freshet has no catalogs ({@code TABLE_CAT} is null) and two schemas: {@code FRESHET} holds
 * the streams and materialized views, and is where unqualified names resolve; {@code SYS} holds
 * the system tables. The table types are {@code TABLE} (a declared stream), {@code VIEW} (a
 * materialized view; its {@code REMARKS} are its {@code CREATE} statement) and
 * {@code SYSTEM TABLE}. A stream is a {@code TABLE} because BI tools and crawlers such as
 * SchemaCrawler list only the types {@code TABLE} and {@code VIEW} by default, and a stream
 * reads as a table of the rows it holds; {@code SHOW STREAMS} tells streams apart. A table's
 * columns are those
 * {@code SELECT * FROM} it returns, with the same types (see {@link ColumnSizes} for sizes). A
 * view's primary key is its group key when the view shows it whole
 * ({@link EngineMetadata#primaryKey}).
 *
 * <p>Patterns follow {@link SearchPattern}; results are sorted as JDBC specifies.
 */
final class FreshetMetadata {
  /** Table type of a declared stream, what tools list by default. */
  static final String TABLE = EngineMetadata.TableKind.STREAM.tableType();
  /** Table type of a materialized view. */
  static final String VIEW = EngineMetadata.TableKind.MATERIALIZED_VIEW.tableType();
  /** Table type of the tables of schema SYS. */
  static final String SYSTEM_TABLE = EngineMetadata.TableKind.SYSTEM_TABLE.tableType();
  /** The table types, sorted. */
  static final List<String> TABLE_TYPES = List.of(SYSTEM_TABLE, TABLE, VIEW);

  /** The same as {@link FreshetDriver}'s version, for clients that ask the server. */
  static final String PRODUCT_NAME = "Freshet";
  static final String PRODUCT_VERSION = "0.1.0";
  private static final String DRIVER_NAME = "Freshet JDBC Driver";

  private static final Map<DatabaseProperty, Object> DATABASE_PROPERTIES = databaseProperties();

  private final EngineMetadata engine;

  /** Answers for {@code engine}. */
  FreshetMetadata(Engine engine) {
    this(engine, dev.freshet.engine.security.Principal.LOCAL);
  }

  /** The metadata of {@code engine} as {@code viewer} may see it. */
  FreshetMetadata(Engine engine, dev.freshet.engine.security.Principal viewer) {
    this.engine = new EngineMetadata(requireNonNull(engine, "engine"), viewer);
  }

  /**
   * The scalar answers of {@code DatabaseMetaData} that Avatica asks the server for: product,
   * version, SQL keywords, escape functions, transaction isolation.
   */
  static Map<DatabaseProperty, Object> properties() {
    return DATABASE_PROPERTIES;
  }

  private static Map<DatabaseProperty, Object> databaseProperties() {
    Map<DatabaseProperty, Object> properties = new EnumMap<>(DatabaseProperty.class);
    properties.put(DatabaseProperty.GET_DATABASE_PRODUCT_NAME, PRODUCT_NAME);
    properties.put(DatabaseProperty.GET_DATABASE_PRODUCT_VERSION, PRODUCT_VERSION);
    properties.put(DatabaseProperty.GET_DATABASE_MAJOR_VERSION, 0);
    properties.put(DatabaseProperty.GET_DATABASE_MINOR_VERSION, 1);
    properties.put(DatabaseProperty.GET_DRIVER_NAME, DRIVER_NAME);
    properties.put(DatabaseProperty.GET_DRIVER_VERSION, PRODUCT_VERSION);
    properties.put(DatabaseProperty.GET_DRIVER_MAJOR_VERSION, 0);
    properties.put(DatabaseProperty.GET_DRIVER_MINOR_VERSION, 1);
    properties.put(DatabaseProperty.GET_S_Q_L_KEYWORDS, EngineMetadata.sqlKeywords());
    properties.put(DatabaseProperty.GET_NUMERIC_FUNCTIONS, EngineMetadata.numericFunctions());
    properties.put(DatabaseProperty.GET_STRING_FUNCTIONS, EngineMetadata.stringFunctions());
    properties.put(DatabaseProperty.GET_SYSTEM_FUNCTIONS, EngineMetadata.systemFunctions());
    properties.put(DatabaseProperty.GET_TIME_DATE_FUNCTIONS, EngineMetadata.timeDateFunctions());
    // See ConnectionSettings: reads see committed rows only.
    properties.put(DatabaseProperty.GET_DEFAULT_TRANSACTION_ISOLATION,
        ConnectionSettings.ISOLATION);
    return Map.copyOf(properties);
  }

  /** {@code getTables}: the streams, views and system tables that match, of the given types. */
  MetadataRows tables(@Nullable String catalog, @Nullable String schemaPattern,
      @Nullable String tableNamePattern, @Nullable List<String> types) {
    List<EngineMetadata.Table> tables = tables(catalog, schemaPattern, tableNamePattern);
    tables.removeIf(t -> types != null
        && types.stream().noneMatch(type -> type.equalsIgnoreCase(tableType(t))));
    tables.sort(Comparator.comparing(FreshetMetadata::tableType)
        .thenComparing(EngineMetadata.Table::schema).thenComparing(EngineMetadata.Table::name));
    List<Object> rows = new ArrayList<>();
    for (EngineMetadata.Table t : tables) {
      rows.add(new Object[] {null, t.schema(), t.name(), tableType(t), t.remarks(), null, null,
          null, null, null});
    }
    return new MetadataRows(MetadataLayouts.TABLES, rows);
  }

  /** {@code getColumns}: the columns that match, of the tables that match. */
  MetadataRows columns(@Nullable String catalog, @Nullable String schemaPattern,
      @Nullable String tableNamePattern, @Nullable String columnNamePattern) {
    SearchPattern columnPattern = SearchPattern.of(columnNamePattern);
    List<Object> rows = new ArrayList<>();
    for (EngineMetadata.Table t : tables(catalog, schemaPattern, tableNamePattern)) {
      for (int i = 0; i < t.columns().size(); i++) {
        ResultColumn c = t.columns().get(i);
        if (columnPattern.matches(c.name())) {
          rows.add(new Object[] {null, t.schema(), t.name(), c.name(), c.jdbcType(),
              c.typeName(), ColumnSizes.columnSize(c), null, ColumnSizes.decimalDigits(c),
              ColumnSizes.radix(c), nullable(c), t.columnRemarks().get(i), null, null, null,
              ColumnSizes.charOctetLength(c), i + 1, c.nullable() ? "YES" : "NO", null, null,
              null, null, "NO", "NO"});
        }
      }
    }
    return new MetadataRows(MetadataLayouts.COLUMNS, rows);
  }

  /** {@code getSchemas}: FRESHET and SYS, if they match. */
  MetadataRows schemas(@Nullable String catalog, @Nullable String schemaPattern) {
    SearchPattern pattern = SearchPattern.of(schemaPattern);
    List<Object> rows = new ArrayList<>();
    if (inCatalog(catalog)) {
      for (String schema : engine.schemas()) {
        if (pattern.matches(schema)) {
          rows.add(new Object[] {schema, null});
        }
      }
    }
    return new MetadataRows(MetadataLayouts.SCHEMAS, rows);
  }

  /** {@code getCatalogs}: none, as Freshet has no catalogs. */
  static MetadataRows catalogs() {
    return empty(MetadataLayouts.CATALOGS);
  }

  /** {@code getTableTypes}. */
  static MetadataRows tableTypes() {
    List<Object> rows = new ArrayList<>();
    for (String type : TABLE_TYPES) {
      rows.add(new Object[] {type});
    }
    return new MetadataRows(MetadataLayouts.TABLE_TYPES, rows);
  }

  /**
   * {@code getPrimaryKeys} of table {@code table} (a name, not a pattern) in schema
   * {@code schema} (any if null): a view's key columns, sorted by name as JDBC specifies;
   * {@code KEY_SEQ} is the position in the key.
   */
  MetadataRows primaryKeys(@Nullable String catalog, @Nullable String schema,
      @Nullable String table) {
    List<Object> rows = new ArrayList<>();
    for (EngineMetadata.Table t : tables(catalog, null, null)) {
      if ((schema == null || schema.equals(t.schema()))
          && (table == null || table.equals(t.name()))) {
        List<String> key = engine.primaryKey(t);
        List<Object[]> keyRows = new ArrayList<>();
        for (int i = 0; i < key.size(); i++) {
          keyRows.add(new Object[] {null, t.schema(), t.name(), key.get(i), (short) (i + 1),
              "PK_" + t.name()});
        }
        keyRows.sort(Comparator.comparing(row -> (String) row[3]));
        rows.addAll(keyRows);
      }
    }
    return new MetadataRows(MetadataLayouts.PRIMARY_KEYS, rows);
  }

  /** {@code getTypeInfo}: the types columns can have, by {@code DATA_TYPE}. */
  static MetadataRows typeInfo() {
    List<Object> rows = new ArrayList<>();
    for (EngineMetadata.SqlType type : EngineMetadata.types()) {
      boolean time = type.jdbcType() == Types.TIME || type.jdbcType() == Types.TIMESTAMP;
      // The scale of a time is its digits of seconds, as DECIMAL_DIGITS of getColumns says.
      int minScale = Math.max(type.minScale(), 0);
      int maxScale = time ? type.maxPrecision() : Math.max(type.maxScale(), 0);
      rows.add(new Object[] {type.name(), type.jdbcType(), typePrecision(type),
          type.literalPrefix(), type.literalSuffix(), type.createParams(),
          (short) DatabaseMetaData.typeNullable, type.caseSensitive(),
          (short) DatabaseMetaData.typeSearchable, false, false, false, type.name(),
          (short) minScale, (short) maxScale, null, null,
          type.radix() == 0 ? null : type.radix()});
    }
    return new MetadataRows(MetadataLayouts.TYPE_INFO, rows);
  }

  /** {@code PRECISION} of getTypeInfo: for the time types, the length of their longest text. */
  private static int typePrecision(EngineMetadata.SqlType type) {
    switch (type.jdbcType()) {
    case Types.DATE:
      return 10;
    case Types.TIME:
      return ColumnSizes.timeLength(type.maxPrecision());
    case Types.TIMESTAMP:
      return ColumnSizes.timestampLength(type.maxPrecision());
    default:
      return type.maxPrecision();
    }
  }

  /** A result without rows, for what Freshet does not have: procedures, indexes, foreign keys. */
  static MetadataRows empty(ResultLayout layout) {
    return new MetadataRows(layout, List.of());
  }

  private List<EngineMetadata.Table> tables(@Nullable String catalog,
      @Nullable String schemaPattern, @Nullable String tableNamePattern) {
    List<EngineMetadata.Table> tables = new ArrayList<>();
    if (!inCatalog(catalog)) {
      return tables;
    }
    SearchPattern schemas = SearchPattern.of(schemaPattern);
    SearchPattern names = SearchPattern.of(tableNamePattern);
    for (EngineMetadata.Table t : engine.tables()) {
      if (schemas.matches(t.schema()) && names.matches(t.name())) {
        tables.add(t);
      }
    }
    return tables;
  }

  /** Whether objects without catalog are asked for: null does not filter, "" means none. */
  private static boolean inCatalog(@Nullable String catalog) {
    return catalog == null || catalog.isEmpty();
  }

  private static String tableType(EngineMetadata.Table table) {
    return table.kind().tableType();
  }

  private static int nullable(ResultColumn column) {
    return column.nullable() ? DatabaseMetaData.columnNullable : DatabaseMetaData.columnNoNulls;
  }
}
