package dev.freshet.server.ui;

import static dev.freshet.server.ui.ApiClient.JSON;
import static dev.freshet.server.ui.ApiClient.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.server.FreshetServer.Authentication;
import dev.freshet.server.FreshetServer;
import dev.freshet.testkit.oracle.H2Oracle;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /api/sql} over HTTP: finite results compared with H2's, update counts, errors,
 * a push query's rows as server-sent events until the client goes away, and the refusals that
 * keep other sites out.
 */
class SqlEndpointTest {
  private static final AtomicInteger NAMES = new AtomicInteger();

  private static FreshetServer server;
  private static ApiClient api;

  @TempDir Path dir;

  @BeforeAll static void startServer() {
    server = FreshetServer.builder().port(0).uiPort(0).start();
    api = new ApiClient(server.uiUrl().orElseThrow(), null);
  }

  @AfterAll static void stopServer() {
    server.close();
  }

  private static String uniqueName(String prefix) {
    return prefix + "_" + NAMES.incrementAndGet();
  }

  private static Connection connect() throws Exception {
    return DriverManager.getConnection("jdbc:freshet:remote:url=" + server.url());
  }

  private static JsonNode ok(HttpResponse<String> response) throws Exception {
    assertEquals(200, response.statusCode(), response.body());
    assertEquals("no-store", response.headers().firstValue("Cache-Control").orElseThrow());
    assertTrue(response.headers().firstValue("Content-Type").orElseThrow()
        .startsWith("application/json"));
    return JSON.readTree(response.body());
  }

  private static boolean streamExists(String name) throws Exception {
    try (Connection connection = connect(); Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("SHOW STREAMS")) {
      while (rs.next()) {
        if (rs.getString(1).equalsIgnoreCase(name)) {
          return true;
        }
      }
      return false;
    }
  }

  @Test void shouldAnswerAGroupByWithTheRowsH2Gives() throws Exception {
    String stream = uniqueName("orders");
    String[] inserts = {"('u1', 1.5)", "('u2', 2.25)", "('u1', 4.0)", "('u3', 0.5)",
        "('u2', 1.0)", "('u1', 0.25)"};
    assertEquals(0, ok(api.sql("CREATE STREAM " + stream + " (user_id VARCHAR,"
        + " amount DOUBLE)")).get("updateCount").asLong());
    assertEquals(inserts.length, ok(api.sql("INSERT INTO " + stream + " VALUES "
        + String.join(", ", inserts))).get("updateCount").asLong());
    String query = "SELECT user_id, COUNT(*) AS n, SUM(amount) AS total FROM %s"
        + " GROUP BY user_id ORDER BY user_id";
    JsonNode result = ok(api.sql(String.format(query, stream)));
    assertEquals(JSON.readTree("[{\"name\":\"USER_ID\",\"type\":\"VARCHAR\"},"
        + "{\"name\":\"N\",\"type\":\"BIGINT\"},{\"name\":\"TOTAL\",\"type\":\"DOUBLE\"}]"),
        result.get("columns"));
    assertTrue(result.get("truncated") == null);
    List<List<String>> expected = new ArrayList<>();
    try (H2Oracle h2 = new H2Oracle()) {
      h2.createTable("orders", "user_id VARCHAR, amount DOUBLE")
          .execute("INSERT INTO orders VALUES " + String.join(", ", inserts));
      for (List<Object> row : h2.query(String.format(query, "orders"))) {
        expected.add(List.of((String) row.get(0), String.valueOf(((Number) row.get(1)).longValue()),
            String.valueOf(((Number) row.get(2)).doubleValue())));
      }
    }
    List<List<String>> actual = new ArrayList<>();
    for (JsonNode row : result.get("rows")) {
      assertTrue(row.get(1).isIntegralNumber() && row.get(2).isFloatingPointNumber(),
          "numbers are JSON numbers: " + row);
      actual.add(List.of(row.get(0).asText(), row.get(1).asText(), row.get(2).asText()));
    }
    assertEquals(3, expected.size());
    assertEquals(expected, actual);
  }

  @Test void shouldCutAResultAtTenThousandRowsAndSaySo() throws Exception {
    String stream = uniqueName("numbers");
    ok(api.sql("CREATE STREAM " + stream + " (x INT)"));
    for (int from = 0; from <= 10_000; from += 1000) {
      List<String> values = new ArrayList<>();
      for (int x = from; x < Math.min(from + 1000, 10_001); x++) {
        values.add("(" + x + ")");
      }
      ok(api.sql("INSERT INTO " + stream + " VALUES " + String.join(", ", values)));
    }
    JsonNode result = ok(api.sql("SELECT x FROM " + stream + " ORDER BY x"));
    assertTrue(result.get("truncated").asBoolean(), "10,001 rows are cut");
    assertEquals(10_000, result.get("rows").size());
    for (int x = 0; x < 10_000; x++) {
      assertEquals(x, result.get("rows").get(x).get(0).asInt());
    }
    JsonNode all = ok(api.sql("SELECT COUNT(*) FROM " + stream));
    assertEquals(10_001, all.get("rows").get(0).get(0).asInt());
    assertTrue(all.get("truncated") == null);
  }

