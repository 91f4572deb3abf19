package dev.freshet.server;

import static dev.freshet.server.RemoteTesting.readAll;
import static dev.freshet.server.RemoteTesting.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * DatabaseMetaData through {@code jdbc:freshet:remote:}, as BI tools and sqlline call it: tables
 * with their types, columns with their types, a view's key, schemas.
 */
class RemoteMetadataTest {
  private static FreshetServer server;
  private static String url;

  @BeforeAll static void startServer() {
    server = FreshetServer.builder().port(0).start();
    url = "jdbc:freshet:remote:url=" + server.url();
  }

  @AfterAll static void stopServer() {
    server.close();
  }

  @Test void shouldDescribeStreamsViewsKeysAndSchemasOverTheWire() throws Exception {
    String stream = uniqueName("orders").toUpperCase(Locale.ROOT);
    String view = uniqueName("per_region").toUpperCase(Locale.ROOT);
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM " + stream + " (region VARCHAR(10), amount DECIMAL(10, 2))");
      s.execute("CREATE MATERIALIZED VIEW " + view + " AS SELECT region, COUNT(*) AS n FROM "
          + stream + " GROUP BY region");
      DatabaseMetaData md = c.getMetaData();

      List<List<Object>> tables = new ArrayList<>();
      for (List<Object> row : readAll(md.getTables(null, "FRESHET", "%", null))) {
        if (row.get(2).equals(stream) || row.get(2).equals(view)) {
          tables.add(row.subList(1, 4));
        }
      }
      assertEquals(List.of(List.of("FRESHET", stream, "TABLE"), List.of("FRESHET", view, "VIEW")),
          tables.stream().sorted((a, b) -> ((String) a.get(2)).compareTo((String) b.get(2)))
              .toList());

      List<List<Object>> columns = new ArrayList<>();
      for (List<Object> row : readAll(md.getColumns(null, "FRESHET", view, "%"))) {
        columns.add(List.of(row.get(3), row.get(4), row.get(5)));
      }
      assertEquals(List.of(List.of("REGION", Types.VARCHAR, "VARCHAR"),
          List.of("N", Types.BIGINT, "BIGINT")), columns);

      List<List<Object>> keys = readAll(md.getPrimaryKeys(null, "FRESHET", view));
      assertEquals(List.of(java.util.Arrays.asList(null, "FRESHET", view, "REGION", (short) 1,
          "PK_" + view)), keys);
      assertEquals(List.of(), readAll(md.getPrimaryKeys(null, "FRESHET", stream)));

      List<Object> schemas = readAll(md.getSchemas()).stream().map(r -> r.get(0)).toList();
      assertTrue(schemas.containsAll(List.of("FRESHET", "SYS")), schemas::toString);

      List<Object> types = readAll(md.getTypeInfo()).stream().map(r -> r.get(0)).toList();
      assertTrue(types.containsAll(List.of("BIGINT", "VARCHAR", "DECIMAL", "TIMESTAMP")),
          types::toString);

      // The probe a BI tool sends to learn a query's columns: no rows, the query's columns.
      try (java.sql.ResultSet probe = s.executeQuery("SELECT * FROM (SELECT region, n FROM "
          + view + ") t WHERE 1 = 0")) {
        assertEquals(List.of("REGION", "N"), List.of(probe.getMetaData().getColumnLabel(1),
            probe.getMetaData().getColumnLabel(2)));
        assertEquals(List.of(), readAll(probe));
      }
    }
  }
}
