package dev.freshet.planner;

import dev.freshet.executor.source.StreamLogException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLSyntaxErrorException;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Factory of the errors the planner and the engine report, each with a SQLSTATE, what is wrong and
 * how to fix it.
 *
 * <p>SQLSTATEs: {@code 42000} syntax error, {@code 42S01} object exists, {@code 42S02} object not
 * found, {@code 42S22} column not found, {@code 42704} unknown query id, {@code 42809} object of
 * the wrong kind, {@code 42KDE} query not valid on a stream or in its output mode (as Spark),
 * {@code 2BP01} object still used by another (as PostgreSQL's "dependent objects still exist"),
 * {@code 0A000} not supported yet, {@code 22000} bad data, and as PostgreSQL for the files in the
 * data directory: {@code 58030} I/O error, {@code XX001} damaged file.
 */
public final class PlannerErrors {
  private PlannerErrors() {
  }

  /** A parse error at a position. */
  public static SQLException parseError(String message, int line, int column, Throwable cause) {
    return new SQLSyntaxErrorException("Syntax error at line " + line + ", column " + column
        + ": " + message, "42000", cause);
  }

  /** A validation error reported by Calcite's validator, with its position. */
  public static SQLException validationError(String message, String sqlState, Throwable cause) {
    return new SQLSyntaxErrorException(message, sqlState, cause);
  }

  /** A stream that already exists. */
  public static SQLException streamExists(String name) {
    return new SQLException("Stream '" + name + "' already exists. Use CREATE STREAM IF NOT EXISTS,"
        + " or DROP STREAM " + name + " first.", "42S01");
  }

  /** A stream that does not exist. */
  public static SQLException streamNotFound(String name) {
    return new SQLException("Stream '" + name + "' not found. See SHOW STREAMS, or create it with"
        + " CREATE STREAM " + name + " (...) WITH (connector = 'memory').", "42S02");
  }

  /**
   * A name that an object of another kind holds; streams and views share one namespace.
   *
   * @param kind what the statement creates, e.g. {@code stream}
   * @param holderKind what holds the name, e.g. {@code materialized view}
   * @param dropHolder the statement that would free the name
   */
  public static SQLException nameTaken(String kind, String name, String holderKind,
      String dropHolder) {
    return new SQLException("Cannot create " + kind + " '" + name + "': a " + holderKind
        + " of that name exists, and streams and views share one namespace. Choose another name,"
        + " or " + dropHolder + " first.", "42S01");
  }

  /** A materialized view that already exists. */
  public static SQLException viewExists(String name) {
    return new SQLException("Materialized view '" + name + "' already exists. Use CREATE"
        + " MATERIALIZED VIEW IF NOT EXISTS, or DROP MATERIALIZED VIEW " + name + " first.",
        "42S01");
  }

  /** A materialized view that does not exist. */
  public static SQLException viewNotFound(String name) {
    return new SQLException("Materialized view '" + name + "' not found. See SHOW VIEWS, or"
        + " create it with CREATE MATERIALIZED VIEW " + name + " AS SELECT ...", "42S02");
  }

  /** A name that is neither a stream nor a view. */
  public static SQLException objectNotFound(String name) {
    return new SQLException("Stream or view '" + name + "' not found. See SHOW STREAMS and"
        + " SHOW VIEWS.", "42S02");
  }

  /** A stream that cannot be dropped because materialized views read it. */
  public static SQLException streamInUse(String name, List<String> views) {
    String list = String.join(", ", views);
    return new SQLException("Cannot drop stream '" + name + "': materialized view"
        + (views.size() == 1 ? " " : "s ") + list + (views.size() == 1 ? " reads" : " read")
        + " it. Drop " + (views.size() == 1 ? "the view" : "them") + " first: DROP MATERIALIZED"
        + " VIEW " + views.get(0) + ".", "2BP01");
  }

  /**
   * A statement that names an object of another kind, e.g. {@code DROP STREAM} of a view.
   *
   * @param kind what the name is, e.g. {@code materialized view}
   * @param expected what the statement expects, e.g. {@code stream}
   * @param fix the statement to use instead
   */
  public static SQLException wrongObjectType(String name, String kind, String expected,
      String fix) {
    return new SQLException("'" + name + "' is a " + kind + ", not a " + expected + ". Use "
        + fix + ".", "42809");
  }

  /**
   * An INSERT into a stream that generates its own rows.
   *
   * @param connector the stream's connector, e.g. {@code sequence}
   */
  public static SQLException streamNotInsertable(String name, String connector) {
    return new SQLException("Cannot INSERT INTO stream '" + name + "': its rows are generated by"
        + " connector '" + connector + "', not inserted. INSERT into a stream declared WITH"
        + " (connector = 'memory').", "42809");
  }

  /** A {@code CREATE STREAM} whose connector Freshet does not have. */
  public static SQLException unknownConnector(String stream, String connector) {
    return new SQLFeatureNotSupportedException("Connector '" + connector + "' of stream " + stream
        + " is not supported yet. Use WITH (connector = 'memory') and INSERT rows, or WITH"
        + " (connector = 'sequence', 'end' = '1000000') for generated rows", "0A000");
  }

  /**
   * An option that the stream's connector does not know.
   *
   * @param valid every option the connector knows
   */
  public static SQLException unknownStreamOption(String stream, String connector, String option,
      List<String> valid) {
    return new SQLException("Unknown option '" + option + "' for connector '" + connector
        + "' of stream " + stream + ". Valid options: " + String.join(", ", valid), "42000");
  }

  /**
   * An option whose value the connector cannot use.
   *
   * @param expected what the value must be, e.g. {@code a whole number of rows, 1 or more}
   * @param cause the parse failure, or null
   */
  public static SQLException badStreamOption(String stream, String option, String value,
      String expected, @Nullable Throwable cause) {
    return new SQLException("Option '" + option + "' of stream " + stream + " is '" + value
        + "', but must be " + expected + ".", "42000", cause);
  }

  /** A sequence stream declared with other columns than its row number and event time. */
  public static SQLException sequenceColumns(String stream, List<String> columns) {
    return new SQLException("Stream " + stream + " (connector 'sequence') has columns ("
        + String.join(", ", columns) + "). A sequence stream has exactly one BIGINT column, the"
        + " row number, and optionally one TIMESTAMP column, the row's event time: CREATE STREAM "
        + stream + " (n BIGINT, ts TIMESTAMP(3)) WITH (connector = 'sequence', 'end' ="
        + " '1000000')", "42000");
  }

  /** A sequence stream with neither an end nor a pace. */
  public static SQLException sequenceWithoutEndOrPace(String stream) {
    return new SQLException("Stream " + stream + " (connector 'sequence') needs 'end' (the number"
        + " of rows) or 'rows.per.second' (a pace), or both: without either it would generate rows"
        + " as fast as it can, for ever. Add e.g. 'end' = '1000000' or 'rows.per.second' ="
        + " '1000'", "42000");
  }

  /**
   * A plain (bounded) SELECT over a stream that generates rows without end: the rows it has grow
   * with its age, without limit.
   */
  public static SQLException boundedReadOfEndlessStream(String stream) {
    return new SQLFeatureNotSupportedException("A plain SELECT reads every row of its stream at"
        + " once, but stream " + stream + " generates rows without end (connector 'sequence'"
        + " without 'end'). Use SELECT STREAM ... for a continuous query, or declare the stream"
        + " with 'end'", "0A000");
  }

  /** A query id that names no query of the engine. */
  public static SQLException queryNotFound(String id) {
    return new SQLException("Query '" + id + "' not found. See SHOW QUERIES for the ids and names"
        + " of the engine's queries.", "42704");
  }

  /** An output mode that a query cannot run in; {@code rule} names the rule, {@code fix} the fix. */
  public static SQLException outputModeNotSupported(String rule, String fix) {
    return new SQLException(rule + ". " + fix, "42KDE");
  }

  /**
   * An operation that a continuous query cannot have in any output mode, as Spark rejects it on a
   * stream; {@code rule} names the rule, {@code fix} the fix.
   */
  public static SQLException notValidOnStream(String rule, String fix) {
    return new SQLException(rule + ". " + fix, "42KDE");
  }

  /** A statement, query shape or option Freshet does not support. */
  public static SQLException notSupported(String what) {
    return new SQLFeatureNotSupportedException(what, "0A000");
  }

  /**
   * A query shape Freshet does not support yet; {@code what} names it, {@code fix} says how to
   * change the query.
   */
  public static SQLException notSupported(String what, String fix) {
    return new SQLFeatureNotSupportedException(what + ". " + fix, "0A000");
  }

  /** A query Freshet does not support, with the failure that showed it. */
  public static SQLException notSupported(String what, Throwable cause) {
    return new SQLFeatureNotSupportedException(what, "0A000", cause);
  }

  /** A malformed value, e.g. in an option or a watermark declaration. */
  public static SQLException invalidDefinition(String message) {
    return new SQLException(message, "42000");
  }

  /**
   * A failure of a stream's files in the data directory; the message, which names the file and
   * what to do, is the executor's. Rows stored with other columns are {@code 42S01}: a stream of
   * that name exists, with another definition.
   */
  public static SQLException streamLogError(StreamLogException e) {
    String sqlState;
    switch (e.code()) {
    case COLUMNS_DIFFER:
      sqlState = "42S01";
      break;
    case CORRUPT:
      sqlState = "XX001";
      break;
    case UNSUPPORTED_VERSION:
      sqlState = "0A000";
      break;
    default:
      sqlState = "58030";
      break;
    }
    return new SQLException(e.getMessage(), sqlState, e);
  }
}
