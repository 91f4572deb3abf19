package dev.freshet.engine;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.query.ResultColumn;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.errors.PlanningException;
import dev.freshet.sql.parser.SqlEmit;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import dev.freshet.engine.security.ObjectReferences;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The parameter markers ({@code ?}) of a statement: how many, of which types, and the statement
 * with values in their place.
 *
 * <pre>{@code
 * StatementParameters p = StatementParameters.of(session, "INSERT INTO clicks VALUES (?, ?)");
 * p.types();                                   // USER_ID VARCHAR, N BIGINT
 * session.execute(p.bind(List.of("ann", 3L))); // INSERT INTO clicks VALUES ('ann', 3)
 * }</pre>
 *
 * <p>Binding writes each value as a SQL literal where its marker stands in the statement's text
 * and the statement then runs as if it had been written so: every kind of statement takes
 * parameters the same way (a pull query, an INSERT, a push query bound once when it starts), and
 * the text a push query reports ({@code SHOW QUERIES}) shows the values it runs with. Nothing
 * else of the text changes, so a value can never become SQL: strings are quoted, everything else
 * is rendered from its Java type.
 *
 * <p>{@link Session#execute(StatementParameters, List)} binds a plain query that Calcite runs
 * otherwise: it is planned with its markers, once for every value, and run with the values as
 * they are, where they mean exactly what their literals would.
 *
 * <p>Types come from Calcite's validator ({@code user_id = ?} has the type of {@code user_id};
 * {@code INSERT INTO s VALUES (?)} the column's); where it cannot tell (a marker in a query over a
 * system table, or in DDL), a marker is {@code VARCHAR}.
 *
 * <p>Values are Java objects: {@code String}, {@code Boolean}, an integer ({@code Byte} to
 * {@code Long}, {@code BigInteger}), {@code BigDecimal}, {@code Float}, {@code Double},
 * {@code LocalDate}, {@code LocalTime}, {@code LocalDateTime}, {@code byte[]}, or null for SQL
 * NULL.
 */
public final class StatementParameters {
  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS");
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

  private final String sql;
  /** Where each marker's {@code ?} is in {@link #sql}, in marker order. */
  private final int[] offsets;
  private final List<ResultColumn> types;
  /** Whether the statement is a plain query, the one kind that runs with its markers. */
  private final boolean plainQuery;
  /**
   * What the statement reads and writes, found once: a plain query run with its markers checks
   * its user's privileges on these at each execution, without parsing its bound text again.
   */
  private final ObjectReferences references;
  /** The plain query planned with its markers, for the catalog version it was planned at. */
  private volatile @Nullable Planned planned;

  /**
   * A plan of the statement and what it is valid for: the engine, and the catalog version taken
   * before planning (a DDL statement since then plans it again).
   */
  private record Planned(Engine engine, long catalogVersion,
      PlainSelect.Parameterized select) {
  }

  private StatementParameters(String sql, int[] offsets, List<ResultColumn> types,
      boolean plainQuery, ObjectReferences references) {
    this.references = references;
    this.sql = sql;
    this.offsets = offsets;
    this.types = List.copyOf(types);
    this.plainQuery = plainQuery;
  }

  /**
   * Finds the markers of statement {@code sql} and infers their types.
   *
   * @throws SQLException if the statement cannot be parsed (42601)
   */
  public static StatementParameters of(Session session, String sql) throws SQLException {
    requireNonNull(session, "session");
    SqlNode node = Session.parse(sql);
    boolean plainQuery = node.isA(SqlKind.QUERY) && !FreshetPlanner.isStreamQuery(node);
    List<SqlDynamicParam> markers = markers(node);
    if (markers.isEmpty()) {
      return new StatementParameters(sql, new int[0], List.of(), plainQuery,
          ObjectReferences.of(node));
    }
    int[] offsets = new int[markers.size()];
    for (int i = 0; i < offsets.length; i++) {
      offsets[i] = offset(sql, markers.get(i).getParserPosition());
    }
    return new StatementParameters(sql, offsets, infer(session, sql, markers.size()),
        plainQuery, ObjectReferences.of(node));
  }