  /**
   * An idle stream gets keepalive comments, and it ends, with its push query, when the server
   * stops.
   */
  @Test void shouldEndAPushStreamWhenTheServerStops() throws Exception {
    FreshetServer stopping = FreshetServer.builder().port(0).uiPort(0).start();
    try {
      ApiClient client = new ApiClient(stopping.uiUrl().orElseThrow(), null);
      ok(client.sql("CREATE STREAM idle (x INT)"));
      try (ApiClient.Events events = client.stream("SELECT STREAM x FROM idle")) {
        assertEquals("columns", events.next().name());
        ApiClient.Event keepalive = assertTimeoutPreemptively(ApiClient.DEADLINE,
            events::read);
        assertEquals(new ApiClient.Event("comment", "keepalive"), keepalive);
        assertEquals(1, stopping.engine().continuousQueries().size());
        // Jetty closes the connection as it stops; the handler's thread must not hold it up.
        assertTimeoutPreemptively(ApiClient.DEADLINE, stopping::close);
        assertTimeoutPreemptively(ApiClient.DEADLINE, () -> {
          try {
            ApiClient.Event event;
            while ((event = events.read()) != null) {
              assertEquals("comment", event.name(), "only keepalives until the end");
            }
          } catch (java.io.IOException cut) {
            // The connection closed in the middle of the chunked body: ended all the same.
          }
        });
        assertEquals(List.of(), stopping.engine().continuousQueries());
      }
    } finally {
      stopping.close();
    }
  }

  @Test void shouldWriteDateTimesAsIsoTextInUtcAndOtherValuesAsJson() throws Exception {
    JsonNode result = ok(api.sql("SELECT TIMESTAMP '2024-01-02 03:04:05.678' AS ts,"
        + " DATE '2024-02-29' AS d, TRUE AS b, CAST(NULL AS VARCHAR) AS s, 1.25 AS x"));
    assertEquals(JSON.readTree("[[\"2024-01-02T03:04:05.678Z\",\"2024-02-29\",true,null,1.25]]"),
        result.get("rows"));
  }

  @Test void shouldAnswer400WithTheEngineSqlStateForABadStatement() throws Exception {
    HttpResponse<String> syntax = api.sql("SELEC 1");
    assertEquals(400, syntax.statusCode());
    JsonNode error = JSON.readTree(syntax.body());
    assertEquals("42000", error.get("sqlState").asText());
    assertTrue(error.get("message").asText().startsWith("Syntax error at line 1, column 1"),
        error.toString());
    assertTrue(!syntax.body().contains("\tat "), "no stack trace: " + syntax.body());
    HttpResponse<String> unknown = api.sql("SELECT * FROM no_such_stream");
    assertEquals(400, unknown.statusCode());
    JsonNode missing = JSON.readTree(unknown.body());
    assertEquals("42S02", missing.get("sqlState").asText(), missing.toString());
    assertTrue(missing.get("message").asText().toUpperCase().contains("NO_SUCH_STREAM"));
    for (String body : new String[] {"not json", "{\"query\": \"SELECT 1\"}", "[1]"}) {
      HttpResponse<String> notJson = api.postBody(body);
      assertEquals(400, notJson.statusCode(), body);
      assertEquals("22032", JSON.readTree(notJson.body()).get("sqlState").asText());
    }
  }

  /**
   * The rows of each batch arrive as a {@code rows} event while the stream stays open, and the
   * push query ends once the client has gone away.
   */
  @Test void shouldStreamAPushQueryAndStopItWhenTheClientGoesAway() throws Exception {
    String stream = uniqueName("clicks");
    ok(api.sql("CREATE STREAM " + stream + " (user_id VARCHAR, amount DOUBLE)"));
    String push = "SELECT STREAM user_id, COUNT(*) AS n FROM " + stream + " GROUP BY user_id";
    try (ApiClient.Events events = api.stream(push); Connection connection = connect();
        Statement statement = connection.createStatement()) {
      assertEquals("text/event-stream;charset=utf-8", events.response().headers()
          .firstValue("Content-Type").orElseThrow().replace(" ", "").toLowerCase());
      ApiClient.Event columns = events.next();
      assertEquals("columns", columns.name());
      assertEquals(JSON.readTree("[{\"name\":\"USER_ID\",\"type\":\"VARCHAR\"},"
          + "{\"name\":\"N\",\"type\":\"BIGINT\"},{\"name\":\"_BATCH_ID\",\"type\":\"BIGINT\"},"
          + "{\"name\":\"_ROW_KIND\",\"type\":\"VARCHAR\"}]"), JSON.readTree(columns.data()));
      ContinuousQuery query = pushQueryOf(push);
      JsonNode listed = null;
      for (JsonNode q : api.getJson("/api/overview").get("queries")) {
        listed = q.get("id").asText().equals(query.id()) ? q : listed;
      }
      assertEquals("push", listed.get("kind").asText(), String.valueOf(listed));
      assertEquals(push, listed.get("sql").asText());

      statement.executeUpdate("INSERT INTO " + stream + " VALUES ('a', 1.0), ('a', 2.0),"
          + " ('b', 3.0)");
      List<JsonNode> first = rows(events, 2);
      long firstBatch = first.get(0).get(2).asLong();
      assertEquals(Set.of(JSON.readTree("[\"a\",2," + firstBatch + ",\"INSERT\"]"),
          JSON.readTree("[\"b\",1," + firstBatch + ",\"INSERT\"]")), new HashSet<>(first));

      statement.executeUpdate("INSERT INTO " + stream + " VALUES ('b', 4.0)");
      List<JsonNode> second = rows(events, 1);
      long secondBatch = second.get(0).get(2).asLong();
      assertTrue(secondBatch > firstBatch, second.toString());
      assertEquals(List.of(JSON.readTree("[\"b\",2," + secondBatch + ",\"UPDATE\"]")), second);

      events.close();
      await(() -> server.engine().query(query.id()).isEmpty(),
          "the push query stops once its client has gone away");
    }
  }

