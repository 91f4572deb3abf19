package dev.freshet.jdbc;

import static dev.freshet.jdbc.MetadataCatalog.labels;
import static dev.freshet.jdbc.MetadataCatalog.rows;
import static dev.freshet.jdbc.ViewResults.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import org.apache.calcite.avatica.AvaticaSpecificDatabaseMetaData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link DatabaseMetaData} over a known catalog ({@link MetadataCatalog}): the tables, columns,
 * keys, schemas and types that BI tools and sqlline list, their filters, and the calls that have
 * nothing to list.
 */
class MetadataTest {
  private static final String[] TABLE_LABELS = {"TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME",
      "TABLE_TYPE", "REMARKS"};
  private static final String[] COLUMN_LABELS = {"TABLE_NAME", "COLUMN_NAME",
      "ORDINAL_POSITION"};

  private Connection connection;
  private DatabaseMetaData metaData;

  @BeforeEach void connect() throws Exception {
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
    try (Statement statement = connection.createStatement()) {
      MetadataCatalog.create(statement);
    }
    metaData = connection.getMetaData();
  }

  @AfterEach void close() throws Exception {
    connection.close();
  }

  private static List<Object> stream(String name) {
    return row(null, "FRESHET", name, "TABLE", null);
  }

  private static List<Object> view(String name, String sql) {
    return row(null, "FRESHET", name, "VIEW", sql);
  }

  private static List<Object> systemTable(String name, String remarks) {
    return row(null, "SYS", name, "SYSTEM TABLE", remarks);
  }

  private List<List<Object>> tables(String catalog, String schemaPattern, String tablePattern,
      String... types) throws SQLException {
    return rows(metaData.getTables(catalog, schemaPattern, tablePattern,
        types.length == 0 ? null : types), TABLE_LABELS);
  }

  @Test void shouldListEveryTableByTypeSchemaAndName() throws Exception {
    List<List<Object>> expected = List.of(
        systemTable("PRIMARY_KEYS", "The key columns of each view, as"
            + " DatabaseMetaData.getPrimaryKeys lists them"),
        systemTable("PRIVILEGES", "The owner of each object and the privileges granted on it,"
            + " as SHOW GRANTS lists them"),
        systemTable("QUERIES", "One row per continuous query, with the metrics of its last"
            + " batch"),
        systemTable("QUERY_PROGRESS", "One row per recent batch of each continuous query (the"
            + " last 100)"),
        systemTable("STATE_OPERATORS", "One row per stateful operator of each continuous"
            + " query: its kind, what bounds its state, its rows and bytes"),
        stream("ORDERS"),
        stream("SALESXTOTAL"),
        view("BIG_ORDERS", MetadataCatalog.BIG_ORDERS),
        view("CUSTOMER_ONLY", MetadataCatalog.CUSTOMER_ONLY),
        view("REGION_ORDERS", MetadataCatalog.REGION_ORDERS),
        view("SALES_BY_CUSTOMER", MetadataCatalog.SALES_BY_CUSTOMER),
        view("SALES_TOTAL", MetadataCatalog.SALES_TOTAL),
        view("UPPER_CUSTOMERS", MetadataCatalog.UPPER_CUSTOMERS));
    assertEquals(expected, tables(null, null, null));
    assertEquals(expected, tables(null, "%", "%"));
    // The other columns of getTables say nothing about Freshet's tables.
    List<List<Object>> all = rows(metaData.getTables(null, null, "ORDERS", null));
    assertEquals(List.of(Arrays.asList(null, "FRESHET", "ORDERS", "TABLE", null, null, null,
        null, null, null)), all);
  }

