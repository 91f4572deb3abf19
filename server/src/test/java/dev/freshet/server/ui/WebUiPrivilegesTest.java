package dev.freshet.server.ui;

import static dev.freshet.server.ui.ApiClient.DEADLINE;
import static dev.freshet.server.ui.ApiClient.JSON;
import static dev.freshet.server.ui.ApiClient.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.freshet.engine.ServedWebUi;
import dev.freshet.engine.Session;
import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.engine.security.Principal;
import dev.freshet.server.FreshetServer;
import dev.freshet.server.FreshetServer.Authentication;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web UI and {@code /metrics} of a server with {@code --auth BASIC}, an administrator and
 * two plain users: each request runs as its user, who sees only the objects and queries it
 * owns or was granted (all of them, if it administers), and whose SQL is checked as over JDBC.
 * Alice's stream and view are made over JDBC; bob and the administrator look through the UI.
 */
class WebUiPrivilegesTest {
  private static final String USERS = "admin: pw,admin\nalice: pw\nbob: pw\n";
  private static final String CREATE_VIEW = "CREATE MATERIALIZED VIEW alice_counts AS"
      + " SELECT user_id, COUNT(*) AS n FROM alice_clicks GROUP BY user_id EMIT UPDATE";
  private static final String[] VIEW_SERIES = {"kind", "view", "query", "ALICE_COUNTS"};
  private static final String NOTHING = "{\"streams\":[],\"views\":[],\"sinks\":[],\"queries\":[]}";

  @TempDir Path dir;

  private FreshetServer server;
  private Connection alice;

  @AfterEach void stop() throws SQLException {
    if (alice != null) {
      alice.close();
    }
    if (server != null) {
      server.close();
    }
  }

  /** Starts the server with {@code users} and {@code adminRole}; alice makes her view. */
  private void start(String users, String adminRole) throws Exception {
    Path file = Files.writeString(dir.resolve("users.properties"), users);
    server = FreshetServer.builder().port(0).uiPort(0).adminRole(adminRole)
        .authentication(Authentication.BASIC, file).start();
    alice = DriverManager.getConnection("jdbc:freshet:remote:url=" + server.url(), "alice", "pw");
    try (Statement statement = alice.createStatement()) {
      // Memory streams and views need no connector privilege: a plain user may create them.
      statement.executeUpdate("CREATE STREAM alice_clicks (user_id VARCHAR)");
      statement.executeUpdate(CREATE_VIEW);
      statement.executeUpdate("INSERT INTO alice_clicks VALUES ('a'), ('a')");
    }
    assertTrue(viewQuery().processAllAvailable(DEADLINE), "the view did not catch up");
  }

  private void start() throws Exception {
    start(USERS, FreshetServer.DEFAULT_ADMIN_ROLE);
  }

  private void alice(String sql) throws SQLException {
    try (Statement statement = alice.createStatement()) {
      statement.execute(sql);
    }
  }

  private ApiClient client(String user) {
    return new ApiClient(server.uiUrl().orElseThrow(), user + ":pw");
  }

  private ContinuousQuery viewQuery() {
    return server.engine().query("ALICE_COUNTS").orElseThrow();
  }

  /** Alice's stream, view and the view's query, as the overview shows them. */
  private JsonNode everything() throws Exception {
    ObjectNode expected = JSON.createObjectNode();
    ObjectNode stream = expected.putArray("streams").addObject();
    stream.put("name", "ALICE_CLICKS").put("connector", "memory");
    stream.putArray("columns").addObject().put("name", "USER_ID").put("type", "VARCHAR");
    expected.set("views", viewOnly().get("views"));
    expected.putArray("sinks");
    expected.set("queries", viewOnly().get("queries"));
    return JSON.readTree(expected.toString());
  }

  /** Alice's view and its query, without the stream it reads. */
  private JsonNode viewOnly() throws Exception {
    ObjectNode expected = JSON.createObjectNode();
    expected.putArray("streams");
    expected.putArray("views").addObject().put("name", "ALICE_COUNTS")
        .put("outputMode", "UPDATE").put("sql", CREATE_VIEW);
    expected.putArray("sinks");
    ArrayNode queries = expected.putArray("queries");
    queries.addObject().put("id", viewQuery().id()).put("name", "ALICE_COUNTS")
        .put("kind", "view").put("status", "ACTIVE").putNull("lastError")
        .put("lastBatchId", viewQuery().lastBatchId()).put("sql", CREATE_VIEW);
    // Read back, so that numbers compare as parsed (an int node is not a long node).
    return JSON.readTree(expected.toString());
  }

  private static JsonNode error(HttpResponse<String> response, int status) throws Exception {
    assertEquals(status, response.statusCode(), response.body());
    return JSON.readTree(response.body());
  }

  private static JsonNode ok(HttpResponse<String> response) throws Exception {
    return error(response, 200);
  }

  private PrometheusText.Scrape scrape(String user) throws Exception {
    HttpResponse<String> response = client(user).get("/metrics");
    assertEquals(200, response.statusCode(), response.body());
    return PrometheusText.parse(response.body());
  }

