package dev.freshet.engine;

import dev.freshet.engine.security.Principal;
import static java.util.Objects.requireNonNull;

import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.FreshetTypeSystem;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.ReferenceTable;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.ViewTable;
import dev.freshet.planner.catalog.WatermarkSpec;
import dev.freshet.sql.FreshetSqlParser;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rel.type.RelDataTypeSystem;
import org.apache.calcite.sql.SqlJdbcFunctionCall;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;
import dev.freshet.engine.query.InformationSchema;
import dev.freshet.engine.query.PullQueryExecutor;
import dev.freshet.engine.query.SystemSchema;
import dev.freshet.engine.security.CurrentPrincipal;
import dev.freshet.engine.security.Redaction;
import dev.freshet.engine.query.ResultColumn;

/**
 * What an engine holds, described for catalog browsers such as JDBC's {@code DatabaseMetaData}:
 * its streams and materialized views (schema {@code FRESHET}, where unqualified names resolve),
 * its system tables (schema {@code SYS}), and the SQL types and keywords it knows. Read-only: it
 * looks at the catalog as it is at each call, and runs nothing.
 *
 * <pre>{@code
 * EngineMetadata metadata = new EngineMetadata(engine);
 * for (EngineMetadata.Table t : metadata.tables()) {
 *   System.out.println(t.schema() + "." + t.name() + " " + t.kind());  // FRESHET.CLICKS STREAM
 * }
 * List<String> key = metadata.primaryKey(table);   // e.g. [USER_ID] of a grouped view
 * }</pre>
 *
 * <p>The columns of a table are those that {@code SELECT * FROM} it returns, described the same
 * way ({@link ResultColumn#of}).
 */
public final class EngineMetadata {
  /** The schema of streams and views, and the default schema of every session. */
  public static final String DEFAULT_SCHEMA = FreshetPlanner.SCHEMA;
  /** The schema of the system tables. */
  public static final String SYSTEM_SCHEMA = SystemSchema.NAME;

  /** Descriptions of the system tables, for catalog browsers. */
  private static final Map<String, String> SYSTEM_TABLE_REMARKS = Map.of(
      "QUERIES", "One row per continuous query, with the metrics of its last batch",
      "QUERY_PROGRESS", "One row per recent batch of each continuous query (the last 100)",
      "PRIMARY_KEYS", "The key columns of each view, as DatabaseMetaData.getPrimaryKeys lists them",
      "PRIVILEGES", "The owner of each object and the privileges granted on it, as SHOW GRANTS"
          + " lists them",
      "STATE_OPERATORS", "One row per stateful operator of each continuous query: its kind, what"
          + " bounds its state, its rows and bytes");

  /**
   * Every view's visible key, one row per column ({@code TABLE_SCHEM, TABLE_NAME, COLUMN_NAME,
   * KEY_SEQ, PK_NAME}), as {@code SYS.PRIMARY_KEYS} holds them.
   */
  List<Object[]> primaryKeyRows() {
    List<Object[]> rows = new ArrayList<>();
    for (Table table : tables()) {
      List<String> key = primaryKey(table);
      for (int i = 0; i < key.size(); i++) {
        rows.add(new Object[] {table.schema(), table.name(), key.get(i), (short) (i + 1),
            "PK_" + table.name()});
      }
    }
    return rows;
  }

  /** The types a column can have, in the order of {@link java.sql.Types} codes. */
  private static final List<SqlTypeName> TYPES = List.of(SqlTypeName.TINYINT,
      SqlTypeName.BIGINT, SqlTypeName.CHAR, SqlTypeName.DECIMAL, SqlTypeName.INTEGER,
      SqlTypeName.SMALLINT, SqlTypeName.FLOAT, SqlTypeName.REAL, SqlTypeName.DOUBLE,
      SqlTypeName.VARCHAR, SqlTypeName.BOOLEAN, SqlTypeName.DATE, SqlTypeName.TIME,
      SqlTypeName.TIMESTAMP);

