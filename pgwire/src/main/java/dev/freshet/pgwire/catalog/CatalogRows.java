package dev.freshet.pgwire.catalog;

import dev.freshet.engine.Engine;
import dev.freshet.engine.EngineMetadata;
import dev.freshet.engine.query.ResultColumn;
import dev.freshet.engine.security.Principal;
import dev.freshet.engine.security.Privilege;
import dev.freshet.sql.FreshetSqlParser;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.ddl.SqlCreateMaterializedView;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.parser.SqlParserUtil;

/**
 * The rows of the catalog's tables: the fixed ones (schemas, types, access methods, the database,
 * settings, functions, the catalog's own tables) once, and those of Freshet's objects, as
 * {@link EngineMetadata} describes them to the connection's user, at each {@link #load()}.
 *
 * <p>Freshet's objects get OIDs from 16384 up (PostgreSQL's first user OID), kept by name for
 * the life of the connection, so that a client that looks an OID up and then asks about it in
 * the next statement finds the same object. Names Freshet keeps in upper case (unquoted ones) read
 * in lower case, as PostgreSQL folds them.
 */
final class CatalogRows {
  /** PostgreSQL's first OID for user objects. */
  private static final int FIRST_USER_OID = 16384;
  /** pg_class's OID, the class of relation descriptions. */
  private static final int PG_CLASS = 1259;

  private final Engine engine;
  private final Principal principal;
  private final Connection h2;
  /** OIDs by kind and Freshet name: r: relation, i: its primary key index, c: constraint. */
  private final Map<String, Integer> oids = new HashMap<>();
  private int nextOid = FIRST_USER_OID;

  CatalogRows(Engine engine, Principal principal, Connection h2) {
    this.engine = engine;
    this.principal = principal;
    this.h2 = h2;
  }

  private int oid(String key) {
    return oids.computeIfAbsent(key, k -> nextOid++);
  }

  /** A Freshet name as a PostgreSQL client reads it: an upper-case name folds to lower case. */
  static String pgName(String name) {
    return name.equals(name.toUpperCase(Locale.ROOT)) ? name.toLowerCase(Locale.ROOT) : name;
  }

