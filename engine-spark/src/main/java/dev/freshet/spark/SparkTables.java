package dev.freshet.spark;

import dev.freshet.common.errors.SqlState;
import dev.freshet.connectors.jdbc.JdbcReferenceData;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.security.Redaction;
import dev.freshet.engine.store.LocalTables;
import dev.freshet.engine.store.ResultDatabase;
import dev.freshet.common.types.SqlType;
import dev.freshet.planner.logical.LogicalField;
import dev.freshet.planner.logical.LogicalPlan.TableScan;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * A reference table as a static Spark Dataset read through Spark's JDBC data source. Spark plans
 * a stream-static join's static side again for every micro-batch, so each batch reads the table
 * as it is then, which is Freshet's "the table as it is when the batch starts".
 *
 * <pre>{@code
 * // CREATE TABLE customers (id BIGINT, tier VARCHAR) WITH (connector = 'jdbc', 'url' = ...)
 * Dataset<Row> customers = SparkTables.read(spark, table);   // SELECT ID, TIER FROM customers
 * }</pre>
 *
 * <p>A {@code connector = 'jdbc'} table is read where it lives: the executors run the SELECT,
 * so the database and its JDBC driver must be reachable from them. A table of the engine's own
 * lives in the server's H2 database, which only the server's JVM reaches: in local mode Spark's
 * executors run in that JVM, and H2 gives them the open database by its URL (a file database
 * too, with no second lock); on a cluster they cannot reach it, and the join is refused.
 */
final class SparkTables {
  private SparkTables() {
  }

  /**
   * The rows of the table {@code scan} reads, one column per column of the scan (the table's
   * declared columns) in order, with the names and types the database gives them, a TIMESTAMP
   * as its text (the caller renames and casts).
   *
   * @throws SQLException 0A000 for a table of the engine's own when Spark's executors are
   *     other JVMs
   */
  static Dataset<Row> read(SparkSession spark, TableScan table) throws SQLException {
    if (table.data() instanceof JdbcReferenceData jdbc) {
      Map<String, String> options = table.options();
      DataFrameReader reader = jdbc(spark, options.get("url"), jdbc.query(), table.columns());
      if (options.containsKey("username")) {
        reader = reader.option("user", options.get("username"));
      }
      if (options.containsKey("password")) {
        reader = reader.option("password", options.get("password"));
      }
      return load(reader, table, options.get("url"));
    }
    if (table.data() instanceof LocalTables.Table own) {
      if (!spark.sparkContext().isLocal()) {
        throw SparkErrors.notYetOnSpark("A join with table " + table.table() + ", kept in the"
            + " engine's own database, on a Spark cluster (master "
            + spark.sparkContext().master() + ", whose executors cannot reach the server's"
            + " H2 database)", "declare the table WITH (connector = 'jdbc', 'url' = ...) on a"
            + " database the executors reach, or run the view on Freshet's own executor");
      }
      return load(jdbc(spark, own.jdbcUrl(), own.query(), table.columns())
          .option("user", ResultDatabase.USER).option("password", ""), table, own.jdbcUrl());
    }
    throw SparkErrors.notYetOnSpark("Reading the table " + table.table() + " ("
        + table.data().description() + ")");
  }

  /**
   * The reader's Dataset. Spark connects here, in the driver, for the table's schema: a database
   * that cannot be reached is 08001, one that cannot answer the SELECT (the table or a column
   * gone since CREATE TABLE) 42S02.
   */
  private static Dataset<Row> load(DataFrameReader reader, TableScan table, String url)
      throws SQLException {
    try {
      return reader.load();
    } catch (Exception e) { // Spark's Scala code throws the driver's SQLException undeclared
      String shown = Redaction.url(url);
      String state = null;
      for (Throwable t = e; t != null && state == null; t = t.getCause()) {
        state = t instanceof SQLException sql ? sql.getSQLState() : null;
      }
      if (state != null && state.startsWith("08")) {
        throw Errors.of(SqlState.UNABLE_TO_CONNECT, "Spark cannot connect to " + shown + " to read"
            + " table " + table.table() + ": " + e.getMessage() + ". Check that the database is"
            + " up and reachable, and that its JDBC driver is on the class path", e);
      }
      throw Errors.of(SqlState.OBJECT_NOT_FOUND, "Spark cannot read table " + table.table()
          + " from " + shown + ": " + e.getMessage() + ". Check that the database still has the"
          + " table and its columns, and declare them as the database names them", e);
    }
  }

  private static DataFrameReader jdbc(SparkSession spark, String url, String query,
      List<LogicalField> columns) {
    // "query", not "dbtable": the same SELECT of the declared columns that Freshet runs, so
    // that the columns come in declaration order whatever case the database names them in.
    DataFrameReader reader = spark.read().format("jdbc").option("url", url)
        .option("query", query);
    // A TIMESTAMP is read as its text, the wall-clock time, which the cast to the declared type
    // takes as UTC (the session's zone), as Freshet does. Spark would read a java.sql.Timestamp,
    // which the database's driver makes in the JVM's zone (also with preferTimestampNTZ).
    StringJoiner asText = new StringJoiner(", ");
    for (LogicalField field : columns) {
      if (field.type().sqlType() == SqlType.TIMESTAMP) {
        asText.add("`" + field.name().replace("`", "``") + "` STRING");
      }
    }
    return asText.length() == 0 ? reader : reader.option("customSchema", asText.toString());
  }
}