  /**
   * What kind of object a table is, and its table type as {@code DatabaseMetaData.getTables} and
   * {@code INFORMATION_SCHEMA.TABLES} report it: a stream is a {@code TABLE}, because BI tools
   * and crawlers list only {@code TABLE} and {@code VIEW} by default, and a stream reads as a
   * table of the rows it holds.
   */
  public enum TableKind {
    /** A declared stream: rows arrive by INSERT, a plain SELECT reads all rows so far. */
    STREAM("TABLE"),
    /** A reference table ({@code CREATE TABLE}): its current rows, which streams join. */
    TABLE("TABLE"),
    /** A materialized view: the result of its continuous query after its last batch. */
    MATERIALIZED_VIEW("VIEW"),
    /** A table of the {@code SYS} schema, computed when read. */
    SYSTEM_TABLE("SYSTEM TABLE");

    private final String tableType;

    TableKind(String tableType) {
      this.tableType = tableType;
    }

    /** The table type, e.g. {@code TABLE} for a stream. */
    public String tableType() {
      return tableType;
    }
  }

  /**
   * The rows of {@code INFORMATION_SCHEMA.TABLES}, one per table that {@link #tables()} lists:
   * {@code TABLE_CATALOG} (NULL: Freshet has no catalogs), {@code TABLE_SCHEMA},
   * {@code TABLE_NAME}, {@code TABLE_TYPE}.
   */
  List<Object[]> informationSchemaTables() {
    List<Object[]> rows = new ArrayList<>();
    for (Table t : tables()) {
      rows.add(new Object[] {null, t.schema(), t.name(), t.kind().tableType()});
    }
    return rows;
  }

  /**
   * The rows of {@code INFORMATION_SCHEMA.VIEWS}, one per materialized view: {@code TABLE_CATALOG,
   * TABLE_SCHEMA, TABLE_NAME, VIEW_DEFINITION} (the view's query as it was written),
   * {@code CHECK_OPTION} ({@code NONE}) and {@code IS_UPDATABLE} ({@code NO}: a view's rows come
   * from its query alone).
   */
  List<Object[]> informationSchemaViews() {
    List<Object[]> rows = new ArrayList<>();
    for (Table t : tables()) {
      if (t.kind() == TableKind.MATERIALIZED_VIEW) {
        // A view's remarks are the statement that created it.
        rows.add(new Object[] {null, t.schema(), t.name(), ViewDefinition.of(t.remarks()),
            "NONE", "NO"});
      }
    }
    return rows;
  }

  /**
   * The rows of {@code INFORMATION_SCHEMA.COLUMNS}, one per column of each table that
   * {@link #tables()} lists: {@code TABLE_CATALOG, TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME,
   * ORDINAL_POSITION} (from 1), {@code DATA_TYPE} (the type's name), {@code IS_NULLABLE}
   * ({@code YES} or {@code NO}), {@code CHARACTER_MAXIMUM_LENGTH} (of a string, else NULL),
   * {@code NUMERIC_PRECISION} and {@code NUMERIC_SCALE} (of a number, else NULL).
   */
  List<Object[]> informationSchemaColumns() {
    List<Object[]> rows = new ArrayList<>();
    for (Table t : tables()) {
      for (int i = 0; i < t.columns().size(); i++) {
        ResultColumn c = t.columns().get(i);
        boolean numeric = isNumeric(c.jdbcType());
        rows.add(new Object[] {null, t.schema(), t.name(), c.name(), i + 1, c.typeName(),
            c.nullable() ? "YES" : "NO", characterMaximumLength(c),
            numeric && c.precision() > 0 ? c.precision() : null,
            numeric && c.scale() >= 0 ? c.scale() : null});
      }
    }
    return rows;
  }

