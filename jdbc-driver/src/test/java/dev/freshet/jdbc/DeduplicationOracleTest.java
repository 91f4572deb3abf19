package dev.freshet.jdbc;

import dev.freshet.testkit.oracle.H2Oracle;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Differential test of deduplication: random rows in random batches go to a Freshet stream and
 * to H2; after every batch a view keeping {@code ROW_NUMBER() ... = 1} must equal H2 running the
 * same SQL as a batch query over every row so far. A key's first row on a stream is the least
 * {@code ORDER BY} value of the first batch that has the key, so the rows make that the least
 * overall: {@code seq} counts rows in arrival order, and {@code v} is unique and grows from
 * batch to batch (in random order within one), which also makes H2's row numbers deterministic.
 */
class DeduplicationOracleTest {
  private Connection freshet;
  private H2Oracle h2;
  private Statement fs;

  @BeforeEach void connect() throws Exception {
    freshet = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID()
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

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "SELECT k, g, v, seq FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k, g ORDER BY seq)"
          + " AS rn FROM s) WHERE rn = 1",
      "SELECT * FROM (SELECT k, v, g, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v) AS rn"
          + " FROM s) WHERE rn <= 1 AND g <> 2",
      "SELECT k, g FROM (SELECT k, g, ROW_NUMBER() OVER (PARTITION BY g, k ORDER BY v) AS rn"
          + " FROM s) WHERE rn < 2"})
  void shouldMatchH2AfterEveryBatch(String select) throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    fs.execute("CREATE MATERIALIZED VIEW d AS " + select);
    long seq = 0;
    for (int batch = 0; batch < 30; batch++) {
      int n = 1 + random.nextInt(8);
      // A few keys per batch, from many: new keys keep coming, and collide within the batch.
      int[] keys = {random.nextInt(40), random.nextInt(40), random.nextInt(40)};
      List<Integer> values = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        values.add(batch * 100 + i);
      }
      Collections.shuffle(values, random);
      StringBuilder rows = new StringBuilder();
      for (int i = 0; i < n; i++) {
        rows.append(i == 0 ? "" : ", ").append("(")
            .append(random.nextInt(10) == 0 ? "NULL" : "'k" + keys[random.nextInt(3)] + "'")
            .append(", ").append(random.nextInt(3)).append(", ").append(values.get(i))
            .append(", ").append(seq++).append(")");
      }
      fs.executeUpdate("INSERT INTO s VALUES " + rows);
      h2.execute("INSERT INTO s VALUES " + rows);
      List<List<Object>> expected = ViewResults.normalized(h2.query(select));
      try {
        ViewResults.awaitNormalized(fs, "SELECT * FROM d", expected);
      } catch (AssertionError e) {
        throw new AssertionError("seed " + seed + ", batch " + batch + ": " + e.getMessage(), e);
      }
    }
  }
}
