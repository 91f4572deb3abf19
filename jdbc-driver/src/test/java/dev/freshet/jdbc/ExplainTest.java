package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.Engine;
import dev.freshet.sql.FreshetSqlParser;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** EXPLAIN of a push query shows the stateful chain through JDBC. */
class ExplainTest {
  @Test void shouldShowStateStoreRestoreAndSaveInUpdateModeWhenExplainingAPushQuery()
      throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM clicks (user_id VARCHAR, amount DOUBLE)"
          + " WITH (connector = 'memory')");
      try (ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR SELECT STREAM user_id, COUNT(*) AS n,"
          + " SUM(amount) AS total FROM clicks GROUP BY user_id EMIT UPDATE")) {
        assertTrue(rs.next());
        String plan = rs.getString(1);
        assertFalse(rs.next());
        String expected = ""
            + "LogicalStateStoreSave(operatorId=[0], keys=[{0}], outputMode=[Update],"
            + " statePartitions=[1], state=[UNBOUNDED])\n"
            + "  LogicalStreamAggregate(group=[{0}], N=[$SUM0($1)], TOTAL=[SUM($2)],"
            + " phase=[MERGE])\n"
            + "    LogicalStateStoreRestore(operatorId=[0], keys=[{0}])\n"
            + "      LogicalStreamAggregate(group=[{0}], N=[COUNT()], TOTAL=[SUM($1)],"
            + " phase=[PARTIAL])\n"
            + "        LogicalTableScan(table=[[FRESHET, CLICKS]])\n";
        assertTrue(plan.equals(expected), () -> "plan was:\n" + plan);
      }
    }
  }

  @Test void shouldShowTheStatefulChainOfAMaterializedViewsQuery() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM clicks (user_id VARCHAR, amount DOUBLE)"
          + " WITH (connector = 'memory')");
      try (ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR CREATE MATERIALIZED VIEW totals AS"
          + " SELECT user_id, COUNT(*) AS n FROM clicks GROUP BY user_id EMIT COMPLETE")) {
        assertTrue(rs.next());
        String plan = rs.getString(1);
        assertTrue(plan.startsWith("LogicalStateStoreSave(operatorId=[0], keys=[{0}],"
            + " outputMode=[Complete]"), () -> "plan was:\n" + plan);
      }
      try (ResultSet rs = s.executeQuery("SHOW VIEWS")) {
        assertFalse(rs.next(), "EXPLAIN must not create the view");
      }
    }
  }

  @Test void shouldShowCalcitesPlanOfAPlainQueryOverAViewOrASystemTable() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM clicks (user_id VARCHAR, amount DOUBLE)"
          + " WITH (connector = 'memory')");
      s.execute("CREATE MATERIALIZED VIEW totals AS SELECT user_id, COUNT(*) AS n FROM clicks"
          + " GROUP BY user_id");
      // The view is handed its filters (and reads only its key's row when they fix the key).
      assertEquals("EnumerableInterpreter\n"
          + "  BindableTableScan(table=[[FRESHET, TOTALS]], filters=[[>($1, 1)]])\n",
          plan(s, "EXPLAIN PLAN FOR SELECT * FROM totals WHERE n > 1"));
      assertEquals("EnumerableCalc(expr#0..13=[{inputs}], NAME=[$t1])\n"
          + "  EnumerableTableScan(table=[[SYS, QUERIES]])\n",
          plan(s, "EXPLAIN PLAN FOR SELECT name FROM sys.queries"));
      // A plain query over a stream: the plan Freshet's executor runs over the rows held.
      assertEquals("LogicalProject(USER_ID=[$0])\n"
          + "  LogicalTableScan(table=[[FRESHET, CLICKS]])\n",
          plan(s, "EXPLAIN PLAN FOR SELECT user_id FROM clicks"));
    }
  }

  @Test void shouldHandAParameterizedKeyFilterToTheViewsScan() throws Exception {
    String name = UUID.randomUUID().toString();
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + name);
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM clicks (user_id VARCHAR, amount DOUBLE)"
          + " WITH (connector = 'memory')");
      s.execute("CREATE MATERIALIZED VIEW totals AS SELECT user_id, COUNT(*) AS n FROM clicks"
          + " GROUP BY user_id");
      // The plan a prepared statement with a marker runs, for every value: EXPLAIN of a
      // statement with a marker cannot be prepared (preparing an EXPLAIN runs it), so the
      // engine's pull-query executor shows it.
      Engine engine = EngineRegistry.INSTANCE.resolve(Map.of("engine", name));
      assertEquals(Optional.of("EnumerableInterpreter\n"
          + "  BindableTableScan(table=[[FRESHET, TOTALS]], filters=[[=($0, ?0)]],"
          + " projects=[[1]])\n"), engine.pullQueries().explain(
              FreshetSqlParser.parse("SELECT n FROM totals WHERE user_id = ?")));
    }
  }

  private static String plan(Statement s, String explain) throws Exception {
    try (ResultSet rs = s.executeQuery(explain)) {
      assertTrue(rs.next());
      String plan = rs.getString(1);
      assertFalse(rs.next());
      return plan;
    }
  }
}
