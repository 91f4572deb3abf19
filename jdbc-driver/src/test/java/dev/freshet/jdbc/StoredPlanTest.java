package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.freshet.engine.Engine;
import dev.freshet.executor.checkpoint.FileChecksum;
import dev.freshet.executor.runtime.StreamingQuery;
import dev.freshet.planner.exec.ExecColumn;
import dev.freshet.planner.exec.ExecPlan;
import dev.freshet.planner.exec.StateSchema;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A view writes its execution plan into its checkpoint when it is created; a restart resumes on
 * it, and refuses, naming the view and what differs, a stored plan or state it cannot read.
 */
class StoredPlanTest {
  private static final String VIEW = "CREATE MATERIALIZED VIEW per_user AS"
      + " SELECT user_id, COUNT(*) AS c, SUM(n) AS total FROM clicks GROUP BY user_id";
  private static final String QUERY = "SELECT user_id, c, total FROM per_user ORDER BY user_id";
  private static final String FILTERED_VIEW = "CREATE MATERIALIZED VIEW per_user AS"
      + " SELECT user_id, COUNT(*) AS c, SUM(n) AS total FROM clicks WHERE n > 0"
      + " GROUP BY user_id";
  private static final String MISFIT = "the plan in its checkpoint does not fit this Freshet,"
      + " and its state or result would be misread. ";
  private static final String ORACLE = "SELECT user_id, COUNT(*), SUM(n) FROM clicks"
      + " GROUP BY user_id ORDER BY user_id";

  @TempDir Path dataDir;

  @AfterEach void closeEngine() throws SQLException {
    // Its query and maintenance thread would otherwise write into the deleted directory.
    engine().close();
  }

  private String url() {
    return "jdbc:freshet:dataDir=" + dataDir;
  }

  private Engine engine() throws SQLException {
    return EngineRegistry.INSTANCE.resolve(Map.of(EngineRegistry.DATA_DIR, dataDir.toString()));
  }

  private Path checkpoint() {
    return dataDir.resolve("checkpoints").resolve("PER_USER");
  }

