package dev.freshet.pgwire.catalog;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * PostgreSQL's catalog functions, as the catalog's H2 database calls them ({@code CREATE ALIAS
 * pg_catalog.format_type FOR ...}): public only because H2 calls them by reflection. Functions
 * that look something up take H2's {@link Connection} first (H2 passes it) and read the
 * catalog's tables, so that they answer for the Freshet connection the catalog belongs to.
 *
 * <pre>{@code
 * SELECT pg_catalog.format_type(1043, 44);   -- character varying(40)
 * }</pre>
 */
public final class PgFunctions {
  /** The OID of {@code pg_catalog}. */
  static final int PG_CATALOG = 11;
  /** The OID of {@code public}, where Freshet's objects are. */
  static final int PUBLIC = 2200;
  /** What {@code version()} answers: PostgreSQL 15, as the wire protocol reports. */
  public static final String VERSION =
      "PostgreSQL 15.0 (Freshet) on x86_64-pc-linux-gnu, compiled by javac, 64-bit";

  /** SQL name to Java method, for {@code CREATE ALIAS}; the overloads differ in arity. */
  static final Map<String, String> ALIASES = aliases();

  private static Map<String, String> aliases() {
    Map<String, String> a = new LinkedHashMap<>();
    a.put("format_type", "formatType");
    a.put("pg_get_expr", "pgGetExpr");
    a.put("pg_get_indexdef", "pgGetIndexdef");
    a.put("pg_get_constraintdef", "pgGetConstraintdef");
    a.put("pg_get_viewdef", "pgGetViewdef");
    a.put("pg_table_is_visible", "pgTableIsVisible");
    a.put("pg_type_is_visible", "always");
    a.put("pg_function_is_visible", "always");
    a.put("pg_collation_is_visible", "always");
    a.put("has_table_privilege", "hasTablePrivilege");
    a.put("has_any_column_privilege", "hasTablePrivilege");
    a.put("has_schema_privilege", "hasSchemaPrivilege");
    a.put("has_database_privilege", "hasDatabasePrivilege");
    a.put("current_schemas", "currentSchemas");
    a.put("current_setting", "currentSetting");
    a.put("current_database", "currentDatabase");
    a.put("version", "version");
    a.put("obj_description", "objDescription");
    a.put("col_description", "colDescription");
    a.put("shobj_description", "shobjDescription");
    a.put("pg_get_userbyid", "pgGetUserbyid");
    a.put("pg_encoding_to_char", "pgEncodingToChar");
    a.put("array_to_string", "arrayToString");
    a.put("array_upper", "arrayUpper");
    a.put("array_lower", "arrayLower");
    a.put("array_length", "arrayUpper");
    a.put("pg_relation_size", "zeroSize");
    a.put("pg_total_relation_size", "zeroSize");
    a.put("pg_table_size", "zeroSize");
    a.put("pg_indexes_size", "zeroSize");
    a.put("pg_size_pretty", "pgSizePretty");
    a.put("pg_get_function_result", "emptyText");
    a.put("pg_get_function_arguments", "emptyText");
    a.put("pg_get_function_identity_arguments", "emptyText");
    a.put("pg_get_ruledef", "emptyText");
    a.put("pg_get_triggerdef", "emptyText");
    a.put("pg_get_partkeydef", "nullText");
    a.put("pg_get_statisticsobjdef_columns", "nullText");
    a.put("pg_relation_is_publishable", "never");
    a.put("pg_get_serial_sequence", "nullText");
    a.put("pg_backend_pid", "zero");
    a.put("json_build_object", "jsonBuildObject");
    a.put("quote_ident", "quoteIdent");
    a.put("format", "format");
    a.put("parse_ident", "parseIdent");
    a.put("string_to_array", "stringToArray");
    a.put("pg_stat_get_numscans", "zeroSize");
    a.put("pg_database_size", "zeroSize");
    a.put("pg_tablespace_size", "zeroSize");
    a.put("pg_tablespace_location", "emptyText");
    a.put("pg_operator_is_visible", "always");
    a.put("pg_conversion_is_visible", "always");
    a.put("pg_opclass_is_visible", "always");
    a.put("pg_stat_get_tuples_returned", "zeroSize");
    a.put("freshet_current_user", "currentUser");
    a.put("freshet_regclass_oid", "regclassOid");
    a.put("freshet_regclass_name", "regclassName");
    a.put("freshet_regtype_oid", "regtypeOid");
    a.put("freshet_regproc", "regproc");
    a.put("freshet_regnamespace_oid", "regnamespaceOid");
    a.put("freshet_regnamespace_name", "regnamespaceName");
    a.put("freshet_vector_element", "vectorElement");
    return Map.copyOf(a);
  }

