package dev.freshet.pgwire.catalog;

import dev.freshet.common.types.SqlType;
import dev.freshet.engine.query.ResultColumn;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * PostgreSQL's built-in types as the catalog lists them in {@code pg_type}, and how a Freshet
 * column reads as one: its type OID (from {@link SqlType#postgresOid()}), its modifier
 * ({@code atttypmod}) and the text {@code format_type} gives it.
 *
 * <pre>{@code
 * PgTypes.formatName(1043, 44);   // "character varying(40)"
 * }</pre>
 */
final class PgTypes {
  /**
   * One row of pg_type.
   *
   * @param oid the type's OID
   * @param name {@code typname}
   * @param length {@code typlen}: bytes, or -1 for a varying length, -2 for a C string
   * @param category {@code typcategory}: N numeric, S string, D datetime, B boolean, ...
   * @param array the OID of its array type, 0 if none
   * @param element for an array type, the OID of its element type, else 0
   * @param sqlName what format_type writes, null for the name itself
   * @param io the stem of its I/O functions ({@code int4} for {@code int4in})
   */
  record PgType(int oid, String name, int length, String category, int array, int element,
      String sqlName, String io) {
    boolean byValue() {
      return length > 0 && length <= 8;
    }

    String align() {
      return length == 2 ? "s" : length == 4 ? "i" : length == 8 ? "d" : length == 1 ? "c" : "i";
    }

    int collation() {
      return category.equals("S") && element == 0 && !name.equals("name") ? 100 : 0;
    }
  }

  static final List<PgType> TYPES = types();
  private static final Map<Integer, PgType> BY_OID = new HashMap<>();
  private static final Map<String, Integer> BY_SQL_NAME = new HashMap<>();

  static {
    for (PgType t : TYPES) {
      BY_OID.put(t.oid(), t);
      if (t.sqlName() != null) {
        BY_SQL_NAME.put(t.sqlName(), t.oid());
      }
    }
  }

  private PgTypes() {
  }

  private static List<PgType> types() {
    List<PgType> t = new ArrayList<>();
    base(t, 16, "bool", 1, "B", 1000, "boolean", "bool");
    base(t, 17, "bytea", -1, "U", 1001, null, "bytea");
    base(t, 18, "char", 1, "Z", 1002, "\"char\"", "char");
    base(t, 19, "name", 64, "S", 1003, null, "name");
    base(t, 20, "int8", 8, "N", 1016, "bigint", "int8");
    base(t, 21, "int2", 2, "N", 1005, "smallint", "int2");
    base(t, 22, "int2vector", -1, "A", 1006, null, "int2vector");
    base(t, 23, "int4", 4, "N", 1007, "integer", "int4");
    base(t, 24, "regproc", 4, "N", 1008, null, "regproc");
    base(t, 25, "text", -1, "S", 1009, null, "text");
    base(t, 26, "oid", 4, "N", 1028, null, "oid");
    base(t, 28, "xid", 4, "U", 1011, null, "xid");
    base(t, 30, "oidvector", -1, "A", 1013, null, "oidvector");
    base(t, 114, "json", -1, "U", 199, null, "json");
    base(t, 194, "pg_node_tree", -1, "Z", 0, null, "pg_node_tree");
    base(t, 700, "float4", 4, "N", 1021, "real", "float4");
    base(t, 701, "float8", 8, "N", 1022, "double precision", "float8");
    base(t, 705, "unknown", -2, "X", 0, null, "unknown");
    base(t, 1033, "aclitem", 12, "U", 1034, null, "aclitem");
    base(t, 1042, "bpchar", -1, "S", 1014, "character", "bpchar");
    base(t, 1043, "varchar", -1, "S", 1015, "character varying", "varchar");
    base(t, 1082, "date", 4, "D", 1182, null, "date");
    base(t, 1083, "time", 8, "D", 1183, "time without time zone", "time");
    base(t, 1114, "timestamp", 8, "D", 1115, "timestamp without time zone", "timestamp");
    base(t, 1184, "timestamptz", 8, "D", 1185, "timestamp with time zone", "timestamptz");
    base(t, 1186, "interval", 16, "T", 1187, null, "interval");
    base(t, 1266, "timetz", 12, "D", 1270, "time with time zone", "timetz");
    base(t, 1700, "numeric", -1, "N", 1231, null, "numeric");
    base(t, 2205, "regclass", 4, "N", 2210, null, "regclass");
    base(t, 2206, "regtype", 4, "N", 2211, null, "regtype");
    base(t, 2249, "record", -1, "P", 2287, null, "record");
    base(t, 2275, "cstring", -2, "P", 1263, null, "cstring");
    base(t, 2276, "any", 4, "P", 0, "\"any\"", "any");
    base(t, 2277, "anyarray", -1, "P", 0, null, "anyarray");
    base(t, 2278, "void", 4, "P", 0, null, "void");
    base(t, 2281, "internal", 8, "P", 0, null, "internal");
    base(t, 2950, "uuid", 16, "U", 2951, null, "uuid");
    base(t, 3802, "jsonb", -1, "U", 3807, null, "jsonb");
    base(t, 4089, "regnamespace", 4, "N", 4090, null, "regnamespace");
    List<PgType> arrays = new ArrayList<>();
    for (PgType b : t) {
      if (b.array() != 0) {
        arrays.add(new PgType(b.array(), "_" + b.name(), -1, "A", 0, b.oid(), null, "array"));
      }
    }
    t.addAll(arrays);
    return List.copyOf(t);
  }

  private static void base(List<PgType> t, int oid, String name, int length, String category,
      int array, String sqlName, String io) {
    t.add(new PgType(oid, name, length, category, array, 0, sqlName, io));
  }

  /** The type of {@code oid}, or null. */
  static PgType byOid(int oid) {
    return BY_OID.get(oid);
  }

  /** What format_type writes for a base type with modifier {@code typmod}, null for arrays. */
  static String formatName(int oid, int typmod) {
    PgType type = BY_OID.get(oid);
    if (type == null || type.element() != 0) {
      return null;
    }
    String name = type.sqlName() != null ? type.sqlName() : type.name();
    if (typmod < 0) {
      return name;
    }
    switch (oid) {
    case 1042:
    case 1043:
      return name + "(" + (typmod - 4) + ")";
    case 1700: {
      int mod = typmod - 4;
      return "numeric(" + ((mod >> 16) & 0xffff) + "," + (mod & 0xffff) + ")";
    }
    case 1083:
      return "time(" + typmod + ") without time zone";
    case 1114:
      return "timestamp(" + typmod + ") without time zone";
    case 1184:
      return "timestamp(" + typmod + ") with time zone";
    case 1266:
      return "time(" + typmod + ") with time zone";
    default:
      return name;
    }
  }

  /** For an array type, what format_type writes for its element type; else null. */
  static String elementOf(int oid, int typmod) {
    PgType type = BY_OID.get(oid);
    return type == null || type.element() == 0 ? null : formatName(type.element(), typmod);
  }

  /** The OID of the type format_type names {@code name} ({@code integer}), or null. */
  static Integer oidOfSqlName(String name) {
    return BY_SQL_NAME.get(name);
  }

  /** A Freshet column as PostgreSQL describes it: the OID of its type and its modifier. */
  record ColumnType(int oid, int typmod) {
  }

  /** The PostgreSQL type of a Freshet column; {@code text} if Freshet has no OID for it. */
  static ColumnType of(ResultColumn column) {
    SqlType type = SqlType.forName(column.typeName());
    int oid = type == null ? 25 : type.postgresOid();
    int precision = column.precision();
    int scale = column.scale();
    int typmod = -1;
    switch (oid) {
    case 1042:
    case 1043:
      // VARCHAR without a length is Calcite's longest: PostgreSQL's unbounded varchar.
      typmod = precision > 0 && precision < 65536 ? precision + 4 : -1;
      break;
    case 1700:
      typmod = precision > 0 ? ((precision << 16) | Math.max(scale, 0)) + 4 : -1;
      break;
    case 1083:
    case 1114:
    case 1184:
    case 1266:
      typmod = precision >= 0 && precision <= 6 ? precision : -1;
      break;
    default:
      break;
    }
    return new ColumnType(oid, typmod);
  }
}