  @Test void shouldWriteThePlanAtCreationAndResumeOnItWithExactResults() throws Exception {
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:" + UUID.randomUUID());
         Statement oracle = h2.createStatement()) {
      oracle.execute("CREATE TABLE clicks (user_id VARCHAR, n INTEGER)");
      String first = values(0, 300);
      oracle.execute("INSERT INTO clicks VALUES " + first);
      byte[] plan = runFirstEngine(first);
      assertEquals(rows(oracle, ORACLE), viewRows());
      Path planFile = checkpoint().resolve("plan");
      ExecPlan stored = ExecPlan.fromJson(new String(
          FileChecksum.open(Files.readAllBytes(planFile), planFile), StandardCharsets.UTF_8));
      assertEquals(ExecPlan.VERSION, stored.version());
      assertEquals(List.of(new StateSchema(0, "aggregate",
          List.of(new ExecColumn("USER_ID", "VARCHAR", null)),
          List.of(new ExecColumn("C", "BIGINT NOT NULL", "SUM0"),
              new ExecColumn("TOTAL", "BIGINT", "SUM")))), stored.stateSchemas());
      assertEquals(List.of("scan", "stateful-aggregate"),
          stored.nodes().stream().map(n -> n.kind()).toList());
      engine().close();

      String second = values(300, 500);
      oracle.execute("INSERT INTO clicks VALUES " + second);
      try (Connection c = DriverManager.getConnection(url());
           Statement s = c.createStatement()) {
        s.execute("INSERT INTO clicks VALUES " + second);
        awaitIdle();
        assertEquals(rows(oracle, ORACLE), rows(s, QUERY));
      }
      // Read, not written again: the stored plan is the one the view was created with.
      assertArrayEquals(plan, Files.readAllBytes(checkpoint().resolve("plan")));
    }
  }

  @Test void shouldFailTheViewWhenAStateValueColumnChangedType() throws Exception {
    runFirstEngine(values(0, 100));
    engine().close();
    editPlan(plan -> valueColumn(plan, "TOTAL").put("type", "INTEGER"));

    assertCannotResume(MISFIT + "operator 0 (aggregate): its state was written with value schema"
        + " [C SUM0 BIGINT NOT NULL, TOTAL SUM INTEGER], but this Freshet keeps"
        + " [C SUM0 BIGINT NOT NULL, TOTAL SUM BIGINT] for the aggregate the plan runs there"
        + " (stored plan " + checkpoint().resolve("plan") + ")");
  }

  @Test void shouldFailTheViewWhenTheStoredStateHasAValueColumnMore() throws Exception {
    runFirstEngine(values(0, 100));
    engine().close();
    editPlan(plan -> {
      ArrayNode value = (ArrayNode) stateOf(plan).get("value");
      value.addObject().put("name", "LARGEST").put("type", "INTEGER").put("accumulator", "MAX");
    });

    assertCannotResume(MISFIT + "operator 0 (aggregate): its state was written with value schema"
        + " [C SUM0 BIGINT NOT NULL, TOTAL SUM BIGINT, LARGEST MAX INTEGER], but this Freshet"
        + " keeps [C SUM0 BIGINT NOT NULL, TOTAL SUM BIGINT] for the aggregate the plan runs"
        + " there (stored plan " + checkpoint().resolve("plan") + ")");
  }

  @Test void shouldFailTheViewWhenItsStateMovedToAnotherOperator() throws Exception {
    runFirstEngine(values(0, 100));
    engine().close();
    editPlan(plan -> stateOf(plan).put("operatorId", 1));

    assertCannotResume(MISFIT + "operator 1 (aggregate): the plan records it for node 1, whose"
        + " aggregate keeps its state in operator 0 (stored plan " + checkpoint().resolve("plan")
        + ")");
  }

  @Test void shouldFailTheViewWhenTheStoredPlanNoLongerFitsItsResult() throws Exception {
    runFirstEngine(values(0, 100));
    engine().close();
    editPlan(plan -> {
      ArrayNode nodes = (ArrayNode) plan.get("nodes");
      ObjectNode total = (ObjectNode) nodes.get(nodes.size() - 1).get("output").get(2);
      total.put("name", "SUM_N");
      valueColumn(plan, "TOTAL").put("name", "SUM_N");
    });

    assertCannotResume(MISFIT + "the stored plan emits [USER_ID VARCHAR, C BIGINT NOT NULL,"
        + " SUM_N BIGINT, $NEW_KEY BOOLEAN NOT NULL], but the view's query now yields"
        + " [USER_ID VARCHAR, C BIGINT NOT NULL, TOTAL BIGINT, $NEW_KEY BOOLEAN NOT NULL]"
        + " (stored plan "
        + checkpoint().resolve("plan") + ")");
  }

  @Test void shouldFailTheViewWhenItsStoredPlanCallsAnUnknownFunction() throws Exception {
    runFirstEngine(FILTERED_VIEW, values(0, 100));
    engine().close();
    editPlan(plan -> {
      ObjectNode op = (ObjectNode) calcOf(plan).get("program").get("condition").get("op");
      op.put("name", "NO_SUCH_FUNCTION").put("kind", "OTHER_FUNCTION").put("syntax", "FUNCTION");
    });

    String message = cannotResume(FILTERED_VIEW);
    String prefix = "its stored plan " + checkpoint().resolve("plan") + " cannot be read: a"
        + " calc's program cannot be read: ";
    assertEquals(true, message.startsWith(prefix) && message.contains("NO_SUCH_FUNCTION"),
        message);
  }

  /**
   * A restart runs the plan stored in the checkpoint, not a new plan of the view's SQL: a stored
   * plan whose filter was changed to {@code n > 2} (as if an earlier Freshet had planned it so)
   * filters the rows after the restart, while the view's SQL says {@code n > 0}.
   */
  @Test void shouldRunTheStoredPlanOnRestartNotANewPlanOfTheSql() throws Exception {
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:" + UUID.randomUUID());
         Statement oracle = h2.createStatement()) {
      oracle.execute("CREATE TABLE before_restart (user_id VARCHAR, n INTEGER)");
      oracle.execute("CREATE TABLE after_restart (user_id VARCHAR, n INTEGER)");
      String first = values(0, 300);
      oracle.execute("INSERT INTO before_restart VALUES " + first);
      runFirstEngine(FILTERED_VIEW, first);
      engine().close();
      editPlan(plan -> {
        ObjectNode zero = (ObjectNode) calcOf(plan).get("program").get("condition")
            .get("operands").get(1);
        assertEquals(0, zero.get("literal").asInt(), zero.toString());
        zero.put("literal", 2);
      });

      String second = values(300, 600);
      oracle.execute("INSERT INTO after_restart VALUES " + second);
      try (Connection c = DriverManager.getConnection(url());
           Statement s = c.createStatement()) {
        s.execute("INSERT INTO clicks VALUES " + second);
        awaitIdle();
        assertEquals(rows(oracle, "SELECT user_id, COUNT(*), SUM(n) FROM ("
            + "SELECT * FROM before_restart WHERE n > 0"
            + " UNION ALL SELECT * FROM after_restart WHERE n > 2)"
            + " GROUP BY user_id ORDER BY user_id"), rows(s, QUERY));
      }
    }
  }

  @Test void shouldFailTheViewWhenThePlanHasAnUnknownVersion() throws Exception {
    runFirstEngine(values(0, 100));
    engine().close();
    editPlan(plan -> plan.put("version", 2));

    assertCannotResume("its stored plan " + checkpoint().resolve("plan") + " cannot be read: its"
        + " version is 2, but this Freshet reads plans of version 1 only");
  }

  @Test void shouldFailTheViewWhenItsStateHasAnUnknownFormatVersion() throws Exception {
    runFirstEngine(values(0, 100));
    engine().close();
    Path offsets = checkpoint().resolve("offsets").resolve("0");
    String entry = new String(FileChecksum.open(Files.readAllBytes(offsets), offsets),
        StandardCharsets.UTF_8);
    String edited = entry.replace("\"state.format.version\":\"1\"",
        "\"state.format.version\":\"2\"");
    assertEquals(false, edited.equals(entry), entry);
    // Written as a later Freshet would write it, checksum and all.
    Files.write(offsets, FileChecksum.seal(edited.getBytes(StandardCharsets.UTF_8)));

    assertCannotResume(offsets + " records state.format.version '2', but this Freshet reads"
        + " state of format version 1 only");
  }

  @Test void shouldReplaceAStoredPlanOnWhichNoBatchHasRun() throws Exception {
    byte[] plan = runFirstEngine("");
    engine().close();
    editPlan(p -> valueColumn(p, "TOTAL").put("type", "INTEGER"));

    try (Connection c = DriverManager.getConnection(url());
         Statement s = c.createStatement()) {
      // No state depends on the stored plan yet: the view resumes and writes its own.
      s.execute("INSERT INTO clicks VALUES " + values(0, 20));
      awaitIdle();
      assertEquals(List.of(List.of("u0", 3L, 4L), List.of("u1", 3L, -9L), List.of("u2", 3L, 0L),
          List.of("u3", 3L, 9L), List.of("u4", 3L, -4L), List.of("u5", 3L, -6L),
          List.of("u6", 2L, 3L)), rows(s, QUERY));
    }
    assertArrayEquals(plan, Files.readAllBytes(checkpoint().resolve("plan")));
  }

  /**
   * Creates stream and view, inserts {@code values} (if any), waits; returns the plan file's
   * bytes.
   */
  private byte[] runFirstEngine(String values) throws Exception {
    return runFirstEngine(VIEW, values);
  }

  private byte[] runFirstEngine(String view, String values) throws Exception {
    try (Connection c = DriverManager.getConnection(url());
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM clicks (user_id VARCHAR, n INTEGER)");
      s.execute(view);
      if (!values.isEmpty()) {
        s.execute("INSERT INTO clicks VALUES " + values);
      }
      awaitIdle();
    }
    return Files.readAllBytes(checkpoint().resolve("plan"));
  }

  private List<List<Object>> viewRows() throws SQLException {
    try (Connection c = DriverManager.getConnection(url());
         Statement s = c.createStatement()) {
      return rows(s, QUERY);
    }
  }

  /**
   * The restarted engine leaves the view out, and declaring it again fails with the clear error;
   * the stored plan is left as it was.
   */
  private void assertCannotResume(String why) throws Exception {
    assertEquals(why, cannotResume(VIEW));
  }

  /**
   * Restarts the engine, which leaves the view out (a SELECT of it says why); declares it again with {@code view}, which
   * fails with the clear error; returns the error's reason: what follows the view's checkpoint
   * in the message. The stored plan is left as it was.
   */
  private String cannotResume(String view) throws Exception {
    byte[] plan = Files.readAllBytes(checkpoint().resolve("plan"));
    String why;
    try (Connection c = DriverManager.getConnection(url());
         Statement s = c.createStatement()) {
      // Not "not found": a SELECT says why the view is missing.
      SQLException select = assertThrows(SQLException.class, () -> s.executeQuery(QUERY));
      assertEquals("55000", select.getSQLState());
      assertTrue(select.getMessage().startsWith("Materialized view PER_USER could not be"
          + " declared again when the engine started: Materialized view PER_USER cannot resume"
          + " from its checkpoint " + checkpoint() + ": "), select.getMessage());
      SQLException e = assertThrows(SQLException.class, () -> s.execute(view));
      String prefix = "Materialized view PER_USER cannot resume from its checkpoint "
          + checkpoint() + ": ";
      String suffix = ". Run the Freshet version that created the view, or DROP MATERIALIZED"
          + " VIEW PER_USER and create it again to rebuild its state from the beginning of its"
          + " stream";
      String message = e.getMessage();
      assertEquals(true, message.startsWith(prefix) && message.endsWith(suffix), message);
      assertEquals("55000", e.getSQLState());
      assertEquals(List.of(), rows(s, "SELECT name FROM sys.queries"));
      why = message.substring(prefix.length(), message.length() - suffix.length());
    }
    assertArrayEquals(plan, Files.readAllBytes(checkpoint().resolve("plan")));
    return why;
  }

  private static ObjectNode calcOf(ObjectNode plan) {
    for (JsonNode node : plan.get("nodes")) {
      if (node.get("operator").get("kind").asText().equals("calc")) {
        return (ObjectNode) node.get("operator");
      }
    }
    throw new AssertionError("no calc in " + plan);
  }

  private void editPlan(Consumer<ObjectNode> edit) throws Exception {
    ObjectMapper json = new ObjectMapper();
    Path file = checkpoint().resolve("plan");
    ObjectNode plan = (ObjectNode) json.readTree(file.toFile());
    edit.accept(plan);
    Files.writeString(file, json.writerWithDefaultPrettyPrinter().writeValueAsString(plan));
  }

  private static ObjectNode stateOf(ObjectNode plan) {
    for (JsonNode node : plan.get("nodes")) {
      if (node.has("state")) {
        return (ObjectNode) node.get("state");
      }
    }
    throw new AssertionError("no stateful node in " + plan);
  }

  private static ObjectNode valueColumn(ObjectNode plan, String name) {
    for (JsonNode column : stateOf(plan).get("value")) {
      if (column.get("name").asText().equals(name)) {
        return (ObjectNode) column;
      }
    }
    throw new AssertionError("no value column " + name + " in " + plan);
  }

  /** Rows {@code from} to {@code to - 1}: seven users, values from -5 to 5. */
  private static String values(int from, int to) {
    List<String> rows = new ArrayList<>();
    for (int i = from; i < to; i++) {
      rows.add("('u" + i % 7 + "', " + (i * 3 % 11 - 5) + ")");
    }
    return String.join(", ", rows);
  }

  private void awaitIdle() throws Exception {
    for (StreamingQuery query : engine().queries()) {
      if (!query.processAllAvailable(ViewResults.DEADLINE)) {
        fail("query " + query.name() + " did not catch up: " + query.status(),
            query.exception().orElse(null));
      }
    }
  }

  /** The rows of {@code sql}, each as its first column's string and the others as longs. */
  private static List<List<Object>> rows(Statement statement, String sql) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    try (ResultSet rs = statement.executeQuery(sql)) {
      while (rs.next()) {
        List<Object> row = new ArrayList<>();
        row.add(rs.getString(1));
        for (int c = 2; c <= rs.getMetaData().getColumnCount(); c++) {
          row.add(rs.getObject(c) == null ? null : rs.getLong(c));
        }
        rows.add(row);
      }
    }
    return rows;
  }
}