  private PgFunctions() {
  }

  /**
   * The SQL name of type {@code oid} with modifier {@code typmod}, as PostgreSQL's
   * {@code format_type} writes it: {@code character varying(40)}, {@code numeric(10,2)},
   * {@code timestamp(3) without time zone}, {@code integer[]}; {@code ???} for an unknown type.
   */
  public static String formatType(Connection c, Integer oid, Integer typmod) throws SQLException {
    if (oid == null) {
      return null;
    }
    int mod = typmod == null ? -1 : typmod;
    String name = PgTypes.formatName(oid, mod);
    if (name != null) {
      return name;
    }
    String element = PgTypes.elementOf(oid, mod);
    if (element != null) {
      return element + "[]";
    }
    String typname = string(c, "SELECT typname FROM pg_catalog.pg_type WHERE oid = ?", oid);
    return typname == null ? "???" : typname;
  }

  /** {@code format_type(oid)}: as {@code regtype} names a type. */
  public static String formatType(Connection c, String oid) throws SQLException {
    if (oid == null) {
      return null;
    }
    try {
      return formatType(c, Integer.valueOf(oid.trim()), -1);
    } catch (NumberFormatException e) {
      return oid;
    }
  }

  /** {@code pg_get_expr}: the catalog keeps expressions as their text. */
  public static String pgGetExpr(String expression, Integer relation) {
    return expression;
  }

  public static String pgGetExpr(String expression, Integer relation, Boolean pretty) {
    return expression;
  }

  /** {@code CREATE UNIQUE INDEX v_pkey ON public.v USING btree (k)}. */
  public static String pgGetIndexdef(Connection c, Integer index) throws SQLException {
    return pgGetIndexdef(c, index, 0, false);
  }

  /** The index's definition, or with {@code column} > 0 the name of its column there. */
  public static String pgGetIndexdef(Connection c, Integer index, Integer column, Boolean pretty)
      throws SQLException {
    if (index == null) {
      return null;
    }
    String columns = keyColumns(c, "SELECT a.attname FROM pg_catalog.freshet_indkey k"
        + " JOIN pg_catalog.pg_index i ON i.indexrelid = k.indexrelid"
        + " JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.x"
        + " WHERE k.indexrelid = ?" + (column != null && column > 0 ? " AND k.n = " + column : "")
        + " ORDER BY k.n", index);
    if (column != null && column > 0) {
      return columns;
    }
    try (PreparedStatement p = c.prepareStatement("SELECT ic.relname, t.relname, n.nspname,"
        + " i.indisunique FROM pg_catalog.pg_index i JOIN pg_catalog.pg_class ic"
        + " ON ic.oid = i.indexrelid JOIN pg_catalog.pg_class t ON t.oid = i.indrelid"
        + " JOIN pg_catalog.pg_namespace n ON n.oid = t.relnamespace WHERE i.indexrelid = ?")) {
      p.setInt(1, index);
      try (ResultSet r = p.executeQuery()) {
        if (!r.next()) {
          return null;
        }
        return "CREATE " + (r.getBoolean(4) ? "UNIQUE " : "") + "INDEX " + r.getString(1)
            + " ON " + r.getString(3) + "." + r.getString(2) + " USING btree (" + columns + ")";
      }
    }
  }

  /** {@code PRIMARY KEY (k)}. */
  public static String pgGetConstraintdef(Connection c, Integer constraint) throws SQLException {
    return pgGetConstraintdef(c, constraint, false);
  }

  public static String pgGetConstraintdef(Connection c, Integer constraint, Boolean pretty)
      throws SQLException {
    if (constraint == null) {
      return null;
    }
    String type = string(c, "SELECT contype FROM pg_catalog.pg_constraint WHERE oid = ?",
        constraint);
    if (type == null) {
      return null;
    }
    String columns = keyColumns(c, "SELECT a.attname FROM pg_catalog.freshet_conkey k"
        + " JOIN pg_catalog.pg_constraint o ON o.oid = k.conoid"
        + " JOIN pg_catalog.pg_attribute a ON a.attrelid = o.conrelid AND a.attnum = k.x"
        + " WHERE k.conoid = ? ORDER BY k.n", constraint);
    return (type.equals("p") ? "PRIMARY KEY (" : "UNIQUE (") + columns + ")";
  }

