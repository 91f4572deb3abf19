package dev.freshet.jdbc.crash;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

/**
 * The child JVM of {@link SinkExactlyOnceCrashTest}: an embedded engine on a data directory
 * reading a Kafka topic into a view, with the view's result sunk into PostgreSQL and into a Kafka
 * topic, and the raw rows appended into PostgreSQL. It prints {@code PROGRESS} for each change of
 * the view (a subscription to it), until the parent kills it.
 *
 * <p>Arguments: data directory, bootstrap servers, input topic, sink topic, PostgreSQL URL.
 */
public final class SinkCrashTestChild {
  private SinkCrashTestChild() {
  }

  /** The child's declarations, which the test's restarted engine repeats. */
  static List<String> declarations(String servers, String topic, String sinkTopic, String pg) {
    return List.of("SET 'state.partitions' = '2'",
        "CREATE STREAM IF NOT EXISTS orders (id BIGINT NOT NULL, item VARCHAR,"
            + " qty INTEGER) WITH (connector = 'kafka', 'topic' = '" + topic + "',"
            + " 'properties.bootstrap.servers' = '" + servers + "', 'format' = 'json',"
            + " 'scan.max-records-per-batch' = '40')",
        "CREATE MATERIALIZED VIEW IF NOT EXISTS totals AS SELECT item, COUNT(*) AS n,"
            + " SUM(qty) AS q FROM orders GROUP BY item",
        "CREATE SINK IF NOT EXISTS totals_pg FROM totals WITH (connector = 'jdbc',"
            + " 'url' = '" + pg + "', 'table-name' = 'totals')",
        "CREATE SINK IF NOT EXISTS totals_kafka FROM totals WITH (connector = 'kafka',"
            + " 'topic' = '" + sinkTopic + "', 'properties.bootstrap.servers' = '" + servers
            + "')",
        "CREATE SINK IF NOT EXISTS raw_pg AS SELECT id, item, qty FROM orders"
            + " WITH (connector = 'jdbc', 'url' = '" + pg + "', 'table-name' = 'raw_orders')");
  }

  public static void main(String[] args) throws Exception {
    String dataDir = args[0];
    String servers = args[1];
    String topic = args[2];
    String sinkTopic = args[3];
    String pg = args[4];
    PrintStream out = System.out;
    try (Connection c = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
         Statement s = c.createStatement()) {
      for (String sql : declarations(servers, topic, sinkTopic, pg)) {
        s.execute(sql);
      }
      out.println("STARTED");
      out.flush();
      // The view's changes as they commit: a line each, with no polling.
      try (ResultSet changes = s.executeQuery("SELECT STREAM * FROM totals")) {
        while (changes.next()) {
          out.println("PROGRESS " + changes.getString(1) + " " + changes.getLong(2));
          out.flush();
        }
      }
    }
  }
}