  /**
   * The most characters a string column holds: its declared length, or for a VARCHAR without
   * one the longest VARCHAR (what {@link #types()} says of VARCHAR); null for other types.
   */
  public static @Nullable Integer characterMaximumLength(ResultColumn column) {
    switch (column.jdbcType()) {
    case java.sql.Types.CHAR:
    case java.sql.Types.VARCHAR:
      return column.precision() > 0 ? column.precision() : LONGEST_VARCHAR;
    default:
      return null;
    }
  }

  private static boolean isNumeric(int jdbcType) {
    switch (jdbcType) {
    case java.sql.Types.TINYINT:
    case java.sql.Types.SMALLINT:
    case java.sql.Types.INTEGER:
    case java.sql.Types.BIGINT:
    case java.sql.Types.DECIMAL:
    case java.sql.Types.NUMERIC:
    case java.sql.Types.REAL:
    case java.sql.Types.FLOAT:
    case java.sql.Types.DOUBLE:
      return true;
    default:
      return false;
    }
  }

  /**
   * A stream, view or system table.
   *
   * @param schema {@link #DEFAULT_SCHEMA} or {@link #SYSTEM_SCHEMA}
   * @param name the name as stored (unquoted names are upper case)
   * @param kind what it is
   * @param columns its columns, as {@code SELECT *} returns them
   * @param remarks a description: a view's {@code CREATE} statement, or what a system table holds
   * @param columnRemarks for each column, a description or null: a stream's watermark column
   *     says its delay, as {@code DESCRIBE} does
   */
  public record Table(String schema, String name, TableKind kind, List<ResultColumn> columns,
      @Nullable String remarks, List<@Nullable String> columnRemarks) {
    public Table {
      requireNonNull(schema, "schema");
      requireNonNull(name, "name");
      requireNonNull(kind, "kind");
      columns = List.copyOf(columns);
      // List.copyOf rejects nulls, and most columns have no remark.
      columnRemarks = Collections.unmodifiableList(new ArrayList<>(columnRemarks));
      if (columnRemarks.size() != columns.size()) {
        throw new IllegalArgumentException(columns.size() + " columns but "
            + columnRemarks.size() + " column remarks");
      }
    }
  }

  /**
   * A type that columns can have.
   *
   * @param name SQL name, e.g. {@code DECIMAL}
   * @param jdbcType the {@link java.sql.Types} code
   * @param maxPrecision the largest precision or length; for TIME and TIMESTAMP, the most
   *     digits of fractional seconds
   * @param minScale the smallest scale, -1 if the type has none
   * @param maxScale the largest scale, -1 if the type has none
   * @param literalPrefix what starts a literal, e.g. {@code DATE '}, or null
   * @param literalSuffix what ends a literal, or null
   * @param createParams the parameters a declaration takes, e.g. {@code precision,scale}, or null
   * @param caseSensitive whether values compare case-sensitively
   * @param radix 10 for numbers, 0 otherwise
   */
  public record SqlType(String name, int jdbcType, int maxPrecision, int minScale, int maxScale,
      @Nullable String literalPrefix, @Nullable String literalSuffix,
      @Nullable String createParams, boolean caseSensitive, int radix) {
  }

  /** The length of the longest VARCHAR, 65536. */
  private static final int LONGEST_VARCHAR =
      FreshetTypeSystem.INSTANCE.getMaxPrecision(SqlTypeName.VARCHAR);

  private final Engine engine;
  /** Whose view of the engine this is: listings show only what it may see. */
  private final Principal viewer;

  /** Describes {@code engine} as its administrator sees it. */
  public EngineMetadata(Engine engine) {
    this(engine, Principal.LOCAL);
  }

  /**
   * Describes {@code engine} as {@code viewer} sees it: the streams, views and tables it owns or
   * was granted a privilege on (all, for an administrator), and the system tables.
   */
  public EngineMetadata(Engine engine, Principal viewer) {
    this.engine = requireNonNull(engine, "engine");
    this.viewer = requireNonNull(viewer, "viewer");
  }