  /** The query of a view, by OID or name. */
  public static String pgGetViewdef(Connection c, String view) throws SQLException {
    return pgGetViewdef(c, view, false);
  }

  public static String pgGetViewdef(Connection c, String view, Boolean pretty)
      throws SQLException {
    if (view == null) {
      return null;
    }
    Integer oid = relationOid(c, view);
    return oid == null ? null : string(c, "SELECT description FROM pg_catalog.freshet_viewdef"
        + " WHERE oid = ?", oid);
  }

  /** Whether a relation is in a schema of the search path (pg_catalog, public). */
  public static Boolean pgTableIsVisible(Connection c, Integer relation) throws SQLException {
    if (relation == null) {
      return null;
    }
    Integer namespace = integer(c, "SELECT relnamespace FROM pg_catalog.pg_class WHERE oid = ?",
        relation);
    return namespace != null && (namespace == PG_CATALOG || namespace == PUBLIC);
  }

  public static Boolean always(Integer oid) {
    return oid == null ? null : true;
  }

  public static Boolean never(String oid) {
    return false;
  }

  /** Whether the connection's user may do {@code privilege} (SELECT, INSERT, ...) to a table. */
  public static Boolean hasTablePrivilege(Connection c, String table, String privilege)
      throws SQLException {
    if (table == null || privilege == null) {
      return null;
    }
    Integer oid = relationOid(c, table);
    if (oid == null) {
      throw new SQLException("relation \"" + table + "\" does not exist", "42P01");
    }
    if (oid < 16384) {
      // The catalog's own tables: every user reads them.
      return privilege.toUpperCase(Locale.ROOT).contains("SELECT");
    }
    for (String p : privilege.split(",")) {
      String wanted = p.trim().toUpperCase(Locale.ROOT).replace(" WITH GRANT OPTION", "");
      if (integer(c, "SELECT COUNT(*) FROM pg_catalog.freshet_privilege WHERE relid = ?"
          + " AND privilege = '" + wanted.replace("'", "") + "'", oid) > 0) {
        return true;
      }
    }
    return false;
  }

  /** As the three-argument form, for a user: the catalog answers for its own user only. */
  public static Boolean hasTablePrivilege(Connection c, String user, String table,
      String privilege) throws SQLException {
    return hasTablePrivilege(c, table, privilege);
  }

  /** {@code USAGE} on the schemas a client sees; no {@code CREATE}: DDL is Freshet's own. */
  public static Boolean hasSchemaPrivilege(Connection c, String schema, String privilege) {
    return privilege != null && privilege.toUpperCase(Locale.ROOT).contains("USAGE");
  }

  public static Boolean hasSchemaPrivilege(Connection c, String user, String schema,
      String privilege) {
    return hasSchemaPrivilege(c, schema, privilege);
  }

  /** {@code CONNECT} and {@code TEMPORARY} on {@code freshet}. */
  public static Boolean hasDatabasePrivilege(Connection c, String database, String privilege) {
    return privilege != null && !privilege.toUpperCase(Locale.ROOT).contains("CREATE");
  }

  public static Boolean hasDatabasePrivilege(Connection c, String user, String database,
      String privilege) {
    return hasDatabasePrivilege(c, database, privilege);
  }

  /** The search path: {@code {pg_catalog,public}} with implicit schemas, else {@code {public}}. */
  public static String[] currentSchemas(Boolean includeImplicit) {
    return Boolean.TRUE.equals(includeImplicit) ? new String[] {"pg_catalog", "public"}
        : new String[] {"public"};
  }

  /** A setting's value, from pg_settings; 42704 if there is no such setting. */
  public static String currentSetting(Connection c, String name) throws SQLException {
    return currentSetting(c, name, false);
  }

  public static String currentSetting(Connection c, String name, Boolean missingOk)
      throws SQLException {
    if (name == null) {
      return null;
    }
    String key = name.toLowerCase(Locale.ROOT);
    try (PreparedStatement p = c.prepareStatement(
        "SELECT setting FROM pg_catalog.pg_settings WHERE name = ?")) {
      p.setString(1, key);
      try (ResultSet r = p.executeQuery()) {
        if (r.next()) {
          return r.getString(1);
        }
      }
    }
    if (Boolean.TRUE.equals(missingOk)) {
      return null;
    }
    throw new SQLException("unrecognized configuration parameter \"" + name + "\"", "42704");
  }

