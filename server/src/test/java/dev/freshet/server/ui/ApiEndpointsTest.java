package dev.freshet.server.ui;

import static dev.freshet.server.ui.ApiClient.DEADLINE;
import static dev.freshet.server.ui.ApiClient.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.server.FreshetServer;
import dev.freshet.server.H2TcpServer;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The web UI's read-only endpoints over HTTP, against a server whose objects were created over
 * JDBC: the overview, a query's detail with its plan, and its progress batch by batch.
 */
class ApiEndpointsTest {
  private static final String CREATE_VIEW = "CREATE MATERIALIZED VIEW clicks_per_user AS"
      + " SELECT user_id, COUNT(*) AS n FROM clicks GROUP BY user_id EMIT UPDATE";
  private static FreshetServer server;
  /** The sink's database: a server refuses jdbc:h2:mem:, which would run inside it. */
  private static H2TcpServer sinkDatabase;
  private static ApiClient api;

  /**
   * One stream, one view and one sink, fed by two INSERTs, each processed as a batch of its
   * own.
   */
  @BeforeAll static void startServer() throws Exception {
    sinkDatabase = H2TcpServer.start();
    server = FreshetServer.builder().port(0).uiPort(0).start();
    api = new ApiClient(server.uiUrl().orElseThrow(), null);
    try (Connection connection = DriverManager.getConnection(
        "jdbc:freshet:remote:url=" + server.url());
        Statement statement = connection.createStatement()) {
      statement.executeUpdate("CREATE STREAM clicks (user_id VARCHAR, amount DOUBLE)");
      statement.executeUpdate(CREATE_VIEW);
      statement.executeUpdate(createSink());
      statement.executeUpdate("INSERT INTO clicks VALUES ('a', 1.0), ('a', 2.0), ('b', 3.0)");
      awaitView();
      statement.executeUpdate("INSERT INTO clicks VALUES ('c', 4.0), ('a', 5.0)");
      awaitView();
    }
  }

  @AfterAll static void stopServer() {
    server.close();
    sinkDatabase.close();
  }

  private static String createSink() {
    return "CREATE SINK totals AS SELECT user_id, SUM(amount) AS total FROM clicks"
        + " GROUP BY user_id WITH (connector = 'jdbc', 'url' = '"
        + sinkDatabase.url("api_endpoints_sink") + "', 'table-name' = 'totals')";
  }

  private static ContinuousQuery viewQuery() {
    return server.engine().query("CLICKS_PER_USER").orElseThrow();
  }

  private static ContinuousQuery sinkQuery() {
    return server.engine().query("TOTALS").orElseThrow();
  }

  private static void awaitView() throws InterruptedException {
    assertTrue(viewQuery().processAllAvailable(DEADLINE), "the view did not catch up");
    assertTrue(sinkQuery().processAllAvailable(DEADLINE), "the sink did not catch up");
  }

  @Test void shouldListTheStreamViewAndQueryInTheOverview() throws Exception {
    HttpResponse<String> response = api.get("/api/overview");
    assertEquals(200, response.statusCode());
    assertEquals("no-store", response.headers().firstValue("Cache-Control").orElseThrow());
    assertTrue(response.headers().firstValue("Content-Type").orElseThrow()
        .startsWith("application/json"));
    assertTrue(response.headers().firstValue("Access-Control-Allow-Origin").isEmpty());
    ObjectNode expected = JSON.createObjectNode();
    ObjectNode stream = expected.putArray("streams").addObject();
    stream.put("name", "CLICKS").put("connector", "memory");
    ArrayNode columns = stream.putArray("columns");
    columns.addObject().put("name", "USER_ID").put("type", "VARCHAR");
    columns.addObject().put("name", "AMOUNT").put("type", "DOUBLE");
    expected.putArray("views").addObject().put("name", "CLICKS_PER_USER")
        .put("outputMode", "UPDATE").put("sql", CREATE_VIEW);
    expected.putArray("sinks").addObject().put("name", "TOTALS").put("sql", createSink());
    ContinuousQuery query = viewQuery();
    ArrayNode queries = expected.putArray("queries");
    queries.addObject().put("id", query.id())
        .put("name", "CLICKS_PER_USER").put("kind", "view").put("status", "ACTIVE")
        .putNull("lastError").put("lastBatchId", query.lastBatchId()).put("sql", CREATE_VIEW);
    ContinuousQuery sink = sinkQuery();
    queries.addObject().put("id", sink.id())
        .put("name", "TOTALS").put("kind", "sink").put("status", "ACTIVE")
        .putNull("lastError").put("lastBatchId", sink.lastBatchId()).put("sql", createSink());
    // Read back, so that numbers compare as parsed (an int node is not a long node).
    assertEquals(JSON.readTree(expected.toString()), JSON.readTree(response.body()));
    assertEquals(1, query.lastBatchId(), "two INSERTs, two batches");
  }