  @Test void shouldListAnotherUsersViewOnlyToAnAdministratorUntilItIsGranted() throws Exception {
    start();
    ApiClient bob = client("bob");
    ApiClient admin = client("admin");
    assertEquals(JSON.readTree(NOTHING), bob.getJson("/api/overview"));
    assertEquals(everything(), admin.getJson("/api/overview"));
    assertEquals(everything(), client("alice").getJson("/api/overview"));
    // Another user's query is not there to bob, by name or by id: as STOP QUERY says.
    for (String path : List.of("/api/queries/ALICE_COUNTS", "/api/queries/" + viewQuery().id(),
        "/api/queries/alice_counts/progress")) {
      JsonNode refused = error(bob.get(path), 404);
      assertEquals("42704", refused.get("sqlState").asText(), path);
      assertTrue(refused.get("message").asText().startsWith("No continuous query has the id"
          + " or name "), refused.toString());
    }
    JsonNode detail = admin.getJson("/api/queries/ALICE_COUNTS");
    assertEquals(CREATE_VIEW, detail.get("sql").asText());
    assertTrue(detail.get("plan").asText().contains("Aggregate"), detail.toString());
    assertEquals(1, admin.getJson("/api/queries/ALICE_COUNTS/progress").get("batches").size());

    alice("GRANT SELECT ON alice_counts TO bob");
    assertEquals(viewOnly(), bob.getJson("/api/overview"), "the view, not the stream it reads");
    JsonNode granted = bob.getJson("/api/queries/ALICE_COUNTS");
    assertEquals(CREATE_VIEW, granted.get("sql").asText());
    // EXPLAIN runs as bob, who may not read alice's stream: no plan for him.
    assertTrue(granted.get("plan").isNull(), granted.toString());
    assertEquals(admin.getJson("/api/queries/ALICE_COUNTS/progress"),
        bob.getJson("/api/queries/ALICE_COUNTS/progress"));
  }

  @Test void shouldScrapeTheSeriesOfTheQueriesTheUserMaySee() throws Exception {
    start();
    assertEquals(List.of(), scrape("bob").withLabel("query", "ALICE_COUNTS"));
    assertEquals(OptionalDouble.of(2), scrape("admin").value("freshet_query_input_rows_total",
        VIEW_SERIES));
    assertEquals(OptionalDouble.of(2), scrape("alice").value("freshet_query_input_rows_total",
        VIEW_SERIES));
    assertTrue(scrape("bob").types().containsKey("jvm_threads_current"),
        "the JVM's metrics are everyone's");

    alice("GRANT SELECT ON alice_counts TO bob");
    PrometheusText.Scrape granted = scrape("bob");
    assertEquals(OptionalDouble.of(2), granted.value("freshet_query_input_rows_total",
        VIEW_SERIES));
    assertEquals(OptionalDouble.of(1), granted.value("freshet_query_batches_total",
        VIEW_SERIES));
  }

  @Test void shouldRunTheSqlOfTheUiAsItsUser() throws Exception {
    start();
    ApiClient bob = client("bob");
    String select = "SELECT user_id, n FROM alice_counts";
    JsonNode refused = error(bob.sql(select), 400);
    assertEquals("42501", refused.get("sqlState").asText());
    assertTrue(refused.get("message").asText().startsWith("Permission denied: user bob needs"
        + " SELECT on materialized view ALICE_COUNTS"), refused.toString());
    // Not his to stop, nor even to know of.
    assertEquals("42704", error(bob.sql("STOP QUERY alice_counts"), 400).get("sqlState")
        .asText());

    alice("GRANT SELECT ON alice_counts TO bob");
    assertEquals(JSON.readTree("[[\"a\",2]]"), ok(bob.sql(select)).get("rows"));
    JsonNode notOwner = error(bob.sql("STOP QUERY alice_counts"), 400);
    assertEquals("42501", notOwner.get("sqlState").asText());
    assertEquals("ACTIVE", viewQuery().status().name(), "bob did not stop alice's query");
    assertEquals("42501", error(bob.sql("DROP MATERIALIZED VIEW alice_counts"), 400)
        .get("sqlState").asText());
    // What bob creates through the UI is his: alice does not see it.
    assertEquals(0, ok(bob.sql("CREATE STREAM bob_clicks (user_id VARCHAR)"))
        .get("updateCount").asLong());
    assertEquals(JSON.readTree("[[\"BOB_CLICKS\"]]"), ok(bob.sql("SHOW STREAMS")).get("rows"));
    assertEquals(everything(), client("alice").getJson("/api/overview"));
  }

