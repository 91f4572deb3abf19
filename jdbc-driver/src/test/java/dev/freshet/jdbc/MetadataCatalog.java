package dev.freshet.jdbc;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A known catalog for the metadata tests: a stream with a column of most types (and a watermark),
 * a stream whose name a pattern can mistake for a view's, and views of each kind: grouped with
 * a visible key, global aggregate, appending, COMPLETE, and two whose key is not shown whole.
 */
final class MetadataCatalog {
  static final String ORDERS = "CREATE STREAM orders (order_id BIGINT NOT NULL,"
      + " customer VARCHAR(20), region CHAR(2), amount DECIMAL(10, 2), qty INTEGER,"
      + " paid BOOLEAN, ts TIMESTAMP(3), note VARCHAR,"
      + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH (connector = 'memory')";
  static final String SALESXTOTAL =
      "CREATE STREAM salesxtotal (x INTEGER) WITH (connector = 'memory')";
  /** Grouped by (customer, region), both shown: the key. */
  static final String SALES_BY_CUSTOMER = "CREATE MATERIALIZED VIEW sales_by_customer AS"
      + " SELECT region, customer, COUNT(*) AS orders, SUM(amount) AS total FROM orders"
      + " GROUP BY customer, region";
  /** One row, no key. */
  static final String SALES_TOTAL = "CREATE MATERIALIZED VIEW sales_total AS"
      + " SELECT COUNT(*) AS orders, SUM(amount) AS total FROM orders";
  /** Appends, no key. */
  static final String BIG_ORDERS = "CREATE MATERIALIZED VIEW big_orders AS"
      + " SELECT order_id, amount FROM orders WHERE amount > 100";
  /** COMPLETE mode: one row per region, the key. */
  static final String REGION_ORDERS = "CREATE MATERIALIZED VIEW region_orders AS"
      + " SELECT region, COUNT(*) AS n FROM orders GROUP BY region EMIT COMPLETE";
  /** The key (customer) is shown only through UPPER: no key column. */
  static final String UPPER_CUSTOMERS = "CREATE MATERIALIZED VIEW upper_customers AS"
      + " SELECT UPPER(customer) AS c, COUNT(*) AS n FROM orders GROUP BY customer";
  /** Only part of the key (customer, not region) is shown, which is not unique: no key. */
  static final String CUSTOMER_ONLY = "CREATE MATERIALIZED VIEW customer_only AS"
      + " SELECT customer, COUNT(*) AS n FROM orders GROUP BY customer, region";

  private MetadataCatalog() {
  }

  /** Creates the streams and views. */
  static void create(Statement statement) throws SQLException {
    for (String ddl : List.of(ORDERS, SALESXTOTAL, SALES_BY_CUSTOMER, SALES_TOTAL, BIG_ORDERS,
        REGION_ORDERS, UPPER_CUSTOMERS, CUSTOMER_ONLY)) {
      statement.execute(ddl);
    }
  }

  /** Every row of {@code rs}, which is closed; each row as a list of its column values. */
  static List<List<Object>> rows(ResultSet rs) throws SQLException {
    try (rs) {
      List<List<Object>> rows = new ArrayList<>();
      while (rs.next()) {
        rows.add(PushResults.row(rs));
      }
      return rows;
    }
  }

  /** The values of columns {@code labels} of every row of {@code rs}, which is closed. */
  static List<List<Object>> rows(ResultSet rs, String... labels) throws SQLException {
    try (rs) {
      List<List<Object>> rows = new ArrayList<>();
      while (rs.next()) {
        List<Object> row = new ArrayList<>();
        for (String label : labels) {
          row.add(rs.getObject(label));
        }
        rows.add(row);
      }
      return rows;
    }
  }

  /** The column labels of {@code metaData}. */
  static List<String> labels(ResultSetMetaData metaData) throws SQLException {
    List<String> labels = new ArrayList<>();
    for (int c = 1; c <= metaData.getColumnCount(); c++) {
      labels.add(metaData.getColumnLabel(c));
    }
    return labels;
  }

  /**
   * Each column of {@code metaData} as label, type code, type name, precision, scale,
   * nullability and display size: what a tool learns of a result's columns.
   */
  static List<List<Object>> describe(ResultSetMetaData metaData) throws SQLException {
    List<List<Object>> columns = new ArrayList<>();
    for (int c = 1; c <= metaData.getColumnCount(); c++) {
      columns.add(List.of(metaData.getColumnLabel(c), metaData.getColumnType(c),
          metaData.getColumnTypeName(c), metaData.getPrecision(c), metaData.getScale(c),
          metaData.isNullable(c), metaData.getColumnDisplaySize(c)));
    }
    return columns;
  }
}
