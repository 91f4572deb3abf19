package dev.freshet.jdbc;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.StatementParameters;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.query.ResultColumn;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.AvaticaParameter;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.avatica.util.ByteString;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Avatica's parameters and the engine's: a prepared statement's markers described as
 * {@link AvaticaParameter}s ({@code ParameterMetaData}), and the {@link TypedValue}s a client
 * sets turned into the Java values {@link StatementParameters#bind} takes.
 *
 * <pre>{@code
 * String sql = parameters.bind(ParameterValues.of(typedValues, parameters.count()));
 * }</pre>
 *
 * <p>Dates and times arrive as Avatica's local values (days, milliseconds of the day,
 * milliseconds since the epoch in the connection's time zone): the wall-clock date and time the
 * client set, which is what a SQL literal says.
 */
final class ParameterValues {
  private ParameterValues() {
  }

  /** The markers of a statement, as a prepared statement's signature lists them. */
  static List<AvaticaParameter> describe(StatementParameters parameters) {
    List<AvaticaParameter> list = new ArrayList<>(parameters.count());
    for (ResultColumn type : parameters.types()) {
      list.add(new AvaticaParameter(isSigned(type), Math.max(type.precision(), 0),
          Math.max(type.scale(), 0), type.jdbcType(), type.typeName(),
          jdbcClass(type).getName(), type.name()));
    }
    return list;
  }

  /**
   * The values of a statement with {@code count} markers; an unset marker (a null entry, or
   * fewer values than markers) is refused with 07001.
   */
  static List<@Nullable Object> of(List<TypedValue> values, int count) throws SQLException {
    List<@Nullable Object> list = new ArrayList<>(values.size());
    for (int i = 0; i < values.size(); i++) {
      TypedValue value = values.get(i);
      if (value == null) {
        throw StatementParameters.unset(i + 1, count);
      }
      list.add(javaValue(i + 1, value));
    }
    if (list.size() < count) {
      throw StatementParameters.unset(list.size() + 1, count);
    }
    return list;
  }

  private static @Nullable Object javaValue(int ordinal, TypedValue typed) throws SQLException {
    Object v = typed.value;
    if (v == null) {
      return null;
    }
    switch (typed.type) {
    case BYTE_STRING:
      return ByteString.ofBase64((String) v).getBytes();
    case JAVA_SQL_DATE:
      return LocalDate.ofEpochDay(((Number) v).longValue());
    case JAVA_SQL_TIME:
      return LocalTime.ofNanoOfDay(((Number) v).longValue() * 1_000_000L);
    case JAVA_SQL_TIMESTAMP:
    case JAVA_UTIL_DATE:
      long millis = ((Number) v).longValue();
      return LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000L),
          (int) Math.floorMod(millis, 1000L) * 1_000_000, ZoneOffset.UTC);
    case NUMBER:
      return decimal((Number) v);
    case FLOAT:
    case PRIMITIVE_FLOAT:
      // Through the float's own digits: 1.1f is 1.1, not 1.100000023841858.
      return Double.parseDouble(Float.toString(((Number) v).floatValue()));
    case DOUBLE:
    case PRIMITIVE_DOUBLE:
      return ((Number) v).doubleValue();
    case BYTE:
    case PRIMITIVE_BYTE:
    case SHORT:
    case PRIMITIVE_SHORT:
    case INTEGER:
    case PRIMITIVE_INT:
    case LONG:
    case PRIMITIVE_LONG:
      return ((Number) v).longValue();
    case BOOLEAN:
    case PRIMITIVE_BOOLEAN:
      return v instanceof Boolean ? v : Boolean.valueOf(v.toString());
    case STRING:
    case CHARACTER:
    case PRIMITIVE_CHAR:
      return v.toString();
    default:
      // OBJECT (setObject of a class Avatica has no representation for; JSON's plain values).
      if (v instanceof String || v instanceof Boolean || v instanceof BigDecimal
          || v instanceof Long || v instanceof Integer || v instanceof Double) {
        return v;
      }
      throw Errors.of(SqlState.INVALID_PARAMETER_VALUE, "Parameter " + ordinal + " is a "
          + typed.type + " value (" + v.getClass().getName() + "), which Freshet cannot use."
          + " Set a string, number, boolean, date, time, timestamp or bytes");
    }
  }

  private static BigDecimal decimal(Number n) {
    if (n instanceof BigDecimal d) {
      return d;
    }
    if (n instanceof BigInteger i) {
      return new BigDecimal(i);
    }
    if (n instanceof Double || n instanceof Float) {
      // A JSON client's decimal arrives as a double: its shortest digits are what was sent.
      return BigDecimal.valueOf(n.doubleValue());
    }
    return BigDecimal.valueOf(n.longValue());
  }

  private static boolean isSigned(ResultColumn type) {
    return Number.class.isAssignableFrom(jdbcClass(type));
  }

  /** The class {@code ParameterMetaData.getParameterClassName} reports. */
  private static Class<?> jdbcClass(ResultColumn type) {
    switch (type.jdbcType()) {
    case java.sql.Types.DATE:
      return java.sql.Date.class;
    case java.sql.Types.TIME:
      return java.sql.Time.class;
    case java.sql.Types.TIMESTAMP:
      return java.sql.Timestamp.class;
    default:
      return type.valueClass() == Object.class ? String.class : type.valueClass();
    }
  }
}
