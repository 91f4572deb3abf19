package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.freshet.engine.Engine;
import dev.freshet.executor.runtime.StreamingQuery;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads rows of a never-ending result set, failing if they do not arrive before a deadline. */
final class PushResults {
  /** Generous: a row normally arrives within milliseconds, but CI machines are loaded. */
  static final Duration DEADLINE = Duration.ofSeconds(30);

  private PushResults() {
  }

  /** Reads exactly {@code n} rows, each as a list of its column values. */
  static List<List<Object>> read(ResultSet rs, int n) {
    return assertTimeoutPreemptively(DEADLINE, () -> {
      List<List<Object>> rows = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        assertTrue(rs.next(), "the push result ended after " + i + " rows");
        rows.add(row(rs));
      }
      return rows;
    }, () -> "fewer than " + n + " rows arrived within " + DEADLINE);
  }

  /**
   * Reads exactly {@code n} rows and returns their data columns, for tests about what a query
   * computes. Each row's trailing {@code _BATCH_ID} and {@code _ROW_KIND} are checked for what
   * holds of every push result (a batch id that never goes back, a known kind); their exact
   * values are what PushTrailingColumnsTest, PushQueryTest and the engine's PushResultTest check.
   */
  static List<List<Object>> readData(ResultSet rs, int n) {
    List<List<Object>> rows = read(rs, n);
    List<List<Object>> data = new ArrayList<>();
    long lastBatch = -1;
    for (List<Object> row : rows) {
      Object batch = row.get(row.size() - 2);
      Object kind = row.get(row.size() - 1);
      assertTrue(batch instanceof Long && (Long) batch >= lastBatch, "batch id " + batch
          + " after " + lastBatch + " in " + row);
      lastBatch = (Long) batch;
      assertTrue(List.of("INSERT", "UPDATE", "DELETE").contains(kind), "row kind of " + row);
      data.add(row.subList(0, row.size() - 2));
    }
    return data;
  }

  /**
   * Waits until every continuous query of the in-memory engine {@code engineName} has processed
   * all its input, including batches without data; fails with a query's error if it stopped.
   *
   * @return the engine's queries
   */
  static List<StreamingQuery> awaitIdle(String engineName, String context) throws Exception {
    Engine engine = EngineRegistry.INSTANCE.resolve(Map.of("engine", engineName));
    List<StreamingQuery> queries = engine.queries();
    for (StreamingQuery query : queries) {
      if (!query.processAllAvailable(DEADLINE)) {
        fail(context + ": query " + query.name() + " did not catch up: " + query.status(),
            query.exception().orElse(null));
      }
    }
    return queries;
  }

  /** {@link #awaitIdle(String, String)} for an engine that runs exactly one query. */
  static StreamingQuery awaitOnlyQuery(String engineName, String context) throws Exception {
    List<StreamingQuery> queries = awaitIdle(engineName, context);
    assertEquals(1, queries.size(), context + ": queries running");
    return queries.get(0);
  }

  static List<Object> row(ResultSet rs) throws SQLException {
    List<Object> row = new ArrayList<>();
    for (int c = 1; c <= rs.getMetaData().getColumnCount(); c++) {
      row.add(rs.getObject(c));
    }
    return row;
  }
}