  @Test void shouldListOnlyTheTablesOfTheTypesAskedFor() throws Exception {
    assertEquals(List.of(
        view("BIG_ORDERS", MetadataCatalog.BIG_ORDERS),
        view("CUSTOMER_ONLY", MetadataCatalog.CUSTOMER_ONLY),
        view("REGION_ORDERS", MetadataCatalog.REGION_ORDERS),
        view("SALES_BY_CUSTOMER", MetadataCatalog.SALES_BY_CUSTOMER),
        view("SALES_TOTAL", MetadataCatalog.SALES_TOTAL),
        view("UPPER_CUSTOMERS", MetadataCatalog.UPPER_CUSTOMERS)),
        tables(null, null, "%", "VIEW"));
    assertEquals(List.of(
        systemTable("PRIMARY_KEYS", "The key columns of each view, as"
            + " DatabaseMetaData.getPrimaryKeys lists them"),
        systemTable("PRIVILEGES", "The owner of each object and the privileges granted on it,"
            + " as SHOW GRANTS lists them"),
        systemTable("QUERIES", "One row per continuous query, with the metrics of its last"
            + " batch"),
        systemTable("QUERY_PROGRESS", "One row per recent batch of each continuous query (the"
            + " last 100)"),
        systemTable("STATE_OPERATORS", "One row per stateful operator of each continuous"
            + " query: its kind, what bounds its state, its rows and bytes"),
        stream("ORDERS"), stream("SALESXTOTAL")),
        tables(null, null, "%", "SYSTEM TABLE", "table"));
    // Streams are TABLEs, so that tools asking for TABLE and VIEW, as SchemaCrawler's default
    // crawl does, see every stream and view.
    assertEquals(List.of(stream("ORDERS"), stream("SALESXTOTAL"),
        view("BIG_ORDERS", MetadataCatalog.BIG_ORDERS),
        view("CUSTOMER_ONLY", MetadataCatalog.CUSTOMER_ONLY),
        view("REGION_ORDERS", MetadataCatalog.REGION_ORDERS),
        view("SALES_BY_CUSTOMER", MetadataCatalog.SALES_BY_CUSTOMER),
        view("SALES_TOTAL", MetadataCatalog.SALES_TOTAL),
        view("UPPER_CUSTOMERS", MetadataCatalog.UPPER_CUSTOMERS)),
        tables(null, null, "%", "TABLE", "VIEW"));
    assertEquals(List.of(), tables(null, null, "%", "STREAM"));
  }

  @Test void shouldMatchSchemaAndTableNamePatterns() throws Exception {
    assertEquals(List.of("PRIMARY_KEYS", "PRIVILEGES", "QUERIES", "QUERY_PROGRESS",
        "STATE_OPERATORS"),
        names(tables(null, "SYS", null)));
    assertEquals(List.of("SALESXTOTAL", "SALES_BY_CUSTOMER", "SALES_TOTAL"),
        names(tables(null, "FRE%", "SALES%")));
    // _ is any one character; escaped, an underscore.
    assertEquals(List.of("SALESXTOTAL", "SALES_TOTAL"), names(tables(null, null, "SALES_TOTAL")));
    assertEquals(List.of("SALES_TOTAL"), names(tables(null, null, "SALES\\_TOTAL")));
    assertEquals(List.of("ORDERS", "BIG_ORDERS", "REGION_ORDERS"),
        names(tables(null, null, "%ORDERS")));
    assertEquals(List.of("QUERIES"), names(tables(null, "S_S", "QUER_ES")));
    // Names are matched as stored: unquoted names are upper case.
    assertEquals(List.of(), tables(null, null, "orders"));
    assertEquals(List.of(), tables(null, "FRESHET", "QUERIES"));
    // Freshet has no catalogs: "" asks for tables without one (all), a name for none; "" as
    // schema asks for tables without schema (none).
    assertEquals(13, tables("", null, null).size());
    assertEquals(List.of(), tables("FRESHET", null, null));
    assertEquals(List.of(), tables(null, "", null));
  }

  private static List<Object> names(List<List<Object>> tables) {
    List<Object> names = new ArrayList<>();
    for (List<Object> table : tables) {
      names.add(table.get(2));
    }
    return names;
  }

  @Test void shouldDescribeTheColumnsOfAStream() throws Exception {
    assertEquals(List.of(
        column("ORDER_ID", Types.BIGINT, "BIGINT", 19, 0, 10, false, null, null, 1),
        column("CUSTOMER", Types.VARCHAR, "VARCHAR", 20, null, null, true, null, 20, 2),
        column("REGION", Types.CHAR, "CHAR", 2, null, null, true, null, 2, 3),
        column("AMOUNT", Types.DECIMAL, "DECIMAL", 10, 2, 10, true, null, null, 4),
        column("QTY", Types.INTEGER, "INTEGER", 10, 0, 10, true, null, null, 5),
        column("PAID", Types.BOOLEAN, "BOOLEAN", 1, null, null, true, null, null, 6),
        // The length of "2026-01-01 10:00:00.250", 3 digits of seconds; the watermark's delay.
        column("TS", Types.TIMESTAMP, "TIMESTAMP", 23, 3, null, true, "WATERMARK 5000 ms", null,
            7),
        // A VARCHAR without length has the longest VARCHAR's size, as getTypeInfo reports it.
        column("NOTE", Types.VARCHAR, "VARCHAR", 65536, null, null, true, null, 65536, 8)),
        rows(metaData.getColumns(null, "FRESHET", "ORDERS", null)));
  }