  public static String currentDatabase() {
    return PgCatalog.DATABASE;
  }

  public static String version() {
    return VERSION;
  }

  /** The description of an object, as COMMENT ON would have given it. */
  public static String objDescription(Connection c, Integer oid, String catalog)
      throws SQLException {
    return oid == null ? null : string(c, "SELECT description FROM pg_catalog.pg_description"
        + " WHERE objoid = ? AND objsubid = 0", oid);
  }

  public static String objDescription(Connection c, Integer oid) throws SQLException {
    return objDescription(c, oid, null);
  }

  /** A column's description: a stream's watermark column says its delay. */
  public static String colDescription(Connection c, Integer table, Integer column)
      throws SQLException {
    if (table == null || column == null) {
      return null;
    }
    return string(c, "SELECT description FROM pg_catalog.pg_description WHERE objoid = ?"
        + " AND objsubid = " + column, table);
  }

  public static String shobjDescription(Connection c, Integer oid, String catalog)
      throws SQLException {
    return oid == null ? null : string(c, "SELECT description FROM"
        + " pg_catalog.pg_shdescription WHERE objoid = ?", oid);
  }

  /** The name of role {@code oid}, or {@code unknown (OID=n)} as PostgreSQL writes it. */
  public static String pgGetUserbyid(Connection c, Integer oid) throws SQLException {
    if (oid == null) {
      return null;
    }
    String name = string(c, "SELECT rolname FROM pg_catalog.pg_roles WHERE oid = ?", oid);
    return name != null ? name : "unknown (OID=" + oid + ")";
  }

  /** {@code UTF8}, the only encoding: {@code pg_database.encoding} is 6. */
  public static String pgEncodingToChar(Integer encoding) {
    return encoding == null ? null : encoding == 6 ? "UTF8" : "";
  }

  public static String arrayToString(String[] array, String separator) {
    return arrayToString(array, separator, null);
  }

  /** Joins the elements with {@code separator}, nulls skipped unless {@code nullText} is given. */
  public static String arrayToString(String[] array, String separator, String nullText) {
    if (array == null || separator == null) {
      return null;
    }
    StringBuilder b = new StringBuilder();
    boolean first = true;
    for (String o : array) {
      if (o == null && nullText == null) {
        continue;
      }
      if (!first) {
        b.append(separator);
      }
      b.append(o == null ? nullText : o.toString());
      first = false;
    }
    return b.toString();
  }

  /** The upper bound of dimension 1, or null for an empty array. */
  public static Integer arrayUpper(String[] array, Integer dimension) {
    return array == null || array.length == 0 || dimension == null || dimension != 1 ? null
        : array.length;
  }

  public static Integer arrayLower(String[] array, Integer dimension) {
    return array == null || array.length == 0 || dimension == null || dimension != 1 ? null : 1;
  }

  /** Element {@code index} of a zero-based vector (int2vector, oidvector), null if outside. */
  public static Integer vectorElement(Integer[] vector, Integer index) {
    if (vector == null || index == null || index < 0 || index >= vector.length
        || vector[index] == null) {
      return null;
    }
    return vector[index];
  }

  /** Freshet keeps no files that PostgreSQL's sizes would describe: 0. */
  public static Long zeroSize(String relation) {
    return relation == null ? null : 0L;
  }

  public static Integer zero() {
    return 0;
  }

  /** {@code 0 bytes}, {@code 12 kB}, {@code 3 MB}, as PostgreSQL writes sizes. */
  public static String pgSizePretty(Long bytes) {
    if (bytes == null) {
      return null;
    }
    String[] units = {"bytes", "kB", "MB", "GB", "TB"};
    long size = bytes;
    int unit = 0;
    while (Math.abs(size) >= 10 * 1024 && unit < units.length - 1) {
      size = (size + 512) / 1024;
      unit++;
    }
    return size + " " + units[unit];
  }

  public static String emptyText(String oid) {
    return oid == null ? null : "";
  }

  public static String emptyText(String oid, Boolean pretty) {
    return oid == null ? null : "";
  }

  public static String nullText(String first) {
    return null;
  }

  public static String nullText(String first, String second) {
    return null;
  }