  /** The rows that do not change: schemas, types, access methods, database, settings. */
  void fixedRows() throws SQLException {
    insert("pg_catalog.pg_namespace", 4, List.of(
        new Object[] {PgFunctions.PG_CATALOG, "pg_catalog", userOid(), null},
        new Object[] {PgFunctions.PUBLIC, "public", userOid(), null},
        new Object[] {99, "pg_toast", userOid(), null},
        new Object[] {13000, "information_schema", userOid(), null}));
    // The I/O functions of the types, as pg_proc rows that typinput, typreceive, ... name:
    // Npgsql joins pg_proc on typreceive and reads proname = 'array_recv'.
    Map<String, Integer> procs = new java.util.LinkedHashMap<>();
    procs.put("array_in", 750);
    procs.put("array_out", 751);
    procs.put("array_recv", 2400);
    procs.put("array_send", 2401);
    int ioOid = 8000;
    for (PgTypes.PgType t : PgTypes.TYPES) {
      for (String suffix : List.of("in", "out", "recv", "send")) {
        if (t.element() == 0 && !procs.containsKey(t.io() + suffix)) {
          procs.put(t.io() + suffix, ioOid++);
        }
      }
    }
    List<Object[]> types = new ArrayList<>();
    for (PgTypes.PgType t : PgTypes.TYPES) {
      boolean array = t.element() != 0;
      String io = array ? "array_" : t.io();
      types.add(new Object[] {t.oid(), t.name(), PgFunctions.PG_CATALOG, userOid(), t.length(),
          t.byValue(), t.category().equals("P") ? "p" : "b", t.category(), false, true, ",", 0,
          array ? "array_subscript_handler" : "-", t.element(), t.array(),
          procs.get(io + "in"), procs.get(io + "out"), procs.get(io + "recv"),
          procs.get(io + "send"), 0, 0, 0, t.align(), t.length() == -1 ? "x" : "p", false, 0, -1,
          0, t.collation(), null, null, null});
    }
    insert("pg_catalog.pg_type", 32, types);
    insert("pg_catalog.pg_am", 4, List.of(new Object[] {2, "heap", "heap_tableam_handler", "t"},
        new Object[] {403, "btree", "bthandler", "i"},
        new Object[] {405, "hash", "hashhandler", "i"}));
    insert("pg_catalog.pg_database", 16, List.<Object[]>of(new Object[] {FIRST_USER_OID - 1,
        PgCatalog.DATABASE, userOid(), 6, "c", false, true, -1, 0, 1, 1663, "C.UTF-8", "C.UTF-8",
        null, null, null}));
    insert("pg_catalog.pg_tablespace", 5, List.of(
        new Object[] {1663, "pg_default", userOid(), null, null},
        new Object[] {1664, "pg_global", userOid(), null, null}));
    insert("pg_catalog.pg_collation", 11, List.of(
        new Object[] {100, "default", PgFunctions.PG_CATALOG, userOid(), "d", true, -1, null, null,
            null, null},
        new Object[] {950, "C", PgFunctions.PG_CATALOG, userOid(), "c", true, -1, "C", "C", null,
            null},
        new Object[] {951, "POSIX", PgFunctions.PG_CATALOG, userOid(), "c", true, -1, "POSIX",
            "POSIX", null, null}));
    insert("pg_catalog.pg_settings", 17, settings());
    List<Object[]> procRows = new ArrayList<>();
    procs.forEach((name, oid) -> procRows.add(proc(oid, name, 2275)));
    int procOid = 9000;
    for (String name : PgFunctions.ALIASES.keySet()) {
      if (!name.startsWith("freshet_")) {
        procRows.add(proc(procOid++, name, 25));
      }
    }
    insert("pg_catalog.pg_proc", 30, procRows);
    // The catalog's own tables and views, as relations of pg_catalog.
    List<Object[]> classes = new ArrayList<>();
    Map<String, Integer> known = Map.of("pg_type", 1247, "pg_attribute", 1249, "pg_proc", 1255,
        "pg_class", PG_CLASS, "pg_database", 1262, "pg_namespace", 2615, "pg_constraint", 2606,
        "pg_index", 2610, "pg_description", 2609, "pg_am", 2601);
    int relOid = 12000;
    try (Statement s = h2.createStatement(); ResultSet r = s.executeQuery(
        "SELECT table_name, table_type FROM information_schema.tables"
            + " WHERE table_schema = 'pg_catalog' AND table_name NOT LIKE 'freshet%'"
            + " ORDER BY table_name")) {
      while (r.next()) {
        String name = r.getString(1);
        boolean view = r.getString(2).contains("VIEW");
        int oid = known.getOrDefault(name, relOid++);
        classes.add(relation(oid, name, PgFunctions.PG_CATALOG, view ? "v" : "r", 0, userOid(),
            false));
      }
    }
    insert("pg_catalog.pg_class", 33, classes);
    insert("pg_information_schema.schemata", 7, List.of(
        new Object[] {PgCatalog.DATABASE, "information_schema", "freshet", null, null, null,
            null},
        new Object[] {PgCatalog.DATABASE, "pg_catalog", "freshet", null, null, null, null},
        new Object[] {PgCatalog.DATABASE, "public", "freshet", null, null, null, null}));
  }

  private static int userOid() {
    return PgCatalog.USER_OID;
  }

  private static Object[] proc(int oid, String name, int returns) {
    return new Object[] {oid, name, PgFunctions.PG_CATALOG, userOid(), 12, 1f, 0f, 0, "-", "f",
        false, false, false, false, "s", "s", (short) 0, (short) 0, returns, new Integer[0],
        null, null, null, null, null, name, null, null, null, null};
  }

