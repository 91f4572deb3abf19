package dev.freshet.common.errors;

/**
 * The SQLSTATEs that Freshet reports, one constant per code, named by what they mean.
 *
 * <pre>{@code
 * throw new PlanningException(SqlState.NOT_VALID_ON_STREAM, "OFFSET is not supported ...");
 * SqlState.NOT_VALID_ON_STREAM.code();   // "42KDE"
 * }</pre>
 *
 * <p>Each code is the one a peer uses for the same condition: the SQL standard's where it has one,
 * else PostgreSQL's, Spark's or ODBC's (whose {@code 42S..} and {@code HY...} codes H2 and most
 * JDBC drivers share), so that tools that know those systems read Freshet's errors right.
 */
public enum SqlState {
  /** {@code 0A000} A statement, query shape or option Freshet does not support (SQL standard). */
  FEATURE_NOT_SUPPORTED("0A000"),
  /** {@code 07001} Parameter markers without a value for each (SQL standard). */
  PARAMETER_VALUES_MISSING("07001"),
  /** {@code 08001} The driver cannot reach or open the engine (SQL standard). */
  UNABLE_TO_CONNECT("08001"),
  /** {@code 08002} A connection id that is open already (SQL standard: connection name in use). */
  CONNECTION_NAME_IN_USE("08002"),
  /** {@code 08003} A call on a connection that is closed (SQL standard). */
  CONNECTION_DOES_NOT_EXIST("08003"),
  /** {@code 08006} An external database's connection broke during a statement (SQL standard). */
  CONNECTION_FAILURE("08006"),
  /** {@code 08P01} A request that breaks the wire protocol, e.g. a malformed body (PostgreSQL). */
  PROTOCOL_VIOLATION("08P01"),
  /** {@code 22000} A value that breaks a computation or cannot be stored (SQL standard). */
  DATA_EXCEPTION("22000"),
  /** {@code 22003} A number too large or small for its type (SQL standard). */
  NUMERIC_VALUE_OUT_OF_RANGE("22003"),
  /** {@code 22012} A division by zero (SQL standard). */
  DIVISION_BY_ZERO("22012"),
  /** {@code 22018} A text value that cannot be cast to the type asked for (SQL standard). */
  INVALID_CHARACTER_VALUE_FOR_CAST("22018"),
  /** {@code 22023} An argument or option value out of its range (PostgreSQL). */
  INVALID_PARAMETER_VALUE("22023"),
  /** {@code 23502} No value for a NOT NULL column (PostgreSQL, SQL standard class 23). */
  NOT_NULL_VIOLATION("23502"),
  /** {@code 24000} A fetch that does not follow the cursor's position (SQL standard). */
  INVALID_CURSOR_STATE("24000"),
  /** {@code 25006} A write on a read-only connection (SQL standard: read-only SQL transaction). */
  READ_ONLY_SQL_TRANSACTION("25006"),
  /** {@code 2BP01} An object that others still use, e.g. a stream views read (PostgreSQL). */
  DEPENDENT_OBJECTS_STILL_EXIST("2BP01"),
  /** {@code 28000} An external system refused the login (SQL standard). */
  INVALID_AUTHORIZATION_SPECIFICATION("28000"),
  /** {@code 28P01} An external database refused the password (PostgreSQL). */
  INVALID_PASSWORD("28P01"),
  /** {@code 3F000} A schema that does not exist (SQL standard). */
  INVALID_SCHEMA_NAME("3F000"),
  /** {@code 40001} An external database rolled back a transaction to serialize it (SQL standard). */
  SERIALIZATION_FAILURE("40001"),
  /** {@code 40P01} An external database rolled back a transaction in a deadlock (PostgreSQL). */
  DEADLOCK_DETECTED("40P01"),
  /** {@code 42000} A syntax error or a malformed definition (SQL standard). */
  SYNTAX_ERROR("42000"),
  /** {@code 42501} A call on a session that another user opened (SQL standard). */
  INSUFFICIENT_PRIVILEGE("42501"),
  /** {@code 42702} A column name that more than one input has (PostgreSQL). */
  AMBIGUOUS_COLUMN("42702"),
  /** {@code 42704} An object other than a table or column that does not exist (PostgreSQL). */
  UNDEFINED_OBJECT("42704"),
  /** {@code 42809} An object of another kind than the statement expects (PostgreSQL). */
  WRONG_OBJECT_TYPE("42809"),
  /**
   * {@code 42883} A function that Freshet does not have, e.g. H2's {@code FILE_READ} in a
   * table's UPDATE (PostgreSQL).
   */
  UNDEFINED_FUNCTION("42883"),
  /**
   * {@code 42KDE} A query that is not valid on a stream, or not in its output mode (Spark's
   * state for its streaming checks).
   */
  NOT_VALID_ON_STREAM("42KDE"),
  /** {@code 42S01} A stream or view of that name exists already (ODBC). */
  OBJECT_EXISTS("42S01"),
  /** {@code 42S02} A stream or view that does not exist (ODBC). */
  OBJECT_NOT_FOUND("42S02"),
  /** {@code 42S22} A column that does not exist (ODBC). */
  COLUMN_NOT_FOUND("42S22"),
  /** {@code 53000} The engine ran out of a resource, e.g. a push query's buffer (PostgreSQL). */
  INSUFFICIENT_RESOURCES("53000"),
  /**
   * {@code 53200} A query that needs more memory than its budget or the engine's allows
   * (PostgreSQL's out_of_memory).
   */
  OUT_OF_MEMORY("53200"),
  /**
   * {@code 57014} A plain query cancelled while it ran, by {@code Statement.cancel()} or
   * {@code STOP QUERY} (PostgreSQL's query_canceled).
   */
  QUERY_CANCELED("57014"),
  /** {@code 53400} A configured limit reached, e.g. of push queries (PostgreSQL). */
  CONFIGURATION_LIMIT_EXCEEDED("53400"),
  /**
   * {@code 54000} A statement or request beyond a limit on what one may demand: more windows per
   * row than allowed, a request larger than the server accepts (PostgreSQL's
   * program_limit_exceeded).
   */
  PROGRAM_LIMIT_EXCEEDED("54000"),
  /** {@code 54001} A statement nested too deeply to parse or plan (PostgreSQL). */
  STATEMENT_TOO_COMPLEX("54001"),
  /**
   * {@code 55000} A view's checkpoint holds a plan or state this code cannot read (PostgreSQL's
   * object_not_in_prerequisite_state).
   */
  OBJECT_NOT_IN_PREREQUISITE_STATE("55000"),
  /** {@code 57P01} An external database is shutting down (PostgreSQL's admin shutdown). */
  ADMIN_SHUTDOWN("57P01"),
  /** {@code 57P03} An external database does not take connections yet (PostgreSQL). */
  CANNOT_CONNECT_NOW("57P03"),
  /** {@code 58000} A failure of the engine outside the statement, e.g. of a query (PostgreSQL). */
  SYSTEM_ERROR("58000"),
  /** {@code 58030} A failure to read or write a file of the data directory (PostgreSQL). */
  IO_ERROR("58030"),
  /** {@code HY000} An error that no more specific state describes (ODBC). */
  GENERAL_ERROR("HY000"),
  /** {@code HY008} A statement canceled by its caller (ODBC). */
  OPERATION_CANCELED("HY008"),
  /** {@code HY010} A call on a statement that is closed (ODBC). */
  FUNCTION_SEQUENCE_ERROR("HY010"),
  /** {@code HYT00} A statement that ran out of its query timeout (ODBC). */
  TIMEOUT_EXPIRED("HYT00"),
  /** {@code XX000} A failure inside Freshet: a bug, reported with what it was doing (PostgreSQL). */
  INTERNAL_ERROR("XX000"),
  /** {@code XX001} A damaged file in the data directory (PostgreSQL). */
  DATA_CORRUPTED("XX001");

  private final String code;

  SqlState(String code) {
    this.code = code;
  }

  /** The constant whose code is {@code code}, if there is one. */
  public static java.util.Optional<SqlState> of(String code) {
    for (SqlState state : values()) {
      if (state.code.equals(code)) {
        return java.util.Optional.of(state);
      }
    }
    return java.util.Optional.empty();
  }

  /** The five-character SQLSTATE, e.g. {@code 42S02}. */
  public String code() {
    return code;
  }

  /**
   * The state's class, its first two characters: the kind of condition, e.g. {@code 42} for
   * syntax errors and access rule violations.
   */
  public String sqlClass() {
    return code.substring(0, 2);
  }
}