  /** A row of getColumns for table ORDERS. */
  private static List<Object> column(String name, int type, String typeName, Integer size,
      Integer decimalDigits, Integer radix, boolean nullable, String remarks,
      Integer charOctetLength, int position) {
    return Arrays.asList(null, "FRESHET", "ORDERS", name, type, typeName, size, null,
        decimalDigits, radix, nullable ? DatabaseMetaData.columnNullable
            : DatabaseMetaData.columnNoNulls, remarks, null, null, null, charOctetLength,
        position, nullable ? "YES" : "NO", null, null, null, null, "NO", "NO");
  }

  @Test void shouldMatchColumnNamePatterns() throws Exception {
    assertEquals(List.of(row("SALES_BY_CUSTOMER", "TOTAL", 4), row("SALES_TOTAL", "TOTAL", 2)),
        rows(metaData.getColumns(null, null, "SALES%", "TOTAL"), COLUMN_LABELS));
    assertEquals(List.of(row("QUERIES", "QUERY_ID", 1), row("QUERIES", "LAST_BATCH_ID", 5)),
        rows(metaData.getColumns(null, "SYS", "QUERIES", "%\\_ID"), COLUMN_LABELS));
    assertEquals(List.of(), rows(metaData.getColumns(null, null, "ORDERS", "ts")));
  }

  /**
   * For every table, getColumns says what the ResultSetMetaData of {@code SELECT *} over it says:
   * the same names, types and nullability, and sizes by JDBC's definitions of each.
   */
  @Test void shouldDescribeEveryTableAsSelectStarDoes() throws Exception {
    List<List<Object>> tables = rows(metaData.getTables(null, null, null, null),
        "TABLE_SCHEM", "TABLE_NAME");
    assertEquals(13, tables.size());
    try (Statement statement = connection.createStatement()) {
      for (List<Object> table : tables) {
        String name = "\"" + table.get(0) + "\".\"" + table.get(1) + "\"";
        // As a pattern, SALES_TOTAL would match SALESXTOTAL too.
        String pattern = ((String) table.get(1)).replace("_", "\\_");
        List<List<Object>> columns = rows(metaData.getColumns(null, (String) table.get(0),
            pattern, null), "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME", "COLUMN_SIZE",
            "DECIMAL_DIGITS", "NULLABLE");
        try (ResultSet rs = statement.executeQuery("SELECT * FROM " + name + " WHERE 1 = 0")) {
          assertEquals(selectStar(rs.getMetaData()), columns, name);
        }
      }
    }
  }

  /** What getColumns should say of each column of {@code md}. */
  private static List<List<Object>> selectStar(ResultSetMetaData md) throws SQLException {
    List<List<Object>> columns = new ArrayList<>();
    for (int c = 1; c <= md.getColumnCount(); c++) {
      int type = md.getColumnType(c);
      Integer size = md.getPrecision(c) == 0 ? null : md.getPrecision(c);
      Integer digits;
      switch (type) {
      case Types.VARCHAR:
        // A VARCHAR without length: getPrecision() is 0, "unknown"; COLUMN_SIZE, the longest.
        size = md.getPrecision(c) == 0 ? 65536 : md.getPrecision(c);
        digits = null;
        break;
      case Types.TIMESTAMP:
        // getPrecision() counts digits of seconds; COLUMN_SIZE, the characters of the text.
        size = 19 + (md.getPrecision(c) > 0 ? 1 + md.getPrecision(c) : 0);
        digits = md.getPrecision(c);
        break;
      case Types.BIGINT:
      case Types.INTEGER:
      case Types.SMALLINT:
      case Types.TINYINT:
      case Types.DECIMAL:
        digits = md.getScale(c);
        break;
      default:
        digits = null;
      }
      columns.add(Arrays.asList(md.getColumnLabel(c), type, md.getColumnTypeName(c), size,
          digits, md.isNullable(c)));
    }
    return columns;
  }