  /**
   * Bob's push query in the SQL box is his: listed and counted to him and the administrator,
   * not to alice, who cannot stop it; and it ends with 42501 when alice revokes what it reads.
   */
  @Test void shouldStreamAPushQueryAsItsUserUntilItsGrantIsRevoked() throws Exception {
    start();
    ApiClient bob = client("bob");
    ApiClient aliceUi = client("alice");
    String push = "SELECT STREAM user_id FROM alice_clicks";
    // Bounded: had it run, its events would stream until the server stops.
    HttpResponse<String> refused = assertTimeoutPreemptively(DEADLINE, () -> bob.sql(push));
    assertEquals("42501", error(refused, 400).get("sqlState").asText());

    alice("GRANT SELECT ON STREAM alice_clicks TO bob");
    try (ApiClient.Events events = bob.stream(push)) {
      assertEquals("columns", events.next().name());
      ContinuousQuery query = pushQuery(push);
      assertEquals(List.of(query.id()), queryIds(bob.getJson("/api/overview")));
      assertEquals(List.of(viewQuery().id()), queryIds(aliceUi.getJson("/api/overview")));
      assertEquals(List.of(viewQuery().id(), query.id()).stream().sorted().toList(),
          queryIds(client("admin").getJson("/api/overview")).stream().sorted().toList());
      assertEquals(OptionalDouble.of(1), scrape("bob").value("freshet_push_queries"));
      assertEquals(OptionalDouble.of(0), scrape("alice").value("freshet_push_queries"));
      assertEquals(OptionalDouble.of(1), scrape("admin").value("freshet_push_queries"));
      assertEquals(List.of(), scrape("alice").withLabel("query", query.name()));
      assertEquals(404, aliceUi.get("/api/queries/" + query.id()).statusCode());
      assertEquals("42704", error(aliceUi.sql("STOP QUERY '" + query.id() + "'"), 400)
          .get("sqlState").asText());

      // A push query reads the stream from its start: alice's two rows, then her new one.
      assertEquals(JSON.readTree("[[\"a\",0,\"INSERT\"],[\"a\",0,\"INSERT\"]]"),
          rows(events, 2));
      alice("INSERT INTO alice_clicks VALUES ('b')");
      assertEquals(JSON.readTree("[[\"b\",1,\"INSERT\"]]"), rows(events, 1));

      alice("REVOKE SELECT ON STREAM alice_clicks FROM bob");
      ApiClient.Event ended = events.next();
      assertEquals("error", ended.name(), ended.data());
      assertEquals("42501", JSON.readTree(ended.data()).get("sqlState").asText(), ended.data());
      await(() -> server.engine().query(query.id()).isEmpty(), "bob's push query stops");
    }
  }

  /** The administrator role is the server's --admin-role, not a name the UI knows. */
  @Test void shouldTakeTheAdministratorsFromTheServersAdminRole() throws Exception {
    start("admin: pw,admin\nalice: pw\ncarol: pw,operators\n", "operators");
    assertEquals(everything(), client("carol").getJson("/api/overview"));
    assertEquals(OptionalDouble.of(2), scrape("carol").value("freshet_query_input_rows_total",
        VIEW_SERIES));
    assertEquals(JSON.readTree(NOTHING), client("admin").getJson("/api/overview"));
    assertEquals(List.of(), scrape("admin").withLabel("query", "ALICE_COUNTS"));
  }

  /**
   * Without authentication (a server without --auth, an embedded engine's UI) each request is
   * the process's administrator: it sees and reads a plain user's objects.
   */
  @Test void shouldShowEverythingToTheAnonymousUserOfAUiWithoutAuthentication() throws Exception {
    server = FreshetServer.builder().port(0).uiPort(0).start();
    Session session = server.engine().openSession(Principal.user("alice", false));
    session.execute("CREATE STREAM alice_clicks (user_id VARCHAR)");
    session.execute(CREATE_VIEW);
    session.execute("INSERT INTO alice_clicks VALUES ('a'), ('a')");
    assertTrue(viewQuery().processAllAvailable(DEADLINE), "the view did not catch up");
    try (ServedWebUi embedded = new EmbeddedWebUi().serve(server.engine(), "127.0.0.1", 0)) {
      for (ApiClient anonymous : List.of(new ApiClient(server.uiUrl().orElseThrow(), null),
          new ApiClient(embedded.url(), null))) {
        assertEquals(everything(), anonymous.getJson("/api/overview"));
        assertEquals(JSON.readTree("[[\"a\",2]]"),
            ok(anonymous.sql("SELECT user_id, n FROM alice_counts")).get("rows"));
        HttpResponse<String> metrics = anonymous.get("/metrics");
        assertEquals(OptionalDouble.of(2), PrometheusText.parse(metrics.body())
            .value("freshet_query_input_rows_total", VIEW_SERIES));
      }
    }
  }

  private ContinuousQuery pushQuery(String sql) {
    ContinuousQuery[] found = new ContinuousQuery[1];
    await(() -> {
      found[0] = server.engine().continuousQueries().stream()
          .filter(q -> q.sql().equals(sql)).findFirst().orElse(null);
      return found[0] != null;
    }, "the push query runs: " + sql);
    return found[0];
  }

  /** Reads {@code rows} events until {@code n} rows have come. */
  private static ArrayNode rows(ApiClient.Events events, int n) throws Exception {
    ArrayNode rows = JSON.createArrayNode();
    while (rows.size() < n) {
      ApiClient.Event event = events.next();
      assertEquals("rows", event.name(), event.data());
      JSON.readTree(event.data()).forEach(rows::add);
    }
    return rows;
  }

  private static List<String> queryIds(JsonNode overview) {
    return overview.get("queries").findValuesAsText("id");
  }
}
