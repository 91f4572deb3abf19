package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each rule of the output-mode checker (Spark's {@code UnsupportedOperationChecker}), through
 * JDBC: the SQLSTATE and the whole message of a query that breaks it, and queries that pass.
 */
class OutputModeCheckerTest {
  private static final String SPARK_RULE = "42KDE";
  private static final String NOT_SUPPORTED_YET = "0A000";

  private Connection connection;
  private Statement statement;

  @BeforeEach void connect() throws Exception {
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
    statement = connection.createStatement();
    statement.execute("CREATE STREAM s (k VARCHAR, v INTEGER, ts TIMESTAMP(3),"
        + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH (connector = 'memory')");
  }

  @AfterEach void close() throws Exception {
    connection.close();
  }

  private void assertRejected(String sql, String sqlState, String message) {
    SQLException e = assertThrows(SQLException.class, () -> statement.executeQuery(sql).close(),
        sql);
    assertEquals(message, e.getMessage(), sql);
    assertEquals(sqlState, e.getSQLState(), sql);
  }

  @Test void shouldRejectAQueryThatReadsNoStream() {
    String message = "A continuous query needs a stream to read, and this query reads none."
        + " Select FROM a stream (SHOW STREAMS lists them), or INSERT the rows INTO a stream and"
        + " query that";
    assertRejected("SELECT STREAM 1", SPARK_RULE, message);
    assertRejected("SELECT STREAM * FROM (VALUES (1, 'a')) AS t (x, y) EMIT APPEND", SPARK_RULE,
        message);
  }

  @Test void shouldRejectAppendModeWhenNoGroupingColumnHasAWatermark() {
    assertRejected("SELECT STREAM k, COUNT(*) FROM s GROUP BY k EMIT APPEND", SPARK_RULE,
        "EMIT APPEND is not supported for a streaming aggregation without a watermark on a"
            + " grouping column, because no group could ever be final. Add WATERMARK FOR ts AS"
            + " ts - INTERVAL '5' SECOND to the stream and group by a window of ts, e.g. GROUP BY"
            + " TUMBLE(ts, INTERVAL '1' MINUTE); or use EMIT UPDATE or EMIT COMPLETE");
  }

  @Test void shouldRejectCompleteModeWithoutAggregation() {
    assertRejected("SELECT STREAM k, v FROM s WHERE v > 0 EMIT COMPLETE", SPARK_RULE,
        "EMIT COMPLETE is not supported for a query without a streaming aggregation, because its"
            + " complete result would be the whole stream. Add a GROUP BY, or use EMIT APPEND");
  }

  @Test void shouldRejectUpdateModeForSessionWindows() {
    String because = " is not supported for session windows, because merging sessions changes"
        + " their bounds and the rows emitted for the old bounds could not be replaced. Use EMIT"
        + " APPEND, which emits a session once the watermark closes it, or EMIT COMPLETE";
    assertRejected("SELECT STREAM k, COUNT(*) FROM s"
        + " GROUP BY k, SESSION(ts, INTERVAL '1' MINUTE) EMIT UPDATE", SPARK_RULE,
        "EMIT UPDATE" + because);
    assertRejected("SELECT STREAM k, COUNT(*) FROM s"
        + " GROUP BY k, SESSION(ts, INTERVAL '1' MINUTE)", SPARK_RULE,
        "EMIT UPDATE (the default for an aggregation)" + because);
    assertRejected("SELECT STREAM k, \"window_end\", COUNT(*)"
        + " FROM TABLE(SESSION(TABLE s, DESCRIPTOR(ts), DESCRIPTOR(k), INTERVAL '1' MINUTE))"
        + " GROUP BY k, \"window_end\" EMIT UPDATE", SPARK_RULE, "EMIT UPDATE" + because);
  }

  @Test void shouldRejectGroupingSets() {
    String message = "Grouping sets (CUBE, ROLLUP, GROUPING SETS) are not supported on streams."
        + " Group by plain columns, or run one query per grouping";
    assertRejected("SELECT STREAM k, v, COUNT(*) FROM s GROUP BY ROLLUP(k, v)", SPARK_RULE,
        message);
    assertRejected("SELECT STREAM k, v, COUNT(*) FROM s GROUP BY CUBE(k, v) EMIT COMPLETE",
        SPARK_RULE, message);
    assertRejected("SELECT STREAM k, v, COUNT(*) FROM s GROUP BY GROUPING SETS ((k), (v))",
        SPARK_RULE, message);
  }

  @Test void shouldRejectOrderByUnlessOnAnAggregationInCompleteMode() {
    String message = "ORDER BY is not supported on a stream, unless it sorts the result of an"
        + " aggregation in EMIT COMPLETE mode. Remove the ORDER BY, or sort the result of a"
        + " GROUP BY and use EMIT COMPLETE";
    assertRejected("SELECT STREAM k, ts FROM s ORDER BY ts", SPARK_RULE, message);
    assertRejected("SELECT STREAM k, COUNT(*) FROM s GROUP BY k ORDER BY 2 DESC EMIT UPDATE",
        SPARK_RULE, message);
  }

  @Test void shouldRejectLimitInUpdateMode() {
    String because = " mode, because the rows that a batch updates are not the first rows of the"
        + " result. Remove the LIMIT, or limit the result of a GROUP BY and use EMIT COMPLETE";
    assertRejected("SELECT STREAM k, COUNT(*) FROM s GROUP BY k LIMIT 3", SPARK_RULE,
        "LIMIT is not supported on a stream in EMIT UPDATE (the default for an aggregation)"
            + because);
    assertRejected("SELECT STREAM k, v FROM s FETCH FIRST 3 ROWS ONLY EMIT UPDATE", SPARK_RULE,
        "LIMIT is not supported on a stream in EMIT UPDATE" + because);
  }

  @Test void shouldRejectLimitOnTheRowsOfAStreamAsNotSupportedYet() {
    String because = " mode is not supported yet when it limits the rows of a stream rather than"
        + " the result of an aggregation: it needs a stateful limit that counts the rows of"
        + " earlier batches. Remove the LIMIT, or limit the result of a GROUP BY and use EMIT"
        + " COMPLETE";
    assertRejected("SELECT STREAM k, v FROM s LIMIT 3", NOT_SUPPORTED_YET,
        "LIMIT in EMIT APPEND (the default without aggregation)" + because);
    assertRejected("SELECT STREAM k, v FROM s FETCH FIRST 3 ROWS ONLY EMIT APPEND",
        NOT_SUPPORTED_YET, "LIMIT in EMIT APPEND" + because);
    assertRejected("SELECT STREAM k, COUNT(*) FROM (SELECT k FROM s LIMIT 10) GROUP BY k"
        + " EMIT COMPLETE", NOT_SUPPORTED_YET, "LIMIT in EMIT COMPLETE" + because);
  }

  @Test void shouldRejectOffset() {
    String message = "OFFSET is not supported on a stream. Remove the OFFSET; to leave rows out,"
        + " filter them with WHERE";
    assertRejected("SELECT STREAM k, v FROM s OFFSET 3 ROWS", SPARK_RULE, message);
    assertRejected("SELECT STREAM k, COUNT(*) AS n FROM s GROUP BY k ORDER BY n DESC"
        + " OFFSET 1 ROWS EMIT COMPLETE", SPARK_RULE, message);
  }

  @Test void shouldRejectTableSample() {
    assertRejected("SELECT STREAM k FROM s TABLESAMPLE BERNOULLI(10)", SPARK_RULE,
        "TABLESAMPLE is not supported on a stream. Remove it; to keep a fraction of the rows,"
            + " filter them, e.g. WHERE RAND() < 0.1");
  }

  @Test void shouldRejectWindowFunctionsOverRows() {
    String because = " has one). Aggregate per time window instead, e.g. GROUP BY TUMBLE(ts,"
        + " INTERVAL '1' MINUTE); to keep each key's first row, filter on ROW_NUMBER(): SELECT *"
        + " FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts) AS rn FROM s) WHERE"
        + " rn = 1";
    assertRejected("SELECT STREAM k, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts) AS rn"
        + " FROM s", SPARK_RULE, "Window functions with OVER (...) are not supported on a"
        + " stream, because a stream has time windows only (column RN" + because);
    assertRejected("SELECT STREAM k, SUM(v) OVER (PARTITION BY k) AS total FROM s", SPARK_RULE,
        "Window functions with OVER (...) are not supported on a stream, because a stream has"
            + " time windows only (column TOTAL" + because);
  }

  @Test void shouldRejectUnionOfAStreamAndAQueryThatReadsNoStream() {
    String message = "UNION of a stream and a query that reads no stream is not supported. Query"
        + " the stream alone; to add rows to it, INSERT them INTO the stream";
    assertRejected("SELECT STREAM k FROM s UNION ALL SELECT 'x'", SPARK_RULE, message);
    assertRejected("SELECT STREAM k FROM s UNION VALUES ('x')", SPARK_RULE, message);
  }

  @Test void shouldRejectUnionOfStreamsWithoutAll() throws Exception {
    statement.execute("CREATE STREAM s2 (k VARCHAR) WITH (connector = 'memory')");
    String message = "UNION of streams without ALL is not supported, because dropping duplicates"
        + " would keep every row of every stream. Write UNION ALL, and GROUP BY the columns if"
        + " duplicates must be counted once";
    assertRejected("SELECT STREAM k FROM s UNION SELECT k FROM s2", NOT_SUPPORTED_YET, message);
    assertRejected("SELECT STREAM k FROM s UNION SELECT k FROM s", NOT_SUPPORTED_YET, message);
  }

  @Test void shouldRejectExceptWithAStreamOnTheRight() {
    assertRejected("SELECT STREAM x FROM (VALUES ('a'), ('b')) AS t (x) EXCEPT SELECT k FROM s",
        SPARK_RULE, "EXCEPT with a stream on the right is not supported, because no row could be"
            + " known to be absent from a stream before it ends. Filter the rows with WHERE"
            + " instead, e.g. WHERE k NOT IN ('a', 'b')");
  }

  @Test void shouldRejectExceptOnTheLeftAsNotSupportedYet() {
    assertRejected("SELECT STREAM k FROM s EXCEPT VALUES ('a'), ('b')", NOT_SUPPORTED_YET,
        "EXCEPT on a stream is not supported yet. Filter the rows with WHERE instead, e.g."
            + " WHERE k NOT IN ('a', 'b')");
  }

  @Test void shouldRejectIntersect() {
    String message = "INTERSECT is not supported on a stream. Filter the rows with WHERE instead,"
        + " e.g. WHERE k IN ('a', 'b')";
    assertRejected("SELECT STREAM k FROM s INTERSECT VALUES ('a'), ('b')", SPARK_RULE, message);
    assertRejected("SELECT STREAM x FROM (VALUES ('a')) AS t (x) INTERSECT SELECT k FROM s",
        SPARK_RULE, message);
  }

  @Test void shouldRejectLateralJoinsAndStreamJoinsWithWhatIsNotATable() throws Exception {
    // A join of a stream with what is not a stream is a stream-table join, of a table only.
    assertRejected("SELECT STREAM s.k, t.n FROM s LEFT JOIN (VALUES ('a', 1)) AS t (k, n)"
        + " ON s.k = t.k", NOT_SUPPORTED_YET, "The table side of a stream-table join must be a"
        + " table created with CREATE TABLE, possibly filtered (WHERE) and projected, and here"
        + " it is not: it is a VALUES list. Join the stream with the table itself, e.g. FROM"
        + " orders o JOIN products p ON o.product_id = p.id, and filter in WHERE or ON");
    assertRejected("SELECT STREAM s.k, t.u FROM s, LATERAL (SELECT UPPER(s.k) AS u) AS t",
        NOT_SUPPORTED_YET, "A LATERAL join is not supported on a stream. Compute the values in"
            + " the SELECT list instead, e.g. SELECT k, UPPER(k) AS u FROM s");
  }


  @Test void shouldRejectSubqueriesAsNotSupportedYet() {
    String message = "Subqueries (IN, EXISTS or scalar) are not supported yet in a continuous"
        + " query, because they are joins. Write the values out instead, e.g. WHERE k IN ('a',"
        + " 'b')";
    assertRejected("SELECT STREAM k FROM s WHERE k IN (SELECT k FROM s WHERE v > 1)",
        NOT_SUPPORTED_YET, message);
    assertRejected("SELECT STREAM k, (SELECT 1) AS c FROM s", NOT_SUPPORTED_YET, message);
  }

  @Test void shouldRejectChainedAggregationsInUpdateAndCompleteMode() {
    String because = " mode, because the inner aggregation emits again every group it changes and"
        + " the outer one would count it twice (a possible correctness issue due to the global"
        + " watermark). Aggregate the stream once";
    assertRejected("SELECT STREAM n, COUNT(*) FROM (SELECT k, COUNT(*) AS n FROM s GROUP BY k)"
        + " GROUP BY n", SPARK_RULE, "An aggregation over the result of another streaming"
        + " aggregation (or of SELECT DISTINCT) is not supported in EMIT UPDATE (the default for"
        + " an aggregation)" + because);
    assertRejected("SELECT STREAM COUNT(*) FROM (SELECT DISTINCT k FROM s) EMIT COMPLETE",
        SPARK_RULE, "An aggregation over the result of another streaming aggregation (or of"
        + " SELECT DISTINCT) is not supported in EMIT COMPLETE" + because);
  }

  @Test void shouldRejectNewWindowsOverAnAggregationsResultInAppendModeAsNotSupportedYet() {
    assertRejected("SELECT STREAM TUMBLE_START(w, INTERVAL '1' HOUR), SUM(n) FROM (SELECT k,"
        + " TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w, COUNT(*) AS n FROM s GROUP BY k,"
        + " TUMBLE(ts, INTERVAL '1' MINUTE)) GROUP BY TUMBLE(w, INTERVAL '1' HOUR) EMIT APPEND",
        NOT_SUPPORTED_YET, "An aggregation over new windows of another streaming aggregation's"
            + " result is not supported yet in EMIT APPEND mode, because a window of the outer"
            + " one could close before the inner one emits its rows. Group the outer aggregation"
            + " by the inner one's windows, e.g. GROUP BY window_start, window_end");
  }

  @Test void shouldRejectAnInnerAggregationWithoutAWatermarkInAppendMode() {
    assertRejected("SELECT STREAM n, COUNT(*) FROM (SELECT k, COUNT(*) AS n FROM s GROUP BY k)"
        + " GROUP BY n EMIT APPEND", SPARK_RULE, "EMIT APPEND is not supported for a streaming"
        + " aggregation without a watermark on a grouping column, because no group could ever be"
        + " final. Add WATERMARK FOR ts AS ts - INTERVAL '5' SECOND to the stream and group by a"
        + " window of ts, e.g. GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE); or use EMIT UPDATE or"
        + " EMIT COMPLETE");
  }

  /** Issue 18's checker defect: the conversion dropped the sort, and the query ran. */
  @Test void shouldRejectASortOfAStreamInASubquery() {
    String message = "ORDER BY is not supported on a stream, unless it sorts the result of an"
        + " aggregation in EMIT COMPLETE mode; a sort in a subquery orders nothing that the query"
        + " above it keeps. Remove the ORDER BY from the subquery, or sort the result of the outer"
        + " GROUP BY and use EMIT COMPLETE";
    assertRejected("SELECT STREAM COUNT(*) FROM (SELECT * FROM s ORDER BY v) EMIT COMPLETE",
        SPARK_RULE, message);
    assertRejected("SELECT STREAM k FROM (SELECT k, v FROM s ORDER BY v DESC) AS t", SPARK_RULE,
        message);
  }

  /** Issue 18's checker defect: LAST_VALUE without OVER once failed at run time. */
  @Test void shouldRefuseAWindowFunctionWithoutOverSayingWhatToDoInstead() {
    assertRejected("SELECT STREAM LAST_VALUE(v) FROM s EMIT APPEND", "42000",
        "From line 1, column 15 to line 1, column 27: OVER clause is necessary for window"
            + " functions. LAST_VALUE, FIRST_VALUE, ROW_NUMBER, RANK, LAG and LEAD need OVER"
            + " (...), and a continuous query runs only ROW_NUMBER() OVER (PARTITION BY ..."
            + " ORDER BY ...) filtered to the first row: aggregate instead, e.g. SELECT k,"
            + " MAX(v) FROM s GROUP BY k");
  }

  /**
   * Issue 18's checker defect: the conversion replaced the unused inner aggregation by a row of
   * VALUES, and the query was refused as reading no stream.
   */
  @Test void shouldGiveTheChainedAggregationReasonWhenTheInnerAggregateIsUnused() {
    assertRejected("SELECT STREAM COUNT(*) FROM (SELECT COUNT(*) AS d FROM s) EMIT UPDATE",
        SPARK_RULE, "An aggregation over the result of another streaming aggregation (or of"
            + " SELECT DISTINCT) is not supported in EMIT UPDATE mode, because the inner"
            + " aggregation emits again every group it changes and the outer one would count it"
            + " twice (a possible correctness issue due to the global watermark). Aggregate the"
            + " stream once");
    // Without a stream it is still a query that reads none.
    assertRejected("SELECT STREAM COUNT(*) FROM (SELECT COUNT(*) AS d FROM (VALUES (1)) AS t (x))",
        SPARK_RULE, "A continuous query needs a stream to read, and this query reads none."
            + " Select FROM a stream (SHOW STREAMS lists them), or INSERT the rows INTO a stream"
            + " and query that");
  }

  @Test void shouldRunQueriesThatPassEveryRule() throws Exception {
    for (String sql : List.of(
        "SELECT STREAM k, COUNT(*), SUM(v) FROM s GROUP BY k",
        "SELECT STREAM k, COUNT(*) FROM s GROUP BY k EMIT COMPLETE",
        "SELECT STREAM k, v FROM s WHERE v > 1",
        "SELECT STREAM k, v FROM s WHERE k IN ('a', 'b') EMIT UPDATE",
        "SELECT STREAM DISTINCT k FROM s",
        "WITH big AS (SELECT k, v FROM s WHERE v > 10) SELECT STREAM k FROM big")) {
      try (Statement query = connection.createStatement();
           ResultSet rs = query.executeQuery(sql)) {
        assertEquals(true, rs.getMetaData().getColumnCount() > 0, sql);
      }
    }
  }

  @Test void shouldAllowNonDeterministicFunctions() throws Exception {
    try (Statement query = connection.createStatement();
         ResultSet rs = query.executeQuery("SELECT STREAM k, RAND() < 2 AS sampled FROM s"
             + " WHERE RAND() < 2")) {
      statement.executeUpdate("INSERT INTO s (k, v) VALUES ('a', 1)");
      assertEquals(List.of(List.of("a", true)), PushResults.readData(rs, 1));
    }
  }
}
