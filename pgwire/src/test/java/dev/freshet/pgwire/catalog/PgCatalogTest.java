package dev.freshet.pgwire.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.Engine;
import dev.freshet.engine.Session;
import dev.freshet.engine.security.Principal;
import dev.freshet.pgwire.sql.PgToken;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * PgCatalog over a real engine holding a stream, a reference table and a grouped materialized
 * view: every captured client query (psql 15, pgjdbc 42.7.14, SQLAlchemy 1.4) runs; psql's
 * {@code \d} family, pgjdbc's getTables/getColumns/getPrimaryKeys and SQLAlchemy's Inspector see
 * each object once with its columns, PostgreSQL types and key; a user without grants sees none.
 */
class PgCatalogTest {
  private static final Principal BOB = Principal.user("bob", false);
  private static Engine engine;
  private static PgCatalog admin;

  @BeforeAll static void createObjects() throws Exception {
    engine = new Engine("pgcatalog-" + System.nanoTime());
    Session session = engine.openSession();
    session.execute("CREATE STREAM clicks (user_id VARCHAR, url VARCHAR(100), amount DOUBLE,"
        + " ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)");
    session.execute("CREATE TABLE rates (cur VARCHAR(3) PRIMARY KEY, rate DECIMAL(10, 2))");
    session.execute("CREATE MATERIALIZED VIEW clicks_per_user AS SELECT user_id, COUNT(*) AS n"
        + " FROM clicks GROUP BY user_id");
    admin = PgCatalog.open(engine, Principal.LOCAL);
  }

  @AfterAll static void close() throws Exception {
    admin.close();
    engine.close();
  }

  static List<List<Object>> rows(PgCatalog catalog, String sql, Object... parameters)
      throws SQLException {
    try (ResultSet r = catalog.query(sql, List.of(parameters))) {
      List<List<Object>> rows = new ArrayList<>();
      while (r.next()) {
        List<Object> row = new ArrayList<>();
        for (int i = 1; i <= r.getMetaData().getColumnCount(); i++) {
          Object value = r.getObject(i);
          row.add(value instanceof Object[] array ? List.of(array) : value);
        }
        rows.add(row);
      }
      return rows;
    }
  }

  private static int oid(PgCatalog catalog, String relname) throws SQLException {
    return ((Number) rows(catalog, "SELECT oid FROM pg_catalog.pg_class WHERE relname = $1",
        relname).get(0).get(0)).intValue();
  }

  /** The corpus statement, with the OIDs of the capture's objects replaced by ours. */
  private static String withOurOids(PgCatalog catalog, String sql) throws SQLException {
    Map<String, String> oids = Map.of("16385", "clicks", "16390", "rates", "16395",
        "rates_pkey", "16397", "clicks_per_user");
    String result = sql;
    // in two steps, as our OIDs may be the capture's OIDs of other objects
    for (Map.Entry<String, String> e : oids.entrySet()) {
      result = result.replace(e.getKey(), "@" + e.getValue() + "@");
    }
    for (Map.Entry<String, String> e : oids.entrySet()) {
      result = result.replace("@" + e.getValue() + "@",
          String.valueOf(oid(catalog, e.getValue())));
    }
    return result;
  }

  private static List<CatalogCorpus.Query> file(String name) throws Exception {
    return CatalogCorpus.read(CatalogCorpus.directory().resolve(name));
  }

  @Test void shouldRunEveryCapturedClientQuery() throws Exception {
    List<String> failures = new ArrayList<>();
    List<CatalogCorpus.Query> corpus = CatalogCorpus.all();
    for (CatalogCorpus.Query q : corpus) {
      try {
        rows(admin, withOurOids(admin, q.sql()), q.parameters().toArray());
      } catch (SQLException e) {
        failures.add(q + "\n  -> " + PgSqlTranslator.translate(q.sql()).replaceAll("\\s+", " ")
            + "\n  !! " + e.getMessage());
      }
    }
    assertTrue(corpus.size() > 200, "corpus of " + corpus.size());
    assertEquals(List.of(), failures, String.join("\n\n", failures));
  }

