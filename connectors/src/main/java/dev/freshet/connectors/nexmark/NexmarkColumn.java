package dev.freshet.connectors.nexmark;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.types.SqlType;

/**
 * One column that the Nexmark generator produces for an event type: its SQL name, its name in the
 * Nexmark specification and its type.
 *
 * <pre>{@code
 * NexmarkColumn c = NexmarkEventType.BID.columns().get(5);
 * c.sqlName();        // "date_time"
 * c.nexmarkName();    // "dateTime"
 * c.type();           // TIMESTAMP: epoch milliseconds in a Long
 * }</pre>
 *
 * @param sqlName the name in snake case, as {@code CREATE STREAM} declares it
 * @param nexmarkName the name in the Nexmark specification (Flink's DDL), in camel case
 * @param type what the values are
 */
public record NexmarkColumn(String sqlName, String nexmarkName, Type type) {
  /** What a column holds, and how a row carries it. */
  public enum Type {
    /** A BIGINT: a {@code Long}. */
    BIGINT(SqlType.BIGINT),
    /** A VARCHAR: a {@code String}. */
    VARCHAR(SqlType.VARCHAR),
    /** A TIMESTAMP(3): epoch milliseconds in a {@code Long}. */
    TIMESTAMP(SqlType.TIMESTAMP);

    private final SqlType sqlType;

    Type(SqlType sqlType) {
      this.sqlType = sqlType;
    }

    /** The descriptor of the SQL type a stream declares for the column. */
    public SqlType sqlType() {
      return sqlType;
    }
  }

  public NexmarkColumn {
    requireNonNull(sqlName, "sqlName");
    requireNonNull(nexmarkName, "nexmarkName");
    requireNonNull(type, "type");
  }

  /**
   * Whether {@code declared} names this column: its SQL or its Nexmark name, ignoring case, so
   * that {@code date_time}, {@code DATE_TIME} and {@code dateTime} all do.
   */
  public boolean isNamed(String declared) {
    return sqlName.equalsIgnoreCase(declared) || nexmarkName.equalsIgnoreCase(declared);
  }
}
