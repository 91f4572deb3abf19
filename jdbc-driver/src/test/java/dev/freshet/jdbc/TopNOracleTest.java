package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.testkit.oracle.H2Oracle;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Differential test of top-N per group: random rows in random batches go to a Freshet stream and
 * to H2; after every batch both a COMPLETE view and the rows of an UPDATE push query, folded by
 * (group, rank) as a reader upserts them, must equal H2 running the same {@code ROW_NUMBER()}
 * SQL as a batch query over every row so far. {@code seq} counts rows in arrival order and ends
 * every {@code ORDER BY}, so that H2's row numbers are deterministic; {@code v} has few values,
 * so that rows tie on it.
 */
class TopNOracleTest {
  private final String engineName = UUID.randomUUID().toString();
  private Connection freshet;
  private H2Oracle h2;
  private Statement fs;

  @BeforeEach void connect() throws Exception {
    freshet = DriverManager.getConnection("jdbc:freshet:engine=" + engineName
        + ";timeZone=UTC");
    h2 = new H2Oracle("TIME ZONE=UTC");
    fs = freshet.createStatement();
    fs.execute("CREATE STREAM s (k VARCHAR, g INTEGER, v INTEGER, seq BIGINT)"
        + " WITH (connector = 'memory')");
    h2.createTable("s", "k VARCHAR, g INTEGER, v INTEGER, seq BIGINT");
  }

  @AfterEach void close() throws Exception {
    freshet.close();
    h2.close();
  }

  /**
   * Each case is the positions of its group columns and rank in its select list, a '|', and the
   * query.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "0,3|SELECT k, v, seq, rn FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY"
          + " v DESC, seq) AS rn FROM s) WHERE rn <= 3",
      "1,0,4|SELECT g, k, v, seq, rn FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k, g"
          + " ORDER BY v, seq DESC) AS rn FROM s) WHERE rn < 3",
      "0,2|SELECT g, seq, rn FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY g ORDER BY seq"
          + " DESC) AS rn FROM s) WHERE rn = 1"})
  void shouldMatchH2AfterEveryBatch(String testCase) throws Exception {
    String[] parts = testCase.split("\\|", 2);
    String select = parts[1];
    List<Integer> keyColumns = new ArrayList<>();
    for (String column : parts[0].split(",")) {
      keyColumns.add(Integer.parseInt(column));
    }
    long seed = System.nanoTime();
    Random random = new Random(seed);
    fs.execute("CREATE MATERIALIZED VIEW top AS " + select + " EMIT COMPLETE");
    Map<List<Object>, List<Object>> folded = new HashMap<>();
    try (Statement push = freshet.createStatement()) {
      push.execute("SET 'push.batch.markers' = 'true'");
      ResultSet rs = push.executeQuery("SELECT STREAM * FROM (" + select + ") EMIT UPDATE");
      long seq = 0;
      for (int batch = 0; batch < 25; batch++) {
        int n = 1 + random.nextInt(8);
        int[] keys = {random.nextInt(6), random.nextInt(6), random.nextInt(6)};
        StringBuilder rows = new StringBuilder();
        for (int i = 0; i < n; i++) {
          rows.append(i == 0 ? "" : ", ").append("(")
              .append(random.nextInt(10) == 0 ? "NULL" : "'k" + keys[random.nextInt(3)] + "'")
              .append(", ").append(random.nextInt(2)).append(", ").append(random.nextInt(5))
              .append(", ").append(seq++).append(")");
        }
        fs.executeUpdate("INSERT INTO s VALUES " + rows);
        h2.execute("INSERT INTO s VALUES " + rows);
        List<List<Object>> expected = ViewResults.normalized(h2.query(select));
        String context = "seed " + seed + ", batch " + batch;
        try {
          ViewResults.awaitNormalized(fs, "SELECT * FROM top", expected);
        } catch (AssertionError e) {
          throw new AssertionError(context + ": " + e.getMessage(), e);
        }
        PushResults.awaitIdle(engineName, context);
        // The batch's changed ranks, up to its marker; unread rows of a rank coalesce.
        for (List<Object> row = PushResults.read(rs, 1).get(0);
            !"BATCH_END".equals(row.get(row.size() - 1)); row = PushResults.read(rs, 1).get(0)) {
          List<Object> data = ViewResults.normalized(List.of(row.subList(0, row.size() - 2)))
              .get(0);
          List<Object> key = new ArrayList<>();
          for (int column : keyColumns) {
            key.add(data.get(column));
          }
          Object kind = row.get(row.size() - 1);
          assertEquals(folded.containsKey(key) ? "UPDATE" : "INSERT", kind, context + ": " + row);
          folded.put(key, data);
        }
        assertTrue(ViewResults.sameRows(new ArrayList<>(folded.values()), expected),
            context + ": the UPDATE rows fold to " + folded.values() + ", not " + expected);
      }
      rs.close();
    }
  }
}