  /**
   * The clients' corpus (psql, pgjdbc, SQLAlchemy, psycopg, node-postgres captured; Metabase,
   * Grafana, DBeaver, Npgsql read from source): each statement PgCatalog answers runs. Their
   * OIDs are of another capture and match nothing here, which still runs each query whole.
   */
  @Test void shouldRunEveryCatalogStatementOfTheClientsCorpus() throws Exception {
    List<String> failures = new ArrayList<>();
    int answered = 0;
    for (CatalogCorpus.Query q : ClientsCorpus.all()) {
      for (String statement : statements(q.sql())) {
        if (!PgCatalog.answers(statement)) {
          continue;
        }
        answered++;
        try {
          rows(admin, statement, q.parameters().toArray());
        } catch (SQLException e) {
          failures.add(q.file() + ": " + statement.strip().replaceAll("\\s+", " ") + "\n  -> "
              + PgSqlTranslator.translate(statement).replaceAll("\\s+", " ") + "\n  !! "
              + e.getMessage());
        }
      }
    }
    assertTrue(answered > 80, answered + " catalog statements");
    assertEquals(List.of(), failures, String.join("\n\n", failures));
  }

  /** The statements of a simple Query message (Npgsql sends four in one), split at ';'. */
  static List<String> statements(String sql) {
    List<String> statements = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (PgToken t : PgSqlTranslator.tokens(sql)) {
      if (t.kind() == PgToken.Kind.OPERATOR && t.text().equals(";")) {
        statements.add(current.toString());
        current.setLength(0);
      } else {
        current.append(t.kind() == PgToken.Kind.STRING ? t.text() : t.text());
      }
    }
    if (!current.toString().isBlank()) {
      statements.add(current.toString());
    }
    return statements;
  }

  @Test void shouldClassifyEveryCapturedQueryAsACatalogQuery() throws Exception {
    List<String> missed = new ArrayList<>();
    for (CatalogCorpus.Query q : CatalogCorpus.all()) {
      if (!PgCatalog.answers(q.sql())) {
        missed.add(q.toString());
      }
    }
    assertEquals(List.of(), missed);
  }

  @Test void shouldLeaveFreshetStatementsToTheEngine() {
    for (String sql : List.of("SELECT * FROM clicks", "SELECT STREAM * FROM clicks_per_user",
        "SELECT user_id, COUNT(*) FROM clicks GROUP BY user_id",
        "INSERT INTO clicks VALUES ('a', 'u', 1.0, TIMESTAMP '2026-01-01 00:00:00')",
        "CREATE STREAM pg_class (a INT)", "CREATE MATERIALIZED VIEW v AS SELECT 1 AS a",
        "SHOW STREAMS", "SELECT * FROM sys.queries", "SELECT 'pg_class' AS name FROM clicks",
        "SELECT \"pg_class\" FROM clicks", "SELECT 1", "", "-- pg_catalog",
        "SHOW search_path", "SET search_path = public", "DROP STREAM clicks")) {
      assertFalse(PgCatalog.answers(sql), sql);
    }
    for (String sql : List.of("SELECT version()", "select current_schema()",
        "SELECT relname FROM pg_class", "/* x */ SELECT * FROM information_schema.tables",
        "SELECT pg_catalog.format_type(23, -1)", "WITH t AS (SELECT 1) SELECT * FROM pg_type")) {
      assertTrue(PgCatalog.answers(sql), sql);
    }
  }

  @Test void shouldListEachObjectOnceForPsqlBackslashD() throws Exception {
    CatalogCorpus.Query d = file("psql-d.sql").get(0);
    assertEquals(List.of(
        List.of("public", "clicks", "table", "freshet"),
        List.of("public", "clicks_per_user", "materialized view", "freshet"),
        List.of("public", "rates", "table", "freshet")), rows(admin, d.sql()));
    assertEquals(List.of(List.of("public", "clicks", "table", "freshet"),
        List.of("public", "rates", "table", "freshet")),
        rows(admin, file("psql-dt.sql").get(0).sql()));
    assertEquals(List.of(List.of("public", "clicks_per_user", "materialized view", "freshet")),
        rows(admin, file("psql-dm.sql").get(0).sql()));
    assertEquals(List.of(List.of("public", "freshet")),
        rows(admin, file("psql-dn.sql").get(0).sql()));
    List<List<Object>> databases = rows(admin, file("psql-l.sql").get(0).sql());
    assertEquals(1, databases.size());
    assertEquals("freshet", databases.get(0).get(0));
  }