  /** The statement's text, with its markers. */
  public String sql() {
    return sql;
  }

  /**
   * Whether the statement is a plain query ({@code SELECT} without {@code STREAM}): the one
   * kind that {@link Session#execute(StatementParameters, List)} can run with its markers; any
   * other runs as its bound text, which is not parsed again to find that out.
   */
  boolean plainQuery() {
    return plainQuery;
  }

  /** What the statement reads and writes, as its text names them. */
  ObjectReferences references() {
    return references;
  }

  /**
   * The plain query planned with its markers, as {@link PlainSelect#parameterized} plans it, or
   * null if it does not run so. A prepared statement executed again with the catalog unchanged
   * reuses it instead of parsing its text each time.
   */
  PlainSelect.@Nullable Parameterized parameterized(Engine engine) throws SQLException {
    Planned cached = planned;
    long version = engine.catalog().version();
    if (cached != null && cached.engine() == engine && cached.catalogVersion() == version) {
      return cached.select();
    }
    PlainSelect.Parameterized select = PlainSelect.parameterized(engine, Session.parse(sql));
    if (select != null) {
      planned = new Planned(engine, version, select);
    }
    return select;
  }

  /** How many markers the statement has. */
  public int count() {
    return offsets.length;
  }

  /** The type of each marker, in order; a marker's name is {@code ?1}, {@code ?2}, ... */
  public List<ResultColumn> types() {
    return types;
  }

  /**
   * The statement with {@code values} in place of its markers, one value per marker in order.
   *
   * @throws SQLException 07001 if there are fewer or more values than markers, 22023 if a value
   *     is of a Java type that has no SQL literal
   */
  public String bind(List<?> values) throws SQLException {
    if (values.size() != offsets.length) {
      throw Errors.of(SqlState.PARAMETER_VALUES_MISSING, "The statement has " + offsets.length
          + " parameter marker" + (offsets.length == 1 ? "" : "s") + " (?) but "
          + values.size() + " value" + (values.size() == 1 ? " was" : "s were")
          + " given. Set exactly one value per marker (" + (offsets.length == 1
              ? "setXxx(1, ...)" : "setXxx(1, ...) to setXxx(" + offsets.length + ", ...)")
          + ")");
    }
    if (offsets.length == 0) {
      return sql;
    }
    StringBuilder bound = new StringBuilder(sql.length() + 16 * offsets.length);
    int from = 0;
    for (int i = 0; i < offsets.length; i++) {
      bound.append(sql, from, offsets[i]).append(literal(i, values.get(i)));
      from = offsets[i] + 1;
    }
    return bound.append(sql, from, sql.length()).toString();
  }

  /**
   * The error for marker {@code ordinal} (1-based) left without a value: executing a statement
   * whose markers are not all set.
   */
  public static SQLException unset(int ordinal, int count) {
    return Errors.of(SqlState.PARAMETER_VALUES_MISSING, "Parameter " + ordinal + " of " + count
        + " has no value. Set every parameter (setXxx(" + ordinal + ", ...), or setNull("
        + ordinal + ", type) for NULL) before executing");
  }