  /** The schemas, sorted: {@code FRESHET} and {@code SYS}. */
  public List<String> schemas() {
    return List.of(DEFAULT_SCHEMA, SYSTEM_SCHEMA);
  }

  /** Every stream, view, table and system table, sorted by schema and name. */
  public List<Table> tables() {
    RelDataTypeFactory typeFactory = engine.planner().typeFactory();
    Catalog catalog = engine.catalog();
    TreeMap<String, Table> byName = new TreeMap<>();
    for (String name : catalog.streamNames()) {
      if (!engine.access().canSee(viewer, name)) {
        continue;
      }
      // A stream dropped since the list was taken is left out.
      catalog.stream(name).ifPresent(s -> byName.put(name, stream(s, typeFactory)));
    }
    for (ViewTable view : catalog.views()) {
      if (!engine.access().canSee(viewer, view.name())) {
        continue;
      }
      RelDataType rowType = view.getRowType(typeFactory);
      byName.put(view.name(), new Table(DEFAULT_SCHEMA, view.name(),
          TableKind.MATERIALIZED_VIEW, columns(rowType), view.sql(),
          noRemarks(rowType.getFieldCount())));
    }
    for (ReferenceTable table : catalog.referenceTables()) {
      if (!engine.access().canSee(viewer, table.name())) {
        continue;
      }
      RelDataType rowType = table.getRowType(typeFactory);
      byName.put(table.name(), new Table(DEFAULT_SCHEMA, table.name(), TableKind.TABLE,
          columns(rowType), table.writable() ? "Reference table"
              : "Reference table read from " + table.options().get("table-name") + " at "
                  + Redaction.url(table.options().get("url")), noRemarks(rowType.getFieldCount())));
    }
    List<Table> tables = new ArrayList<>(byName.values());
    // The tables are computed at each scan; a schema over no queries still has their columns.
    Map<String, org.apache.calcite.schema.Table> system =
        new TreeMap<>(new SystemSchema(List::of).getTableMap());
    system.forEach((name, table) -> {
      RelDataType rowType = table.getRowType(typeFactory);
      tables.add(new Table(SYSTEM_SCHEMA, name, TableKind.SYSTEM_TABLE, columns(rowType),
          SYSTEM_TABLE_REMARKS.get(name), noRemarks(rowType.getFieldCount())));
    });
    return tables;
  }

  /**
   * The connector of stream {@code name} (as {@code WITH ('connector' = ...)} names it,
   * {@code memory} by default), or empty if there is no such stream: what the web UI shows.
   *
   * <pre>{@code
   * new EngineMetadata(engine).streamConnector("CLICKS");   // Optional[memory]
   * }</pre>
   */
  public Optional<String> streamConnector(String name) {
    return engine.catalog().stream(name).map(StreamTable::connector);
  }

  private static Table stream(StreamTable stream, RelDataTypeFactory typeFactory) {
    RelDataType rowType = stream.getRowType(typeFactory);
    Optional<WatermarkSpec> watermark = stream.watermark();
    List<@Nullable String> remarks = new ArrayList<>();
    for (RelDataTypeField field : rowType.getFieldList()) {
      remarks.add(watermark.filter(w -> w.column().equals(field.getName()))
          .map(w -> "WATERMARK " + w.delayMs() + " ms").orElse(null));
    }
    return new Table(DEFAULT_SCHEMA, stream.name(), TableKind.STREAM, columns(rowType), null,
        remarks);
  }