  @Test void shouldDescribeColumnsAndKeysForPsqlDescribe() throws Exception {
    List<CatalogCorpus.Query> describe = file("psql-d-clicks_per_user.sql");
    assertEquals(List.of(List.of(oid(admin, "clicks_per_user"), "public", "clicks_per_user")),
        rows(admin, describe.get(0).sql()));
    assertEquals("m", rows(admin, withOurOids(admin, describe.get(1).sql())).get(0).get(1));
    List<List<Object>> columns = rows(admin, withOurOids(admin, describe.get(2).sql()));
    assertEquals(List.of("user_id", "character varying"), columns.get(0).subList(0, 2));
    assertEquals(List.of("n", "bigint", true), List.of(columns.get(1).get(0),
        columns.get(1).get(1), columns.get(1).get(3)));
    assertEquals(2, columns.size());
    List<List<Object>> clicks = rows(admin, withOurOids(admin,
        file("psql-d-clicks.sql").get(2).sql()));
    List<List<Object>> types = new ArrayList<>();
    for (List<Object> c : clicks) {
      types.add(List.of(c.get(0), c.get(1)));
    }
    assertEquals(List.of(List.of("user_id", "character varying"),
        List.of("url", "character varying(100)"), List.of("amount", "double precision"),
        List.of("ts", "timestamp(3) without time zone")), types);
    // \d rates: its index and primary key
    List<CatalogCorpus.Query> rates = file("psql-d-rates.sql");
    List<List<Object>> indexes = rows(admin, withOurOids(admin, rates.get(3).sql()));
    assertEquals(1, indexes.size());
    assertEquals(List.of("rates_pkey", true, true), indexes.get(0).subList(0, 3));
    assertEquals("CREATE UNIQUE INDEX rates_pkey ON public.rates USING btree (cur)",
        indexes.get(0).get(5));
    assertEquals("PRIMARY KEY (cur)", indexes.get(0).get(6));
  }

  @Test void shouldAnswerPgjdbcMetadata() throws Exception {
    CatalogCorpus.Query tables = file("pgjdbc-extended-getTables.sql").get(0);
    List<String> listed = new ArrayList<>();
    for (List<Object> row : rows(admin, tables.sql(), tables.parameters().toArray())) {
      if ("public".equals(row.get(1))) {
        listed.add(row.get(2) + " " + row.get(3));
      }
    }
    // ordered by TABLE_TYPE, as PostgreSQL orders them
    assertEquals(List.of("clicks_per_user MATERIALIZED VIEW", "clicks TABLE", "rates TABLE"),
        listed);
    CatalogCorpus.Query columns = getColumns();
    List<String> described = new ArrayList<>();
    for (List<Object> row : rows(admin, columns.sql(), "public", "%", "%")) {
      described.add(row.get(2) + "." + row.get(3) + " " + row.get(4) + " " + row.get(6));
    }
    assertEquals(List.of("clicks.user_id 1043 -1", "clicks.url 1043 104",
        "clicks.amount 701 -1", "clicks.ts 1114 3", "clicks_per_user.user_id 1043 -1",
        "clicks_per_user.n 20 -1", "rates.cur 1043 7", "rates.rate 1700 655366"), described);
    CatalogCorpus.Query keys = file("pgjdbc-extended-getPrimaryKeys.sql").get(0);
    assertEquals(List.of(List.of("freshet", "public", "clicks_per_user", "user_id", 1,
        "clicks_per_user_pkey")), rows(admin, keys.sql(), "public", "clicks_per_user"));
    assertEquals(List.of(List.of("freshet", "public", "rates", "cur", 1, "rates_pkey")),
        rows(admin, keys.sql(), "public", "rates"));
    assertEquals(List.of(), rows(admin, keys.sql(), "public", "clicks"));
  }

  @Test void shouldAnswerSqlAlchemyInspector() throws Exception {
    List<CatalogCorpus.Query> inspector = file("sqlalchemy-1.4-inspector.sql");
    assertEquals(List.of(List.of("clicks"), List.of("rates")),
        rows(admin, inspector.get(4).sql() + " ORDER BY 1"));
    assertEquals(List.of(List.of("clicks_per_user")), rows(admin, inspector.get(5).sql()));
    // get_pk_constraint: the key's columns, in key order
    String pk = inspector.stream().filter(q -> q.sql().contains("generate_subscripts"))
        .findFirst().orElseThrow().sql().replace("16385", "16397");
    assertEquals(List.of(List.of("user_id")), rows(admin, withOurOids(admin, pk)));
  }

  @Test void shouldShowAUserWithoutGrantsNoneOfTheObjects() throws Exception {
    try (PgCatalog bob = PgCatalog.open(engine, BOB)) {
      assertEquals(List.of(), rows(bob, file("psql-d.sql").get(0).sql()));
      CatalogCorpus.Query columns = getColumns();
      assertEquals(List.of(), rows(bob, columns.sql(), "%", "%", "%"));
      assertEquals(List.of(), rows(bob,
          "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"));
      assertEquals(List.of(List.of("bob")), rows(bob, "SELECT current_user"));
    }
  }

