package dev.freshet.pgwire.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * pgjdbc 42.7's {@link DatabaseMetaData} against Freshet's endpoint, as DBeaver, Metabase and
 * every JDBC tool read a PostgreSQL database: the stream ({@code clicks}) and the table
 * ({@code users}) are tables, the view ({@code clicks_by_user}) a materialized view whose
 * GROUP BY key is its primary key, each once, with their columns and types; and a prepared
 * statement run with 1,000 different values over the view (past {@code prepareThreshold}, so
 * by a named server-side statement with binary results). Every statement pgjdbc sent succeeded;
 * they are written to {@code target/corpus-freshet/pgjdbc.jsonl}.
 */
class PgJdbcConformanceTest {
  private static FreshetEndpoint freshet;
  private static Connection connection;

  @BeforeAll static void start() throws Exception {
    freshet = FreshetEndpoint.start("pgjdbc");
    Properties p = new Properties();
    p.setProperty("user", "freshet");
    p.setProperty("password", "unused");
    p.setProperty("ApplicationName", "pgjdbc");
    p.setProperty("connectTimeout", "30");
    p.setProperty("socketTimeout", "120");
    connection = DriverManager.getConnection(freshet.endpoint().jdbcUrl(), p);
  }

  @AfterAll static void stop() throws Exception {
    try {
      if (connection != null) {
        connection.close();
      }
      if (freshet != null) {
        freshet.assertEachStatementSucceeded();
      }
    } finally {
      if (freshet != null) {
        freshet.close();
      }
    }
  }