  /**
   * The columns of {@code table} that identify its rows: a table's declared primary key; a
   * materialized view's group key, when every key column is a column of the view; otherwise (a
   * global aggregate, a view that does not aggregate or appends, a key the view does not show
   * whole) none. In the order of the key.
   */
  public List<String> primaryKey(Table table) {
    if (table.kind() == TableKind.TABLE) {
      return engine.catalog().table(table.name()).map(ReferenceTable::primaryKey)
          .orElse(List.of());
    }
    if (table.kind() != TableKind.MATERIALIZED_VIEW) {
      return List.of();
    }
    Optional<ViewTable> view = engine.catalog().view(table.name());
    return view.isPresent() ? ViewKeys.visibleKey(engine, view.get()) : List.of();
  }

  /** The types columns can have, in the order of their {@link java.sql.Types} codes. */
  public static List<SqlType> types() {
    RelDataTypeSystem system = FreshetTypeSystem.INSTANCE;
    List<SqlType> types = new ArrayList<>();
    for (SqlTypeName type : TYPES) {
      boolean scaled = type == SqlTypeName.DECIMAL;
      types.add(new SqlType(type.getName(), type.getJdbcOrdinal(), system.getMaxPrecision(type),
          scaled ? system.getMinScale(type) : -1, scaled ? system.getMaxScale(type) : -1,
          system.getLiteral(type, true), system.getLiteral(type, false), createParams(type),
          system.isCaseSensitive(type), system.getNumTypeRadix(type)));
    }
    return types;
  }

  private static @Nullable String createParams(SqlTypeName type) {
    switch (type) {
    case CHAR:
    case VARCHAR:
      return "length";
    case DECIMAL:
      return "precision,scale";
    case TIME:
    case TIMESTAMP:
      return "precision";
    default:
      return null;
    }
  }

  /**
   * The keywords of Freshet's SQL that are not SQL:2003 keywords, comma-separated, as
   * {@code DatabaseMetaData.getSQLKeywords()} lists them (e.g. {@code EMIT}, {@code WATERMARK}).
   */
  public static String sqlKeywords() {
    return FreshetSqlParser.config().parserFactory().getParser(new StringReader(""))
        .getMetadata().getJdbcKeywords();
  }

  /** The JDBC escape functions ({@code {fn ABS(x)}}) on numbers, comma-separated. */
  public static String numericFunctions() {
    return SqlJdbcFunctionCall.getNumericFunctions();
  }

  /** The JDBC escape functions on strings, comma-separated. */
  public static String stringFunctions() {
    return SqlJdbcFunctionCall.getStringFunctions();
  }

  /** The JDBC escape system functions, comma-separated. */
  public static String systemFunctions() {
    return SqlJdbcFunctionCall.getSystemFunctions();
  }

  /** The JDBC escape functions on dates and times, comma-separated. */
  public static String timeDateFunctions() {
    return SqlJdbcFunctionCall.getTimeDateFunctions();
  }

  private static List<ResultColumn> columns(RelDataType rowType) {
    return rowType.getFieldList().stream().map(ResultColumn::of).toList();
  }

  private static List<@Nullable String> noRemarks(int columns) {
    List<@Nullable String> remarks = new ArrayList<>(columns);
    for (int i = 0; i < columns; i++) {
      remarks.add(null);
    }
    return remarks;
  }

  /**
   * The executor of {@code engine}'s plain queries over {@code catalog}, whose system tables
   * ({@code sys}, {@code information_schema}) list what the statement's user may see.
   */
  static PullQueryExecutor pullQueries(Engine engine, Catalog catalog) {
    return new PullQueryExecutor(catalog, new SystemSchema(
        () -> engine.visibleQueries(CurrentPrincipal.get()),
        () -> new EngineMetadata(engine, CurrentPrincipal.get()).primaryKeyRows(),
        () -> Grants.rows(engine, CurrentPrincipal.get(), Optional.empty())),
        new InformationSchema(
            () -> new EngineMetadata(engine, CurrentPrincipal.get()).informationSchemaTables(),
            () -> new EngineMetadata(engine, CurrentPrincipal.get()).informationSchemaColumns(),
            () -> new EngineMetadata(engine, CurrentPrincipal.get()).informationSchemaViews()));
  }
}