  private static List<Object[]> settings() {
    String[][] values = {
        {"server_version", "15.0", "Preset Options"},
        {"server_version_num", "150000", "Preset Options"},
        {"server_encoding", "UTF8", "Client Connection Defaults / Locale and Formatting"},
        {"client_encoding", "UTF8", "Client Connection Defaults / Locale and Formatting"},
        {"datestyle", "ISO, MDY", "Client Connection Defaults / Locale and Formatting"},
        {"intervalstyle", "postgres", "Client Connection Defaults / Locale and Formatting"},
        {"timezone", "UTC", "Client Connection Defaults / Locale and Formatting"},
        {"lc_collate", "C.UTF-8", "Preset Options"},
        {"lc_ctype", "C.UTF-8", "Preset Options"},
        {"lc_messages", "C.UTF-8", "Client Connection Defaults / Locale and Formatting"},
        {"lc_monetary", "C.UTF-8", "Client Connection Defaults / Locale and Formatting"},
        {"lc_numeric", "C.UTF-8", "Client Connection Defaults / Locale and Formatting"},
        {"lc_time", "C.UTF-8", "Client Connection Defaults / Locale and Formatting"},
        {"integer_datetimes", "on", "Preset Options"},
        {"standard_conforming_strings", "on", "Version and Platform Compatibility"},
        {"search_path", "\"$user\", public", "Client Connection Defaults / Statement Behavior"},
        {"default_transaction_isolation", "read committed",
            "Client Connection Defaults / Statement Behavior"},
        {"transaction_isolation", "read committed",
            "Client Connection Defaults / Statement Behavior"},
        {"default_transaction_read_only", "off",
            "Client Connection Defaults / Statement Behavior"},
        {"transaction_read_only", "off", "Client Connection Defaults / Statement Behavior"},
        {"max_identifier_length", "63", "Preset Options"},
        {"max_index_keys", "32", "Preset Options"},
        {"block_size", "8192", "Preset Options"},
        {"application_name", "", "Reporting and Logging / What to Log"},
        {"extra_float_digits", "1", "Client Connection Defaults / Locale and Formatting"},
        {"bytea_output", "hex", "Client Connection Defaults / Statement Behavior"},
        {"statement_timeout", "0", "Client Connection Defaults / Statement Behavior"},
        {"lock_timeout", "0", "Client Connection Defaults / Statement Behavior"},
        {"max_connections", "100", "Connections and Authentication / Connection Settings"},
        {"is_superuser", "off", "Preset Options"},
        {"session_authorization", "", "Preset Options"},
        {"ssl", "off", "Connections and Authentication / SSL"},
    };
    List<Object[]> rows = new ArrayList<>();
    for (String[] v : values) {
      rows.add(new Object[] {v[0], v[1], null, v[2], v[0], null, "user", "string", "default",
          null, null, null, v[1], v[1], null, null, false});
    }
    return rows;
  }

  /** Rebuilds the rows of Freshet's objects, as the connection's user sees them now. */
  void load() throws SQLException {
    boolean autoCommit = h2.getAutoCommit();
    h2.setAutoCommit(false);
    try (Statement s = h2.createStatement()) {
      s.execute("DELETE FROM pg_catalog.pg_class WHERE relnamespace = " + PgFunctions.PUBLIC);
      for (String table : List.of("pg_attribute WHERE attrelid", "pg_index WHERE indexrelid",
          "pg_constraint WHERE oid", "pg_description WHERE objoid", "freshet_indkey WHERE"
              + " indexrelid", "freshet_conkey WHERE conoid", "freshet_viewdef WHERE oid",
          "freshet_privilege WHERE relid")) {
        s.execute("DELETE FROM pg_catalog." + table + " >= " + FIRST_USER_OID);
      }
      s.execute("DELETE FROM pg_catalog.pg_roles");
      for (String table : List.of("tables", "columns", "views", "table_constraints",
          "key_column_usage", "constraint_column_usage", "table_privileges")) {
        s.execute("DELETE FROM pg_information_schema." + table);
      }
      loadObjects();
      h2.commit();
    } catch (SQLException | RuntimeException e) {
      h2.rollback();
      throw e;
    } finally {
      h2.setAutoCommit(autoCommit);
    }
  }