  private String literal(int index, @Nullable Object value) throws SQLException {
    ResultColumn type = types.get(index);
    if (value == null) {
      // A bare NULL has no type, and Calcite refuses it in a comparison.
      return "CAST(NULL AS " + typeSpec(type) + ")";
    }
    if (value instanceof String s) {
      String quoted = "'" + s.replace("'", "''") + "'";
      return isCharacter(type) ? quoted : "CAST(" + quoted + " AS " + typeSpec(type) + ")";
    }
    if (value instanceof Boolean b) {
      return b ? "TRUE" : "FALSE";
    }
    if (value instanceof Byte || value instanceof Short || value instanceof Integer
        || value instanceof Long || value instanceof BigInteger) {
      return value.toString();
    }
    if (value instanceof BigDecimal d) {
      return d.toPlainString();
    }
    if (value instanceof Float || value instanceof Double) {
      double d = ((Number) value).doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        return "CAST('" + (Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity")
            + "' AS DOUBLE)";
      }
      String text = Double.toString(d);
      return text.contains("E") ? text : text + "E0";
    }
    if (value instanceof LocalDateTime t) {
      return "TIMESTAMP '" + TIMESTAMP.format(t) + "'";
    }
    if (value instanceof LocalDate d) {
      return "DATE '" + d + "'";
    }
    if (value instanceof LocalTime t) {
      return "TIME '" + TIME.format(t) + "'";
    }
    if (value instanceof byte[] bytes) {
      StringBuilder hex = new StringBuilder("X'");
      for (byte b : bytes) {
        hex.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
      }
      return hex.append('\'').toString();
    }
    throw Errors.of(SqlState.INVALID_PARAMETER_VALUE, "Parameter " + (index + 1) + " is a "
        + value.getClass().getName() + ", which Freshet cannot use as a value. Set a string,"
        + " number, boolean, date, time, timestamp or bytes");
  }

  private static boolean isCharacter(ResultColumn type) {
    return type.jdbcType() == Types.VARCHAR || type.jdbcType() == Types.CHAR;
  }

  /** The type as written in a CAST. */
  private static String typeSpec(ResultColumn type) {
    switch (type.jdbcType()) {
    case Types.DECIMAL:
      return type.precision() > 0
          ? "DECIMAL(" + type.precision() + ", " + Math.max(type.scale(), 0) + ")" : "DECIMAL";
    case Types.CHAR:
      return type.precision() > 0 ? "CHAR(" + type.precision() + ")" : "CHAR";
    default:
      return type.typeName();
    }
  }

  private static List<SqlDynamicParam> markers(SqlNode node) {
    return ParameterMarkers.of(node);
  }

  /**
   * The offset in {@code sql} of the {@code ?} at {@code pos}: the parser counts lines from 1
   * (a line ends at {@code \n}, {@code \r} or {@code \r\n}) and columns from 1, one per char.
   */
  private static int offset(String sql, SqlParserPos pos) {
    int line = 1;
    int i = 0;
    while (line < pos.getLineNum() && i < sql.length()) {
      char c = sql.charAt(i++);
      if (c == '\n' || c == '\r') {
        if (c == '\r' && i < sql.length() && sql.charAt(i) == '\n') {
          i++;
        }
        line++;
      }
    }
    int offset = i + pos.getColumnNum() - 1;
    if (offset < 0 || offset >= sql.length() || sql.charAt(offset) != '?') {
      throw new IllegalStateException("parameter marker not found at " + pos + " in: " + sql);
    }
    return offset;
  }

  /** The markers' types as the validator infers them, or VARCHAR where it cannot. */
  private static List<ResultColumn> infer(Session session, String sql, int count)
      throws SQLException {
    SqlNode node = Session.parse(sql);
    if (node instanceof SqlEmit emit) {
      node = emit.query();
    }
    List<ResultColumn> types = new ArrayList<>(count);
    if (node instanceof SqlInsert || node.isA(SqlKind.QUERY)) {
      try {
        RelDataType row = session.engine().planner().parameterRowType(node);
        if (row.getFieldCount() == count) {
          for (int i = 0; i < count; i++) {
            RelDataTypeField field = row.getFieldList().get(i);
            ResultColumn column = ResultColumn.of(field);
            types.add(new ResultColumn("?" + (i + 1), column.jdbcType(), column.typeName(),
                column.precision(), column.scale(), true, column.displaySize(),
                column.valueClass()));
          }
          return types;
        }
      } catch (PlanningException | RuntimeException e) {
        // Not valid for the streaming planner's validator (a system table, a view the planner
        // does not resolve): executing reports what is wrong; the markers stay VARCHAR.
      }
    }
    for (int i = 0; i < count; i++) {
      types.add(new ResultColumn("?" + (i + 1), Types.VARCHAR, "VARCHAR", -1, -1, true, 255,
          String.class));
    }
    return types;
  }
}
