package dev.freshet.pgwire.protocol;

import dev.freshet.common.types.SqlType;
import dev.freshet.engine.query.ResultColumn;
import java.util.Locale;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One column of a result as a PostgreSQL client sees it in RowDescription: its name, type OID,
 * type length and modifier, and the format its values are written in.
 *
 * <pre>{@code
 * PgColumn.of(ResultColumn.varchar("NAME", 20), PgColumn.TEXT);   // name, 1043, -1, 24
 * }</pre>
 *
 * <p>The OID comes from Freshet's type descriptor ({@link SqlType#postgresOid}); a column whose
 * type name is no Freshet type but a PostgreSQL one ({@code oid}, {@code name}, {@code _text}:
 * what the catalog answers) gets that type's OID, and any other is {@code text}. A name
 * Freshet folded to upper case ({@code USER_ID}) is shown in lower case, as PostgreSQL folds.
 *
 * @param name the column's label
 * @param type Freshet's type, or null for a PostgreSQL-only type written by its text form
 * @param oid the PostgreSQL type's OID
 * @param typlen the type's length in bytes, -1 for variable
 * @param typmod the type modifier (varchar(n): n + 4), -1 for none
 * @param binary whether values are written in the binary format
 */
record PgColumn(String name, @Nullable SqlType type, int oid, int typlen, int typmod,
    boolean binary) {
  /** The text format code. */
  static final int TEXT = 0;
  /** The binary format code. */
  static final int BINARY = 1;
  /** The OID of {@code text}, for values of types PostgreSQL clients cannot know. */
  static final int TEXT_OID = 25;

  /** OIDs of PostgreSQL types a catalog result may name, by type name. */
  private static final Map<String, Integer> PG_TYPES = Map.ofEntries(
      Map.entry("bool", 16), Map.entry("bytea", 17), Map.entry("char", 18),
      Map.entry("name", 19), Map.entry("int8", 20), Map.entry("int2", 21),
      Map.entry("int2vector", 22), Map.entry("int4", 23), Map.entry("regproc", 24),
      Map.entry("text", 25), Map.entry("oid", 26), Map.entry("xid", 28),
      Map.entry("oidvector", 30), Map.entry("pg_node_tree", 194), Map.entry("float4", 700),
      Map.entry("float8", 701), Map.entry("_int2", 1005), Map.entry("_int4", 1007),
      Map.entry("_text", 1009), Map.entry("_oid", 1028), Map.entry("_char", 1002),
      Map.entry("_name", 1003), Map.entry("_float8", 1022), Map.entry("aclitem", 1033),
      Map.entry("_aclitem", 1034), Map.entry("bpchar", 1042), Map.entry("varchar", 1043),
      Map.entry("date", 1082), Map.entry("time", 1083), Map.entry("timestamp", 1114),
      Map.entry("timestamptz", 1184), Map.entry("interval", 1186), Map.entry("numeric", 1700),
      Map.entry("regclass", 2205), Map.entry("regtype", 2206), Map.entry("regnamespace", 4089),
      Map.entry("regrole", 4096), Map.entry("_varchar", 1015), Map.entry("_int8", 1016));

  /** The column {@code column} of a result, its values in {@code format}. */
  static PgColumn of(ResultColumn column, int format) {
    // A PostgreSQL name as written ("char", "date") is PostgreSQL's; Freshet's are upper case.
    SqlType type = PG_TYPES.containsKey(column.typeName()) ? null
        : SqlType.forName(column.typeName());
    // Freshet's upper-case labels shown in lower case; a catalog result's (PostgreSQL types)
    // are PostgreSQL's own, as written ("TABLE_CAT" in pgjdbc's metadata queries).
    String label = type != null && column.name().equals(column.name().toUpperCase(Locale.ROOT))
        ? column.name().toLowerCase(Locale.ROOT) : column.name();
    if (type == null) {
      Integer oid = PG_TYPES.get(column.typeName().toLowerCase(Locale.ROOT));
      int pgOid = oid == null ? TEXT_OID : oid;
      return new PgColumn(label, null, pgOid, typlen(pgOid), -1, format == BINARY);
    }
    return new PgColumn(label, type, type.postgresOid(), typlen(type.postgresOid()),
        typmod(type, column.precision(), column.scale()), format == BINARY);
  }

  /** PostgreSQL's {@code typlen} of the type with {@code oid}. */
  static int typlen(int oid) {
    return switch (oid) {
      case 16, 18 -> 1;
      case 21 -> 2;
      case 23, 26, 24, 700, 1082, 2205, 2206, 28 -> 4;
      case 20, 701, 1083, 1114, 1184 -> 8;
      case 1266 -> 12;
      case 1186 -> 16;
      case 19 -> 64;
      default -> -1;
    };
  }

  /** PostgreSQL's type modifier for {@code type} of {@code precision} and {@code scale}. */
  static int typmod(SqlType type, int precision, int scale) {
    return switch (type) {
      // PostgreSQL's largest varchar(n) is 10485760; Calcite's unbounded VARCHAR is larger.
      case CHAR, VARCHAR -> precision > 0 && precision <= 10_485_760 ? precision + 4 : -1;
      case DECIMAL -> precision > 0 && precision <= 1000
          ? ((precision << 16) | Math.max(scale, 0)) + 4 : -1;
      case TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE, TIME ->
          precision >= 0 && precision <= 6 ? precision : -1;
      default -> -1;
    };
  }

  /** This column with its values in {@code format}. */
  PgColumn withFormat(int format) {
    return new PgColumn(name, type, oid, typlen, typmod, format == BINARY);
  }
}