  private void loadObjects() throws SQLException {
    EngineMetadata metadata = new EngineMetadata(engine, principal);
    Map<String, Integer> roles = new HashMap<>();
    roles.put(principal.key(), userOid());
    List<Object[]> roleRows = new ArrayList<>();
    roleRows.add(role(principal.name(), principal.admin(), userOid()));
    List<Object[]> classes = new ArrayList<>();
    List<Object[]> attributes = new ArrayList<>();
    List<Object[]> indexes = new ArrayList<>();
    List<Object[]> constraints = new ArrayList<>();
    List<Object[]> descriptions = new ArrayList<>();
    List<Object[]> indkeys = new ArrayList<>();
    List<Object[]> conkeys = new ArrayList<>();
    List<Object[]> viewdefs = new ArrayList<>();
    List<Object[]> privileges = new ArrayList<>();
    List<Object[]> infoTables = new ArrayList<>();
    List<Object[]> infoColumns = new ArrayList<>();
    List<Object[]> infoViews = new ArrayList<>();
    List<Object[]> infoConstraints = new ArrayList<>();
    List<Object[]> infoKeys = new ArrayList<>();
    List<Object[]> infoConstraintColumns = new ArrayList<>();
    List<Object[]> infoPrivileges = new ArrayList<>();
    for (EngineMetadata.Table table : metadata.tables()) {
      if (!table.schema().equals(EngineMetadata.DEFAULT_SCHEMA)) {
        continue;
      }
      String name = table.name();
      String relname = pgName(name);
      int oid = oid("r:" + name);
      String ownerKey = engine.access().owner(name);
      Integer owner = roles.get(ownerKey);
      if (owner == null) {
        owner = oid("u:" + ownerKey);
        roles.put(ownerKey, owner);
        roleRows.add(role(ownerKey, false, owner));
      }
      boolean view = table.kind() == EngineMetadata.TableKind.MATERIALIZED_VIEW;
      List<String> key = metadata.primaryKey(table);
      classes.add(relation(oid, relname, PgFunctions.PUBLIC, view ? "m" : "r",
          table.columns().size(), owner, !key.isEmpty()));
      List<String> columnNames = new ArrayList<>();
      for (int i = 0; i < table.columns().size(); i++) {
        ResultColumn column = table.columns().get(i);
        columnNames.add(column.name());
        attributes.add(attribute(oid, pgName(column.name()), i + 1, column));
        String remark = table.columnRemarks().get(i);
        if (remark != null) {
          descriptions.add(new Object[] {oid, PG_CLASS, i + 1, remark});
        }
        infoColumns.add(informationSchemaColumn(relname, pgName(column.name()), i + 1, column,
            !view));
      }
      if (view) {
        String definition = viewDefinition(table.remarks());
        viewdefs.add(new Object[] {oid, definition});
        infoViews.add(new Object[] {PgCatalog.DATABASE, "public", relname, definition, "NONE",
            "NO", "NO", "NO", "NO", "NO"});
      } else if (table.remarks() != null) {
        descriptions.add(new Object[] {oid, PG_CLASS, 0, table.remarks()});
      }
      boolean insertable = engine.access().has(principal, name, Privilege.INSERT) && !view;
      infoTables.add(new Object[] {PgCatalog.DATABASE, "public", relname,
          view ? "VIEW" : "BASE TABLE", null, null, null, null, null, insertable ? "YES" : "NO",
          "NO", null});
      for (Privilege privilege : Privilege.values()) {
        if (engine.access().has(principal, name, privilege)) {
          privileges.add(new Object[] {oid, privilege.name()});
          infoPrivileges.add(new Object[] {pgName(ownerKey), principal.name(),
              PgCatalog.DATABASE, "public", relname, privilege.name(), "NO", "YES"});
        }
      }
      if (!key.isEmpty()) {
        int index = oid("i:" + name);
        int constraint = oid("c:" + name);
        String keyName = relname + "_pkey";
        Short[] attnums = new Short[key.size()];
        for (int k = 0; k < key.size(); k++) {
          short attnum = (short) (columnNames.indexOf(key.get(k)) + 1);
          attnums[k] = attnum;
          indkeys.add(new Object[] {index, attnum, k + 1});
          conkeys.add(new Object[] {constraint, attnum, k + 1});
          infoKeys.add(new Object[] {PgCatalog.DATABASE, "public", keyName, PgCatalog.DATABASE,
              "public", relname, pgName(key.get(k)), k + 1, null});
          infoConstraintColumns.add(new Object[] {PgCatalog.DATABASE, "public", relname,
              pgName(key.get(k)), PgCatalog.DATABASE, "public", keyName});
        }
        Object[] indexClass = relation(index, keyName, PgFunctions.PUBLIC, "i", key.size(), owner,
            false);
        indexClass[6] = 403;
        classes.add(indexClass);
        Short[] options = new Short[key.size()];
        Integer[] zeros = new Integer[key.size()];
        for (int k = 0; k < key.size(); k++) {
          options[k] = 0;
          zeros[k] = 0;
        }
        indexes.add(new Object[] {index, oid, (short) key.size(), (short) key.size(), true,
            false, true, false, true, false, true, false, true, true, false, attnums, zeros,
            zeros, options, null, null});
        constraints.add(new Object[] {constraint, keyName, PgFunctions.PUBLIC, "p", false, false,
            true, oid, 0, index, 0, 0, " ", " ", " ", true, 0, true, attnums, null, null, null,
            null, null, null, null});
        infoConstraints.add(new Object[] {PgCatalog.DATABASE, "public", keyName,
            PgCatalog.DATABASE, "public", relname, "PRIMARY KEY", "NO", "NO", "YES", null});
      }
    }
    insert("pg_catalog.pg_roles", 13, roleRows);
    insert("pg_catalog.pg_class", 33, classes);
    insert("pg_catalog.pg_attribute", 26, attributes);
    insert("pg_catalog.pg_index", 21, indexes);
    insert("pg_catalog.pg_constraint", 26, constraints);
    insert("pg_catalog.pg_description", 4, descriptions);
    insert("pg_catalog.freshet_indkey", 3, indkeys);
    insert("pg_catalog.freshet_conkey", 3, conkeys);
    insert("pg_catalog.freshet_viewdef", 2, viewdefs);
    insert("pg_catalog.freshet_privilege", 2, privileges);
    insert("pg_information_schema.tables", 12, infoTables);
    insert("pg_information_schema.columns", 44, infoColumns);
    insert("pg_information_schema.views", 10, infoViews);
    insert("pg_information_schema.table_constraints", 11, infoConstraints);
    insert("pg_information_schema.key_column_usage", 9, infoKeys);
    insert("pg_information_schema.constraint_column_usage", 7, infoConstraintColumns);
    insert("pg_information_schema.table_privileges", 8, infoPrivileges);
  }

