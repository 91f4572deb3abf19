package dev.freshet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import schemacrawler.schema.Catalog;
import schemacrawler.schema.Column;
import schemacrawler.schema.Table;
import schemacrawler.schema.View;
import schemacrawler.schemacrawler.InfoLevel;
import schemacrawler.schemacrawler.LoadOptionsBuilder;
import schemacrawler.schemacrawler.SchemaCrawlerOptions;
import schemacrawler.schemacrawler.SchemaCrawlerOptionsBuilder;
import schemacrawler.tools.utility.SchemaCrawlerUtility;
import us.fatehi.utility.datasource.DatabaseConnectionSource;
import us.fatehi.utility.datasource.DatabaseConnectionSources;
import us.fatehi.utility.datasource.MultiUseUserCredentials;

/**
 * SchemaCrawler, which reads a database's metadata as BI tools do, finds with its default options
 * every stream and view of a running server, with their columns, and with Freshet's SchemaCrawler
 * plugin on the class path (as SchemaCrawler's own plugins for other databases are) the views'
 * primary keys; at info level {@code detailed}, where SchemaCrawler reads views' definitions for
 * any database, their definitions too.
 */
class SchemaCrawlerTest {
  private static final String VIEW_QUERY = "SELECT user_id, COUNT(*) AS n, SUM(amount) AS total"
      + " FROM clicks GROUP BY user_id";

  @Test void shouldFindEveryStreamAndViewWithItsColumnsInADefaultCrawl() throws Exception {
    try (FreshetServer server = FreshetServer.builder().port(0).start()) {
      String url = "jdbc:freshet:remote:url=" + server.url();
      try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
        s.execute("CREATE STREAM clicks (user_id VARCHAR, amount DOUBLE)");
        s.execute("CREATE MATERIALIZED VIEW per_user AS " + VIEW_QUERY);
      }
      SchemaCrawlerOptions options = SchemaCrawlerOptionsBuilder.newSchemaCrawlerOptions();
      DatabaseConnectionSource source = DatabaseConnectionSources.newDatabaseConnectionSource(
          url, new MultiUseUserCredentials("", ""));
      Catalog catalog = SchemaCrawlerUtility.getCatalog(source, options);

      Map<String, List<String>> tables = new TreeMap<>();
      for (Table table : catalog.getTables()) {
        List<String> columns = new ArrayList<>();
        for (Column column : table.getColumns()) {
          columns.add(column.getName() + " " + column.getColumnDataType().getName());
        }
        tables.put(table.getSchema().getName() + "." + table.getName() + " ("
            + table.getTableType() + ")", columns);
      }
      assertEquals(Map.of(
          "FRESHET.CLICKS (table)", List.of("USER_ID VARCHAR", "AMOUNT DOUBLE"),
          "FRESHET.PER_USER (view)", List.of("USER_ID VARCHAR", "N BIGINT", "TOTAL DOUBLE")),
          Map.copyOf(filtered(tables)), tables.toString());

      View perUser = (View) catalog.lookupTable(catalog.lookupSchema("FRESHET").orElseThrow(),
          "PER_USER").orElseThrow();
      assertEquals("PK_PER_USER(USER_ID)", perUser.getPrimaryKey().getName() + "("
          + perUser.getPrimaryKey().getConstrainedColumns().stream().map(Column::getName)
              .collect(Collectors.joining(",")) + ")");
      assertEquals("", perUser.getDefinition(), "SchemaCrawler reads definitions only when asked");
      Table clicks = catalog.lookupTable(catalog.lookupSchema("FRESHET").orElseThrow(), "CLICKS")
          .orElseThrow();
      assertFalse(clicks.hasPrimaryKey(), "a stream has no key");

      // SchemaCrawler reads view definitions, of any database, from info level "detailed" on.
      Catalog detailed = SchemaCrawlerUtility.getCatalog(source, options.withLoadOptions(
          LoadOptionsBuilder.builder().withInfoLevel(InfoLevel.detailed).toOptions()));
      View described = (View) detailed.lookupTable(detailed.lookupSchema("FRESHET")
          .orElseThrow(), "PER_USER").orElseThrow();
      assertEquals(VIEW_QUERY, described.getDefinition());
    }
  }

  /** The crawl without the system schema's tables. */
  private static Map<String, List<String>> filtered(Map<String, List<String>> tables) {
    Map<String, List<String>> user = new TreeMap<>(tables);
    user.keySet().removeIf(name -> name.startsWith("SYS."));
    return user;
  }
}