  @Test void shouldReportTheVisibleGroupKeyOfAViewAsItsPrimaryKey() throws Exception {
    assertEquals(List.of(
        row(null, "FRESHET", "SALES_BY_CUSTOMER", "CUSTOMER", (short) 1, "PK_SALES_BY_CUSTOMER"),
        row(null, "FRESHET", "SALES_BY_CUSTOMER", "REGION", (short) 2, "PK_SALES_BY_CUSTOMER")),
        rows(metaData.getPrimaryKeys(null, "FRESHET", "SALES_BY_CUSTOMER")));
    // EMIT COMPLETE keeps one row per group too.
    assertEquals(List.of(
        row(null, "FRESHET", "REGION_ORDERS", "REGION", (short) 1, "PK_REGION_ORDERS")),
        rows(metaData.getPrimaryKeys(null, null, "REGION_ORDERS")));
    // No key: a global aggregate, an appending view, a key shown through UPPER, part of a key,
    // a stream, a system table.
    for (String table : List.of("SALES_TOTAL", "BIG_ORDERS", "UPPER_CUSTOMERS",
        "CUSTOMER_ONLY", "ORDERS", "QUERIES")) {
      assertEquals(List.of(), rows(metaData.getPrimaryKeys(null, null, table)), table);
    }
    assertEquals(List.of(), rows(metaData.getPrimaryKeys(null, "SYS", "SALES_BY_CUSTOMER")));
    assertEquals(List.of(row("REGION_ORDERS", "REGION"), row("SALES_BY_CUSTOMER", "CUSTOMER"),
        row("SALES_BY_CUSTOMER", "REGION")),
        rows(metaData.getPrimaryKeys(null, null, null), "TABLE_NAME", "COLUMN_NAME"));
    ResultSet keys = metaData.getPrimaryKeys(null, null, "REGION_ORDERS");
    assertEquals(List.of("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ",
        "PK_NAME"), labels(keys.getMetaData()));
    assertEquals(Types.SMALLINT, keys.getMetaData().getColumnType(5));
    keys.close();
  }

  @Test void shouldListTheSchemasAndBeInTheDefaultOne() throws Exception {
    assertEquals(List.of(row("FRESHET", null), row("SYS", null)), rows(metaData.getSchemas()));
    assertEquals(List.of(row("SYS", null)), rows(metaData.getSchemas(null, "S%")));
    assertEquals(List.of(row("FRESHET", null), row("SYS", null)),
        rows(metaData.getSchemas("", null)));
    assertEquals(List.of(), rows(metaData.getSchemas("X", null)));
    assertEquals(List.of(), rows(metaData.getCatalogs()));
    assertEquals(List.of("TABLE_CAT"), labels(metaData.getCatalogs().getMetaData()));
    assertEquals(List.of(row("SYSTEM TABLE"), row("TABLE"), row("VIEW")),
        rows(metaData.getTableTypes()));

    assertEquals("FRESHET", connection.getSchema());
    assertNull(connection.getCatalog());
    connection.setSchema("FRESHET");
    SQLException e = assertThrows(SQLException.class, () -> connection.setSchema("SYS"));
    assertEquals("3F000", e.getSQLState());
    assertEquals("Schema 'SYS' cannot be the connection's schema: Freshet resolves names in"
        + " FRESHET, which holds the streams and views. Qualify the names of system tables"
        + " instead, e.g. SELECT * FROM SYS.QUERIES", e.getMessage());
    assertEquals("FRESHET", connection.getSchema());
    // JDBC: a driver without catalogs ignores them.
    connection.setCatalog("somewhere");
    assertNull(connection.getCatalog());
    assertTrue(connection.getAutoCommit());
    assertFalse(connection.isReadOnly());
    assertEquals(Connection.TRANSACTION_READ_COMMITTED, connection.getTransactionIsolation());
  }