  private static Object[] role(String name, boolean admin, int oid) {
    return new Object[] {name, admin, true, admin, admin, true, false, -1, "********", null,
        admin, null, oid};
  }

  /** A pg_class row; relam is heap for tables and views. */
  private static Object[] relation(int oid, String name, int namespace, String kind,
      int columns, int owner, boolean hasIndex) {
    boolean table = kind.equals("r") || kind.equals("m");
    return new Object[] {oid, name, namespace, 0, 0, owner, table ? 2 : 0, oid, 0, 0, -1f, 0, 0,
        hasIndex, false, "p", kind, (short) columns, (short) 0, false, false, false, false, false,
        true, "d", false, 0, 0, 0, null, null, null};
  }

  private static Object[] attribute(int relation, String name, int number, ResultColumn column) {
    PgTypes.ColumnType type = PgTypes.of(column);
    PgTypes.PgType pgType = PgTypes.byOid(type.oid());
    int length = pgType == null ? -1 : pgType.length();
    return new Object[] {relation, name, type.oid(), -1, (short) length, (short) number, 0, -1,
        type.typmod(), pgType != null && pgType.byValue(),
        pgType == null ? "i" : pgType.align(), length == -1 ? "x" : "p", "", !column.nullable(),
        false, false, "", "", false, true, 0, pgType == null ? 0 : pgType.collation(), null,
        null, null, null};
  }