  @Test void shouldShowAQueryWithItsSqlAndAPlanThatAggregates() throws Exception {
    JsonNode detail = api.getJson("/api/queries/clicks_per_user");
    assertEquals("CLICKS_PER_USER", detail.get("name").asText());
    assertEquals("view", detail.get("kind").asText());
    assertEquals("ACTIVE", detail.get("status").asText());
    assertTrue(detail.get("lastError").isNull());
    assertEquals(CREATE_VIEW, detail.get("sql").asText());
    String plan = detail.get("plan").asText();
    assertTrue(plan.contains("Aggregate") && plan.contains("COUNT()"), plan);
    // The same query by its id.
    assertEquals(detail, api.getJson("/api/queries/" + viewQuery().id()));
    JsonNode sink = api.getJson("/api/queries/TOTALS");
    assertEquals("sink", sink.get("kind").asText());
    assertEquals(createSink(), sink.get("sql").asText());
    String sinkPlan = sink.get("plan").asText();
    assertTrue(sinkPlan.contains("Aggregate") && sinkPlan.contains("SUM($1)"), sinkPlan);
  }

  @Test void shouldAnswer404ForAnUnknownQueryOrPath() throws Exception {
    for (String path : new String[] {"/api/queries/NO_SUCH_VIEW",
        "/api/queries/NO_SUCH_VIEW/progress", "/api/nothing"}) {
      HttpResponse<String> response = api.get(path);
      assertEquals(404, response.statusCode(), path);
      assertEquals("no-store", response.headers().firstValue("Cache-Control").orElseThrow());
      JsonNode error = JSON.readTree(response.body());
      assertEquals("42704", error.get("sqlState").asText(), path);
      assertTrue(error.get("message").asText().contains("/api/"), error.toString());
    }
  }

  @Test void shouldGiveTheProgressOfEachBatchAndOnlyThoseAfterTheOneGiven() throws Exception {
    JsonNode batches = api.getJson("/api/queries/CLICKS_PER_USER/progress").get("batches");
    assertEquals(List.of(0L, 1L), longs(batches, "batchId"));
    assertEquals(List.of(3L, 2L), longs(batches, "inputRows"));
    // Groups in state after each batch: a and b, then c too.
    assertEquals(List.of(2L, 3L), longs(batches, "stateRows"));
    assertEquals(List.of(0L, 0L), longs(batches, "lateRows"));
    for (JsonNode batch : batches) {
      assertTrue(batch.get("watermark").isNull(), "the stream has no watermark");
      assertTrue(batch.get("watermarkLagMs").isNull());
      assertTrue(batch.get("timestamp").asLong() > 1_600_000_000_000L, batch.toString());
      assertTrue(batch.get("durationMs").asLong() >= 0);
      assertTrue(batch.get("inputRowsPerSecond").isNumber());
      assertTrue(batch.get("processedRowsPerSecond").asDouble() > 0);
    }
    JsonNode after = api.getJson("/api/queries/CLICKS_PER_USER/progress?after=0")
        .get("batches");
    assertEquals(List.of(1L), longs(after, "batchId"));
    assertEquals(List.of(2L), longs(after, "inputRows"));
    assertEquals(List.of(), longs(api.getJson(
        "/api/queries/CLICKS_PER_USER/progress?after=1").get("batches"), "batchId"));
    HttpResponse<String> bad = api.get("/api/queries/CLICKS_PER_USER/progress?after=x");
    assertEquals(400, bad.statusCode());
    assertEquals("22023", JSON.readTree(bad.body()).get("sqlState").asText());
  }

  private static List<Long> longs(JsonNode array, String field) {
    List<Long> values = new ArrayList<>();
    for (JsonNode element : array) {
      values.add(element.get(field).asLong());
    }
    return values;
  }
}