  @Test void shouldListTheTypesThatColumnsCanHave() throws Exception {
    List<List<Object>> types = rows(metaData.getTypeInfo());
    short nullable = (short) DatabaseMetaData.typeNullable;
    short searchable = (short) DatabaseMetaData.typeSearchable;
    assertEquals(List.of(
        type("TINYINT", Types.TINYINT, 3, null, null, null, false, 0, 0, 10),
        type("BIGINT", Types.BIGINT, 19, null, null, null, false, 0, 0, 10),
        type("CHAR", Types.CHAR, 65536, "'", "'", "length", true, 0, 0, null),
        type("DECIMAL", Types.DECIMAL, 19, null, null, "precision,scale", false, 0, 19, 10),
        type("INTEGER", Types.INTEGER, 10, null, null, null, false, 0, 0, 10),
        type("SMALLINT", Types.SMALLINT, 5, null, null, null, false, 0, 0, 10),
        type("FLOAT", Types.FLOAT, 15, null, null, null, false, 0, 0, 10),
        type("REAL", Types.REAL, 7, null, null, null, false, 0, 0, 10),
        type("DOUBLE", Types.DOUBLE, 15, null, null, null, false, 0, 0, 10),
        type("VARCHAR", Types.VARCHAR, 65536, "'", "'", "length", true, 0, 0, null),
        type("BOOLEAN", Types.BOOLEAN, 1, null, null, null, false, 0, 0, null),
        type("DATE", Types.DATE, 10, "DATE '", "'", null, false, 0, 0, null),
        type("TIME", Types.TIME, 12, "TIME '", "'", "precision", false, 0, 3, null),
        type("TIMESTAMP", Types.TIMESTAMP, 23, "TIMESTAMP '", "'", "precision", false, 0, 3,
            null)), types);
    for (List<Object> type : types) {
      assertEquals(nullable, type.get(6));
      assertEquals(searchable, type.get(8));
    }
  }

  private static List<Object> type(String name, int code, int precision, String prefix,
      String suffix, String createParams, boolean caseSensitive, int minScale, int maxScale,
      Integer radix) {
    return Arrays.asList(name, code, precision, prefix, suffix, createParams,
        (short) DatabaseMetaData.typeNullable, caseSensitive,
        (short) DatabaseMetaData.typeSearchable, false, false, false, name, (short) minScale,
        (short) maxScale, null, null, radix);
  }