  /** A row of information_schema.columns, with PostgreSQL's data type names. */
  private static Object[] informationSchemaColumn(String table, String name, int number,
      ResultColumn column, boolean updatable) {
    PgTypes.ColumnType type = PgTypes.of(column);
    PgTypes.PgType pgType = PgTypes.byOid(type.oid());
    String dataType = PgTypes.formatName(type.oid(), -1);
    Integer maxLength = null;
    Integer precision = null;
    Integer radix = null;
    Integer scale = null;
    Integer datetimePrecision = null;
    switch (type.oid()) {
    case 1042:
    case 1043:
      maxLength = type.typmod() > 0 ? type.typmod() - 4 : null;
      break;
    case 21:
      precision = 16;
      radix = 2;
      scale = 0;
      break;
    case 23:
      precision = 32;
      radix = 2;
      scale = 0;
      break;
    case 20:
      precision = 64;
      radix = 2;
      scale = 0;
      break;
    case 700:
      precision = 24;
      radix = 2;
      break;
    case 701:
      precision = 53;
      radix = 2;
      break;
    case 1700:
      precision = column.precision() > 0 ? column.precision() : null;
      scale = column.precision() > 0 ? Math.max(column.scale(), 0) : null;
      radix = 10;
      break;
    case 1082:
      datetimePrecision = 0;
      break;
    case 1083:
    case 1114:
    case 1184:
    case 1266:
      datetimePrecision = type.typmod() >= 0 ? type.typmod() : 6;
      break;
    default:
      break;
    }
    return new Object[] {PgCatalog.DATABASE, "public", table, name, number, null,
        column.nullable() ? "YES" : "NO", dataType, maxLength,
        maxLength == null ? null : maxLength * 4, precision, radix, scale, datetimePrecision,
        null, null, null, null, null, null, null, null, null, null, null, PgCatalog.DATABASE,
        "pg_catalog", pgType == null ? "text" : pgType.name(), null, null, null, null,
        String.valueOf(number), "NO", "NO", null, null, null, null, null, "NO", "NEVER", null,
        updatable ? "YES" : "NO"};
  }

  /** The query of a view's {@code CREATE MATERIALIZED VIEW} statement, as written. */
  static String viewDefinition(String createStatement) {
    if (createStatement == null) {
      return null;
    }
    String statement = createStatement.strip();
    if (statement.endsWith(";")) {
      statement = statement.substring(0, statement.length() - 1);
    }
    try {
      SqlNode node = FreshetSqlParser.parse(statement);
      if (node instanceof SqlCreateMaterializedView create) {
        SqlParserPos pos = create.query.getParserPosition();
        if (pos.getLineNum() > 0) {
          return statement.substring(SqlParserUtil.lineColToIndex(statement, pos.getLineNum(),
              pos.getColumnNum())).strip();
        }
      }
    } catch (SqlParseException e) {
      // The catalog keeps statements that parsed when they ran: show what it keeps.
    }
    return statement;
  }

  private void insert(String table, int columns, List<Object[]> rows) throws SQLException {
    if (rows.isEmpty()) {
      return;
    }
    StringBuilder sql = new StringBuilder("INSERT INTO ").append(table).append(" VALUES (");
    for (int i = 0; i < columns; i++) {
      sql.append(i == 0 ? "?" : ", ?");
    }
    try (PreparedStatement p = h2.prepareStatement(sql.append(')').toString())) {
      for (Object[] row : rows) {
        if (row.length != columns) {
          throw new IllegalStateException(table + ": " + row.length + " values for " + columns
              + " columns");
        }
        for (int i = 0; i < columns; i++) {
          p.setObject(i + 1, row[i]);
        }
        p.addBatch();
      }
      p.executeBatch();
    }
  }
}