  /** A JSON object of name/value pairs. */
  public static String jsonBuildObject(String... pairs) {
    StringBuilder b = new StringBuilder("{");
    for (int i = 0; i + 1 < pairs.length; i += 2) {
      if (i > 0) {
        b.append(", ");
      }
      b.append('"').append(pairs[i]).append("\" : ");
      String v = pairs[i + 1];
      b.append(v == null ? "null" : "\"" + v.replace("\"", "\\\"") + "\"");
    }
    return b.append('}').toString();
  }

  /** {@code name} quoted if PostgreSQL would need it quoted. */
  public static String quoteIdent(String name) {
    if (name == null) {
      return null;
    }
    return name.matches("[a-z_][a-z0-9_$]*") ? name : "\"" + name.replace("\"", "\"\"") + "\"";
  }

  /** The Freshet user the catalog answers for (role 10). */
  public static String currentUser(Connection c) throws SQLException {
    return string(c, "SELECT rolname FROM pg_catalog.pg_roles WHERE oid = ?", PgCatalog.USER_OID);
  }

  /** {@code 'name'::regclass}: the OID of a relation; 42P01 if there is none. */
  public static Integer regclassOid(Connection c, String name) throws SQLException {
    if (name == null) {
      return null;
    }
    Integer oid = relationOid(c, name);
    if (oid == null) {
      throw new SQLException("relation \"" + name + "\" does not exist", "42P01");
    }
    return oid;
  }

  /** {@code oid::regclass} as text: the relation's name, or the number if there is none. */
  public static String regclassName(Connection c, String oid) throws SQLException {
    if (oid == null) {
      return null;
    }
    try {
      int value = Integer.parseInt(oid.trim());
      String name = string(c, "SELECT relname FROM pg_catalog.pg_class WHERE oid = ?", value);
      return name == null ? oid : quoteIdent(name);
    } catch (NumberFormatException e) {
      return oid;
    }
  }

  /** {@code 'int4'::regtype}: a type's OID by name; 42704 if there is none. */
  public static Integer regtypeOid(Connection c, String name) throws SQLException {
    if (name == null) {
      return null;
    }
    String bare = unqualified(name);
    Integer oid = integer(c, "SELECT oid FROM pg_catalog.pg_type WHERE typname = ?", bare);
    if (oid == null) {
      oid = PgTypes.oidOfSqlName(bare);
    }
    if (oid == null) {
      throw new SQLException("type \"" + name + "\" does not exist", "42704");
    }
    return oid;
  }

  /** {@code 'pg_catalog.array_in'::regproc}: the OID of a function; 42883 if there is none. */
  public static Integer regproc(Connection c, String name) throws SQLException {
    if (name == null) {
      return null;
    }
    Integer oid = integer(c, "SELECT MIN(oid) FROM pg_catalog.pg_proc WHERE proname = ?",
        unqualified(name));
    if (oid == null) {
      throw new SQLException("function \"" + name + "\" does not exist", "42883");
    }
    return oid;
  }

  /**
   * PostgreSQL's {@code format}: {@code %s} a value, {@code %I} an identifier (quoted if needed),
   * {@code %L} a literal, {@code %%} a percent sign.
   */
  public static String format(String format, String... arguments) {
    if (format == null) {
      return null;
    }
    StringBuilder b = new StringBuilder();
    int next = 0;
    for (int i = 0; i < format.length(); i++) {
      char c = format.charAt(i);
      if (c != '%' || i + 1 == format.length()) {
        b.append(c);
        continue;
      }
      char kind = format.charAt(++i);
      if (kind == '%') {
        b.append('%');
        continue;
      }
      String value = next < arguments.length ? arguments[next++] : null;
      switch (kind) {
      case 'I' -> b.append(quoteIdent(value));
      case 'L' -> b.append(value == null ? "NULL" : "'" + value.replace("'", "''") + "'");
      default -> b.append(value == null ? "" : value);
      }
    }
    return b.toString();
  }