  @Test void shouldSeeCreatesAndGrantsAtTheNextStatement() throws Exception {
    Session session = engine.openSession();
    try (PgCatalog bob = PgCatalog.open(engine, BOB)) {
      String tables = "SELECT relname FROM pg_class WHERE relnamespace = 2200 AND relkind <> 'i'"
          + " ORDER BY 1";
      assertEquals(List.of(), rows(bob, tables));
      session.execute("GRANT SELECT ON clicks TO bob");
      assertEquals(List.of(List.of("clicks")), rows(bob, tables));
      assertEquals(List.of(List.of(true, false)), rows(bob,
          "SELECT has_table_privilege('public.clicks', 'SELECT'),"
              + " has_table_privilege('clicks', 'INSERT')"));
      session.execute("CREATE STREAM later (a INT)");
      session.execute("GRANT INSERT ON later TO bob");
      assertEquals(List.of(List.of("clicks"), List.of("later")), rows(bob, tables));
      session.execute("DROP STREAM later");
      assertEquals(List.of(List.of("clicks")), rows(bob, tables));
    } finally {
      session.execute("REVOKE SELECT ON clicks FROM bob");
    }
  }

  @Test void shouldAnswerFunctionsAndCastsToolsUse() throws Exception {
    assertEquals(List.of(List.of(PgFunctions.VERSION, "public", "freshet")),
        rows(admin, "SELECT version(), current_schema(), current_database()"));
    assertEquals(List.of(List.of(1259, "clicks", "integer", "UTF8", "on")), rows(admin,
        "SELECT 'pg_class'::regclass, " + oid(admin, "clicks") + "::regclass::text,"
            + " 23::regtype::text, pg_encoding_to_char(6),"
            + " current_setting('standard_conforming_strings')"));
    assertEquals(List.of(List.of(true)), rows(admin,
        "SELECT 'public' = ANY(current_schemas(false))"));
    assertEquals(List.of(List.of("clicks")), rows(admin, "SELECT relname FROM pg_class"
        + " WHERE relname OPERATOR(pg_catalog.~) '^(clicks)$' COLLATE pg_catalog.default"));
    assertEquals(List.of(List.of("numeric(10,2)", "character varying(3)[]")), rows(admin,
        "SELECT format_type(1700, 655366), format_type(1015, 7)"));
    try (ResultSet r = admin.query("SELECT version(), current_schema(), c.relname,"
        + " c.oid::regclass, 1 + 1 FROM pg_class c LIMIT 1", List.of())) {
      List<String> labels = new ArrayList<>();
      for (int i = 1; i <= r.getMetaData().getColumnCount(); i++) {
        labels.add(r.getMetaData().getColumnLabel(i));
      }
      assertEquals(List.of("version", "current_schema", "relname", "oid", "?column?"), labels);
    }
    SQLException missing = assertThrows(SQLException.class,
        () -> rows(admin, "SELECT 'nosuch'::regclass"));
    assertEquals("42P01", missing.getSQLState());
    SQLException unknownTable = assertThrows(SQLException.class,
        () -> rows(admin, "SELECT * FROM pg_catalog.pg_nosuch"));
    assertEquals("42P01", unknownTable.getSQLState());
    SQLException setting = assertThrows(SQLException.class,
        () -> rows(admin, "SELECT current_setting('no_such_setting')"));
    assertEquals("42704", setting.getSQLState());
  }

  @Test void shouldRefuseStatementsOnceClosed() throws Exception {
    PgCatalog catalog = PgCatalog.open(engine, BOB);
    assertEquals(List.of(List.of("public")), rows(catalog, "SELECT current_schema()"));
    catalog.close();
    catalog.close();
    SQLException closed = assertThrows(SQLException.class,
        () -> rows(catalog, "SELECT current_schema()"));
    assertEquals("08003", closed.getSQLState());
    // a catalog never used costs no database, and closes as well
    PgCatalog.open(engine, BOB).close();
  }

  @Test void shouldNotShowH2sOwnInformationSchema() throws Exception {
    List<List<Object>> schemas = rows(admin,
        "SELECT schema_name FROM information_schema.schemata ORDER BY 1");
    assertEquals(List.of(List.of("information_schema"), List.of("pg_catalog"),
        List.of("public")), schemas);
    assertEquals(List.of(List.of("clicks", "BASE TABLE"), List.of("clicks_per_user", "VIEW"),
        List.of("rates", "BASE TABLE")), rows(admin, "SELECT table_name, table_type FROM"
            + " information_schema.tables WHERE table_schema = 'public' ORDER BY 1"));
  }

  /** pgjdbc's getColumns(null, schemaPattern, tablePattern, columnPattern). */
  private static CatalogCorpus.Query getColumns() throws Exception {
    return file("pgjdbc-extended-getColumns.sql").stream()
        .filter(q -> q.sql().contains("attname LIKE $3")).findFirst().orElseThrow();
  }
}