  @Test void shouldAcceptEveryTypeItListsInAStream() throws Exception {
    List<List<Object>> types = rows(metaData.getTypeInfo(), "TYPE_NAME", "DATA_TYPE");
    StringBuilder columns = new StringBuilder();
    for (List<Object> type : types) {
      columns.append(columns.length() == 0 ? "" : ", ").append("c_").append(type.get(0))
          .append(' ').append(type.get(0));
    }
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE STREAM all_types (" + columns + ")");
    }
    assertEquals(new HashSet<>(types), new HashSet<>(rows(metaData.getColumns(null, null,
        "ALL_TYPES", null), "TYPE_NAME", "DATA_TYPE")));
  }

  @Test void shouldAnswerWhatToolsAskOnConnecting() throws Exception {
    assertEquals("Freshet", metaData.getDatabaseProductName());
    assertEquals("0.1.0", metaData.getDatabaseProductVersion());
    assertEquals("Freshet JDBC Driver", metaData.getDriverName());
    assertEquals("\"", metaData.getIdentifierQuoteString());
    assertEquals("\\", metaData.getSearchStringEscape());
    assertTrue(metaData.storesUpperCaseIdentifiers());
    assertEquals(Connection.TRANSACTION_READ_COMMITTED, metaData.getDefaultTransactionIsolation());
    assertFalse(metaData.isReadOnly());
    assertFalse(metaData.supportsCatalogsInDataManipulation());
    assertTrue(metaData.supportsSchemasInDataManipulation());
    // Freshet's own words, not SQL:2003's.
    Set<String> keywords = Set.of(metaData.getSQLKeywords().split(","));
    assertTrue(keywords.containsAll(Set.of("EMIT", "STREAM", "SHOW")), keywords.toString());
    assertFalse(keywords.contains("SELECT"), keywords.toString());
    assertTrue(Set.of(metaData.getNumericFunctions().split(",")).contains("ABS"));
    assertTrue(Set.of(metaData.getStringFunctions().split(",")).contains("UCASE"));
    assertTrue(Set.of(metaData.getTimeDateFunctions().split(",")).contains("NOW"));
    // A remote client asks the server; it answers as the embedded driver does.
    Properties server = metaData.unwrap(AvaticaSpecificDatabaseMetaData.class)
        .getRemoteAvaticaProperties();
    assertEquals(metaData.getDatabaseProductName(),
        server.getProperty("GET_DATABASE_PRODUCT_NAME"));
    assertEquals(metaData.getDatabaseProductVersion(),
        server.getProperty("GET_DATABASE_PRODUCT_VERSION"));
    assertEquals(metaData.getDriverName(), server.getProperty("GET_DRIVER_NAME"));
    assertEquals(metaData.getDriverVersion(), server.getProperty("GET_DRIVER_VERSION"));
  }

  @Test void shouldAnswerWithNothingWhatFreshetDoesNotHave() throws Exception {
    List<String> keys = List.of("PKTABLE_CAT", "PKTABLE_SCHEM", "PKTABLE_NAME", "PKCOLUMN_NAME",
        "FKTABLE_CAT", "FKTABLE_SCHEM", "FKTABLE_NAME", "FKCOLUMN_NAME", "KEY_SEQ",
        "UPDATE_RULE", "DELETE_RULE", "FK_NAME", "PK_NAME", "DEFERRABILITY");
    assertEmpty(metaData.getImportedKeys(null, "FRESHET", "ORDERS"), keys);
    assertEmpty(metaData.getExportedKeys(null, "FRESHET", "ORDERS"), keys);
    assertEmpty(metaData.getCrossReference(null, "FRESHET", "ORDERS", null, "FRESHET",
        "SALES_TOTAL"), keys);
    assertEmpty(metaData.getIndexInfo(null, "FRESHET", "ORDERS", false, true),
        List.of("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "NON_UNIQUE", "INDEX_QUALIFIER",
            "INDEX_NAME", "TYPE", "ORDINAL_POSITION", "COLUMN_NAME", "ASC_OR_DESC",
            "CARDINALITY", "PAGES", "FILTER_CONDITION"));
    assertEmpty(metaData.getProcedures(null, null, "%"), List.of("PROCEDURE_CAT",
        "PROCEDURE_SCHEM", "PROCEDURE_NAME", "RESERVED1", "RESERVED2", "RESERVED3", "REMARKS",
        "PROCEDURE_TYPE", "SPECIFIC_NAME"));
    assertEmpty(metaData.getFunctions(null, null, "%"), List.of("FUNCTION_CAT",
        "FUNCTION_SCHEM", "FUNCTION_NAME", "REMARKS", "FUNCTION_TYPE", "SPECIFIC_NAME"));
    List<String> rowIdentifier = List.of("SCOPE", "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME",
        "COLUMN_SIZE", "BUFFER_LENGTH", "DECIMAL_DIGITS", "PSEUDO_COLUMN");
    assertEmpty(metaData.getBestRowIdentifier(null, "FRESHET", "ORDERS",
        DatabaseMetaData.bestRowSession, true), rowIdentifier);
    assertEmpty(metaData.getVersionColumns(null, "FRESHET", "ORDERS"), rowIdentifier);
    assertEmpty(metaData.getClientInfoProperties(), List.of("NAME", "MAX_LEN",
        "DEFAULT_VALUE", "DESCRIPTION"));
    for (ResultSet rs : List.of(metaData.getProcedureColumns(null, null, "%", "%"),
        metaData.getFunctionColumns(null, null, "%", "%"),
        metaData.getColumnPrivileges(null, "FRESHET", "ORDERS", "%"),
        metaData.getTablePrivileges(null, null, "%"),
        metaData.getUDTs(null, null, "%", null), metaData.getSuperTypes(null, null, "%"),
        metaData.getSuperTables(null, null, "%"),
        metaData.getAttributes(null, null, "%", "%"),
        metaData.getPseudoColumns(null, null, "%", "%"))) {
      assertEquals(List.of(), rows(rs));
    }
  }

  private static void assertEmpty(ResultSet rs, List<String> labels) throws SQLException {
    assertEquals(labels, MetadataCatalog.labels(rs.getMetaData()));
    assertEquals(List.of(), rows(rs));
  }
}