  /** {@code parse_ident('public.clicks')}: {@code {public,clicks}}, quotes removed. */
  public static String[] parseIdent(String text) {
    if (text == null) {
      return null;
    }
    List<String> parts = new ArrayList<>();
    StringBuilder part = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"') {
        if (quoted && i + 1 < text.length() && text.charAt(i + 1) == '"') {
          part.append('"');
          i++;
        } else {
          quoted = !quoted;
        }
      } else if (c == '.' && !quoted) {
        parts.add(part.toString());
        part.setLength(0);
      } else {
        part.append(quoted ? c : Character.toLowerCase(c));
      }
    }
    parts.add(part.toString());
    return parts.toArray(new String[0]);
  }

  /** {@code string_to_array('a,b', ',')}: {@code {a,b}}. */
  public static String[] stringToArray(String text, String delimiter) {
    if (text == null) {
      return null;
    }
    if (delimiter == null) {
      return text.chars().mapToObj(ch -> String.valueOf((char) ch)).toArray(String[]::new);
    }
    if (text.isEmpty()) {
      return new String[0];
    }
    return text.split(java.util.regex.Pattern.quote(delimiter), -1);
  }

  public static Integer regnamespaceOid(Connection c, String name) throws SQLException {
    if (name == null) {
      return null;
    }
    Integer oid = integer(c, "SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = ?",
        unqualified(name));
    if (oid == null) {
      throw new SQLException("schema \"" + name + "\" does not exist", "3F000");
    }
    return oid;
  }

  public static String regnamespaceName(Connection c, Integer oid) throws SQLException {
    return oid == null ? null
        : string(c, "SELECT nspname FROM pg_catalog.pg_namespace WHERE oid = ?", oid);
  }

  /** A relation's OID from its OID as text, or its name, possibly qualified and quoted. */
  private static Integer relationOid(Connection c, String relation) throws SQLException {
    String text = relation.trim();
    if (!text.isEmpty() && text.chars().allMatch(Character::isDigit)) {
      return Integer.valueOf(text);
    }
    String schema = null;
    String name = text;
    int dot = dotOutsideQuotes(text);
    if (dot >= 0) {
      schema = identifier(text.substring(0, dot));
      name = text.substring(dot + 1);
    }
    name = identifier(name);
    if (schema == null) {
      // pg_catalog first, then public: the search path
      return integer(c, "SELECT oid FROM pg_catalog.pg_class WHERE relname = ? AND"
          + " relnamespace IN (11, 2200) ORDER BY relnamespace LIMIT 1", name);
    }
    try (PreparedStatement p = c.prepareStatement("SELECT c.oid FROM pg_catalog.pg_class c"
        + " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
        + " WHERE c.relname = ? AND n.nspname = ?")) {
      p.setString(1, name);
      p.setString(2, schema);
      try (ResultSet r = p.executeQuery()) {
        return r.next() ? r.getInt(1) : null;
      }
    }
  }

  private static int dotOutsideQuotes(String text) {
    boolean quoted = false;
    for (int i = 0; i < text.length(); i++) {
      char ch = text.charAt(i);
      if (ch == '"') {
        quoted = !quoted;
      } else if (ch == '.' && !quoted) {
        return i;
      }
    }
    return -1;
  }

  /** A name as PostgreSQL reads it: quoted as written, else folded to lower case. */
  private static String identifier(String text) {
    String t = text.trim();
    if (t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"")) {
      return t.substring(1, t.length() - 1).replace("\"\"", "\"");
    }
    return t.toLowerCase(Locale.ROOT);
  }

  private static String unqualified(String name) {
    String t = name.trim();
    return t.startsWith("pg_catalog.") ? t.substring("pg_catalog.".length()) : t;
  }

  private static String keyColumns(Connection c, String sql, int oid) throws SQLException {
    StringBuilder b = new StringBuilder();
    try (PreparedStatement p = c.prepareStatement(sql)) {
      p.setInt(1, oid);
      try (ResultSet r = p.executeQuery()) {
        while (r.next()) {
          if (b.length() > 0) {
            b.append(", ");
          }
          b.append(quoteIdent(r.getString(1)));
        }
      }
    }
    return b.toString();
  }

  private static String string(Connection c, String sql, Object parameter) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(sql)) {
      p.setObject(1, parameter);
      try (ResultSet r = p.executeQuery()) {
        return r.next() ? r.getString(1) : null;
      }
    }
  }

  private static Integer integer(Connection c, String sql, Object parameter)
      throws SQLException {
    try (PreparedStatement p = c.prepareStatement(sql)) {
      p.setObject(1, parameter);
      try (ResultSet r = p.executeQuery()) {
        if (!r.next()) {
          return null;
        }
        int v = r.getInt(1);
        return r.wasNull() ? null : v;
      }
    }
  }
}
