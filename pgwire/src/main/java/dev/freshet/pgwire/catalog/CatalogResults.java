package dev.freshet.pgwire.catalog;

import dev.freshet.engine.query.ResultColumn;
import dev.freshet.engine.query.StatementResult;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A catalog query's rows as the endpoint sends them, each column described with the
 * PostgreSQL type the real {@code pg_catalog} has: the H2 database keeps OIDs as INTEGER and
 * {@code name} as VARCHAR, so a column read straight from a catalog table is described by its
 * name ({@code pg_class.oid} and {@code relnamespace} as {@code oid}, {@code relname} as
 * {@code name}, {@code relkind} as {@code "char"}, {@code indkey} as {@code int2vector},
 * {@code relacl} as {@code aclitem[]}); an expression by its value's type ({@code int4},
 * {@code text}, {@code bool}, arrays as {@code text[]}...).
 *
 * <pre>{@code
 * StatementResult.Rows rows = CatalogResults.rows(catalog.query("SELECT oid, relname FROM"
 *     + " pg_class", List.of()));   // columns oid (oid), relname (name)
 * }</pre>
 */
final class CatalogResults {
  /** Catalog columns of type oid (besides {@code oid} and names ending in oid/relid). */
  private static final Set<String> OID_COLUMNS = Set.of("relnamespace", "reltype",
      "reloftype", "relowner", "relam", "relfilenode", "reltablespace", "reltoastrelid",
      "typnamespace", "typowner", "typrelid", "typelem", "typarray", "typbasetype",
      "typcollation", "atttypid", "attcollation", "connamespace", "contypid", "conindid",
      "conparentid", "objoid", "classoid", "nspowner", "datdba", "dattablespace", "inhparent",
      "pronamespace", "proowner", "prolang", "prorettype", "provariadic", "collnamespace",
      "collowner", "amhandler", "castsource", "casttarget", "castfunc", "refobjid",
      "refclassid", "enumtypid", "rngtypid", "rngsubtype", "extnamespace", "extowner",
      "oprleft", "oprright", "oprresult", "oprnamespace", "opcmethod", "opcnamespace",
      "opfmethod", "member", "roleid", "grantor", "datcollation");
  /** Catalog columns of type "char". */
  private static final Set<String> CHAR_COLUMNS = Set.of("relkind", "relpersistence",
      "relreplident", "typtype", "typcategory", "typdelim", "typalign", "typstorage",
      "attalign", "attstorage", "attidentity", "attgenerated", "attcompression", "contype",
      "confupdtype", "confdeltype", "confmatchtype", "provolatile", "prokind", "proparallel",
      "amtype", "deptype", "castcontext", "castmethod", "datlocprovider", "collprovider");
  /** Catalog columns of type name that do not end in "name". */
  private static final Set<String> NAME_COLUMNS = Set.of("rolname", "usename", "datname",
      "attname", "relname", "nspname", "typname", "proname", "conname", "amname", "collname",
      "setting_name", "rolename", "grantee", "extname", "oprname", "opcname", "opfname");

  private CatalogResults() {
  }

  /** The rows of {@code result}, which it closes. */
  static StatementResult.Rows rows(ResultSet result) throws SQLException {
    try (result) {
      ResultSetMetaData md = result.getMetaData();
      int n = md.getColumnCount();
      List<ResultColumn> columns = new ArrayList<>(n);
      int[] kinds = new int[n];
      for (int i = 0; i < n; i++) {
        String type = pgType(md, i + 1);
        kinds[i] = md.getColumnType(i + 1);
        columns.add(new ResultColumn(md.getColumnLabel(i + 1), md.getColumnType(i + 1), type,
            type.equals("DECIMAL") ? md.getPrecision(i + 1) : -1,
            type.equals("DECIMAL") ? md.getScale(i + 1) : -1, true, 64, Object.class));
      }
      List<Object[]> rows = new ArrayList<>();
      while (result.next()) {
        Object[] row = new Object[n];
        for (int i = 0; i < n; i++) {
          row[i] = value(result, i + 1, kinds[i]);
        }
        rows.add(row);
      }
      return new StatementResult.Rows(columns, rows);
    }
  }

  private static Object value(ResultSet result, int i, int kind) throws SQLException {
    switch (kind) {
    case Types.ARRAY: {
      Array array = result.getArray(i);
      return array == null ? null : (Object[]) array.getArray();
    }
    case Types.DATE: {
      java.sql.Date d = result.getDate(i);
      return d == null ? null : (int) d.toLocalDate().toEpochDay();
    }
    case Types.TIMESTAMP: {
      java.time.LocalDateTime t = result.getObject(i, java.time.LocalDateTime.class);
      return t == null ? null : t.toInstant(java.time.ZoneOffset.UTC).toEpochMilli();
    }
    case Types.TIMESTAMP_WITH_TIMEZONE: {
      java.time.OffsetDateTime t = result.getObject(i, java.time.OffsetDateTime.class);
      return t == null ? null : t.toInstant().toEpochMilli();
    }
    default:
      return result.getObject(i);
    }
  }

  /** The PostgreSQL (or Freshet) type name column {@code i} is described with. */
  static String pgType(ResultSetMetaData md, int i) throws SQLException {
    String column = md.getColumnName(i).toLowerCase(Locale.ROOT);
    String schema = md.getSchemaName(i) == null ? "" : md.getSchemaName(i);
    boolean catalogColumn = schema.equalsIgnoreCase("pg_catalog");
    int type = md.getColumnType(i);
    switch (type) {
    case Types.ARRAY: {
      if (column.equals("indkey") || column.equals("indoption")) {
        return "int2vector";
      }
      if (column.equals("indclass") || column.equals("indcollation")
          || column.equals("proargtypes")) {
        return "oidvector";
      }
      if (catalogColumn && column.endsWith("acl")) {
        return "_aclitem";
      }
      String typeName = md.getColumnTypeName(i).toUpperCase(Locale.ROOT);
      if (typeName.startsWith("SMALLINT")) {
        return "_int2";
      }
      if (typeName.startsWith("INTEGER")) {
        return catalogColumn && column.endsWith("types") ? "_oid" : "_int4";
      }
      if (typeName.startsWith("BIGINT")) {
        return "_int8";
      }
      return catalogColumn && (column.endsWith("names") || column.endsWith("name"))
          ? "_name" : "_text";
    }
    case Types.INTEGER:
      return catalogColumn && (column.equals("oid") || column.endsWith("oid")
          || column.endsWith("relid") || OID_COLUMNS.contains(column)) ? "oid" : "int4";
    case Types.SMALLINT, Types.TINYINT:
      return "int2";
    case Types.BIGINT:
      return "int8";
    case Types.REAL:
      return "float4";
    case Types.DOUBLE, Types.FLOAT:
      return "float8";
    case Types.NUMERIC, Types.DECIMAL:
      return "DECIMAL";
    case Types.BOOLEAN, Types.BIT:
      return "bool";
    case Types.DATE:
      return "DATE";
    case Types.TIMESTAMP:
      return "TIMESTAMP";
    case Types.TIMESTAMP_WITH_TIMEZONE:
      return "TIMESTAMP_WITH_LOCAL_TIME_ZONE";
    case Types.VARBINARY, Types.BINARY, Types.BLOB:
      return "bytea";
    default:
      if (catalogColumn && CHAR_COLUMNS.contains(column)) {
        return "char";
      }
      if (catalogColumn && (NAME_COLUMNS.contains(column) || column.endsWith("name"))) {
        return "name";
      }
      return "text";
    }
  }
}