  private static List<List<Object>> rows(ResultSet rs, String... columns) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    try (rs) {
      while (rs.next()) {
        List<Object> row = new ArrayList<>();
        for (String c : columns) {
          row.add(rs.getObject(c));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  private static List<Object> row(Object... values) {
    return Arrays.asList(values);
  }

  @Test void shouldListTheStreamTheTableAndTheViewOnce() throws Exception {
    freshet.action("getTables");
    DatabaseMetaData md = connection.getMetaData();
    // All types: the keys' indexes too, ordered by type as pgjdbc orders them.
    assertEquals(List.of(
            row("freshet", "public", "clicks_by_user_pkey", "INDEX"),
            row("freshet", "public", "users_pkey", "INDEX"),
            row("freshet", "public", "clicks_by_user", "MATERIALIZED VIEW"),
            row("freshet", "public", "clicks", "TABLE"),
            row("freshet", "public", "users", "TABLE")),
        rows(md.getTables(null, "public", "%", null), "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME",
            "TABLE_TYPE"));
    // The standard types a crawler asks for.
    assertEquals(List.of(row("clicks_by_user")),
        rows(md.getTables(null, "public", "clicks%", new String[] {"MATERIALIZED VIEW"}),
            "TABLE_NAME"));
    assertEquals(List.of(row("clicks"), row("users")),
        rows(md.getTables(null, null, "%", new String[] {"TABLE"}), "TABLE_NAME"));
  }

  @Test void shouldDescribeColumnsWithTheirTypes() throws Exception {
    freshet.action("getColumns");
    DatabaseMetaData md = connection.getMetaData();
    assertEquals(List.of(
            row("clicks", "user_id", Types.VARCHAR, "varchar", 64, 1, 1),
            row("clicks", "amount", Types.DOUBLE, "float8", 17, 1, 2),
            row("clicks", "ts", Types.TIMESTAMP, "timestamp", 26, 1, 3),
            row("clicks_by_user", "user_id", Types.VARCHAR, "varchar", 64, 1, 1),
            row("clicks_by_user", "n", Types.BIGINT, "int8", 19, 0, 2),
            row("clicks_by_user", "total", Types.DOUBLE, "float8", 17, 1, 3),
            row("users", "id", Types.INTEGER, "int4", 10, 0, 1),
            row("users", "name", Types.VARCHAR, "varchar", 2147483647, 0, 2),
            row("users", "signed_up", Types.DATE, "date", 13, 1, 3),
            row("users", "score", Types.NUMERIC, "numeric", 10, 1, 4),
            row("users", "active", Types.BIT, "bool", 1, 1, 5)),
        rows(md.getColumns(null, "public", "%", "%"), "TABLE_NAME", "COLUMN_NAME", "DATA_TYPE",
            "TYPE_NAME", "COLUMN_SIZE", "NULLABLE", "ORDINAL_POSITION"));
  }

  @Test void shouldGiveTheTablesKeyAndTheViewsGroupByKeyAsPrimaryKeys() throws Exception {
    freshet.action("getPrimaryKeys");
    DatabaseMetaData md = connection.getMetaData();
    String[] columns = {"TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME"};
    assertEquals(List.of(row("users", "id", 1, "users_pkey")),
        rows(md.getPrimaryKeys(null, "public", "users"), columns));
    assertEquals(List.of(row("clicks_by_user", "user_id", 1, "clicks_by_user_pkey")),
        rows(md.getPrimaryKeys(null, "public", "clicks_by_user"), columns));
    assertEquals(List.of(), rows(md.getPrimaryKeys(null, "public", "clicks"), columns));
  }

  @Test void shouldListSchemas() throws Exception {
    freshet.action("getSchemas");
    assertEquals(List.of(row("information_schema", "freshet"), row("pg_catalog", "freshet"),
            row("public", "freshet")),
        rows(connection.getMetaData().getSchemas(), "TABLE_SCHEM", "TABLE_CATALOG"));
  }

  @Test void shouldListTypes() throws Exception {
    freshet.action("getTypeInfo");
    List<List<Object>> types = rows(connection.getMetaData().getTypeInfo(), "TYPE_NAME",
        "DATA_TYPE");
    for (List<Object> type : List.of(row("int4", Types.INTEGER), row("int8", Types.BIGINT),
        row("float8", Types.DOUBLE), row("numeric", Types.NUMERIC),
        row("varchar", Types.VARCHAR), row("text", Types.VARCHAR), row("bool", Types.BIT),
        row("date", Types.DATE), row("timestamp", Types.TIMESTAMP),
        row("timestamptz", Types.TIMESTAMP))) {
      assertEquals(1, types.stream().filter(type::equals).count(), type + " in " + types);
    }
  }

  @Test void shouldGiveTheKeysAsUniqueIndexes() throws Exception {
    freshet.action("getIndexInfo");
    DatabaseMetaData md = connection.getMetaData();
    String[] columns = {"TABLE_NAME", "NON_UNIQUE", "INDEX_NAME", "ORDINAL_POSITION",
        "COLUMN_NAME"};
    assertEquals(List.of(row("users", false, "users_pkey", 1, "id")),
        rows(md.getIndexInfo(null, "public", "users", false, false), columns));
    assertEquals(List.of(row("clicks_by_user", false, "clicks_by_user_pkey", 1,
            "user_id")),
        rows(md.getIndexInfo(null, "public", "clicks_by_user", true, false), columns));
    assertEquals(List.of(), rows(md.getIndexInfo(null, "public", "clicks", false, false),
        columns));
  }

  @Test void shouldRunAPreparedStatementWithAThousandValues() throws Exception {
    freshet.action("prepared");
    StringBuilder insert = new StringBuilder("INSERT INTO clicks VALUES ");
    for (int i = 0; i < 1000; i++) {
      insert.append(i == 0 ? "" : ", ").append("('p").append(i).append("', ").append(i)
          .append(".5, TIMESTAMP '2026-01-03 00:00:00')");
    }
    try (var s = connection.createStatement()) {
      s.execute(insert.toString());
    }
    FreshetEndpoint.awaitCount(freshet.engine.openSession(),
        "SELECT COUNT(*) FROM clicks_by_user", 1002);
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT user_id, n, total FROM clicks_by_user WHERE user_id = ?")) {
      for (int i = 0; i < 1000; i++) {
        p.setString(1, "p" + i);
        assertEquals(List.of(row("p" + i, 1L, i + 0.5)),
            rows(p.executeQuery(), "user_id", "n", "total"), "p" + i);
      }
    }
    // And one number bound as a parameter, as pgjdbc binds it (int4, binary once prepared).
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT COUNT(*) AS c FROM clicks_by_user WHERE total > ?")) {
      for (int i = 0; i < 10; i++) {
        p.setInt(1, i * 100);
        assertEquals(List.of(row((long) (1000 - i * 100 + (i == 0 ? 2 : 0)))),
            rows(p.executeQuery(), "c"), "total > " + i * 100);
      }
    }
    assertTrue(freshet.statements().size() > 1000);
  }
}