  /** Reads {@code rows events} until exactly {@code n} rows have come. */
  private static List<JsonNode> rows(ApiClient.Events events, int n) throws Exception {
    List<JsonNode> rows = new ArrayList<>();
    while (rows.size() < n) {
      ApiClient.Event event = events.next();
      assertEquals("rows", event.name(), event.data());
      JSON.readTree(event.data()).forEach(rows::add);
    }
    assertEquals(n, rows.size(), rows.toString());
    return rows;
  }

  private static ContinuousQuery pushQueryOf(String sql) {
    List<ContinuousQuery> found = new ArrayList<>();
    await(() -> {
      found.clear();
      server.engine().continuousQueries().stream().filter(q -> q.sql().equals(sql))
          .forEach(found::add);
      return found.size() == 1;
    }, "one push query runs " + sql);
    return found.get(0);
  }

  @Test void shouldRefuseAForeignOriginAndRunNothing() throws Exception {
    String stream = uniqueName("evil");
    HttpResponse<String> refused = api.post("CREATE STREAM " + stream + " (x INT)",
        "application/json", "http://evil.example");
    assertEquals(403, refused.statusCode());
    JsonNode error = JSON.readTree(refused.body());
    assertEquals("42501", error.get("sqlState").asText());
    assertTrue(error.get("message").asText().startsWith("Cross-site request refused: "),
        error.toString());
    assertTrue(refused.headers().firstValue("Access-Control-Allow-Origin").isEmpty());
    assertTrue(!streamExists(stream), "the refused statement did not run");
    // The UI's own origin, and a program that sends none, may.
    ok(api.post("CREATE STREAM " + stream + " (x INT)", "application/json", api.ownOrigin()));
    assertTrue(streamExists(stream));
    ok(api.post("DROP STREAM " + stream, "application/json", null));
    assertTrue(!streamExists(stream));
  }

  @Test void shouldRefuseAnotherContentTypeAndAnotherMethod() throws Exception {
    String stream = uniqueName("form");
    HttpResponse<String> form = api.post("CREATE STREAM " + stream + " (x INT)",
        "application/x-www-form-urlencoded", api.ownOrigin());
    assertEquals(415, form.statusCode());
    assertTrue(JSON.readTree(form.body()).get("message").asText()
        .contains("application/json"), form.body());
    HttpResponse<String> plain = api.post("CREATE STREAM " + stream + " (x INT)",
        "text/plain", null);
    assertEquals(415, plain.statusCode());
    assertTrue(!streamExists(stream));
    HttpResponse<String> get = api.get("/api/sql");
    assertEquals(405, get.statusCode());
    assertEquals("POST", get.headers().firstValue("Allow").orElseThrow());
  }

  @Test void shouldRunTheStatementOfAnAuthenticatedUserAndRefuseAnAnonymousOne()
      throws Exception {
    Path users = Files.writeString(dir.resolve("users.properties"), "ann: secret\n");
    try (FreshetServer secured = FreshetServer.builder().port(0).uiPort(0)
        .authentication(Authentication.BASIC, users).start()) {
      ApiClient anonymous = new ApiClient(secured.uiUrl().orElseThrow(), null);
      assertEquals(401, anonymous.sql("CREATE STREAM anon (x INT)").statusCode());
      ApiClient ann = new ApiClient(secured.uiUrl().orElseThrow(), "ann:secret");
      assertEquals(0, ok(ann.sql("CREATE STREAM ann_s (x INT)")).get("updateCount").asLong());
      assertEquals(JSON.readTree("[[\"ANN_S\"]]"), ok(ann.sql("SHOW STREAMS")).get("rows"));
    }
  }
}
