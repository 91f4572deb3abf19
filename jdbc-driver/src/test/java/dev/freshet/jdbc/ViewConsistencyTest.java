package dev.freshet.jdbc;

import static dev.freshet.jdbc.ViewResults.awaitRows;
import static dev.freshet.jdbc.ViewResults.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A reader of a view sees the results of whole batches, never part of one. */
class ViewConsistencyTest {
  private static final int ROWS_PER_STATEMENT = 120;
  /** Keys of each statement's rows; every statement gives each key the same number of rows. */
  private static final String[] KEYS = {"a", "b", "c", "d", "e", "f"};
  /**
   * The writer goes on until the reader has seen a batch this often while it wrote: reads of
   * compiled queries are fast enough to happen before the first batch commits.
   */
  private static final int READS_WHILE_WRITING = 5;
  /** Bounds the writer on a machine where reads are very slow. */
  private static final int MAX_STATEMENTS = 20_000;

  @Test void shouldSeeOnlyWholeBatchesWhileInsertsRunConcurrently() throws Exception {
    String url = "jdbc:freshet:engine=" + UUID.randomUUID();
    StringBuilder values = new StringBuilder();
    for (int i = 0; i < ROWS_PER_STATEMENT; i++) {
      values.append(i == 0 ? "" : ", ").append("('").append(KEYS[i % KEYS.length]).append("')");
    }
    String[] views = {"per_key", "per_key_complete"};
    ExecutorService writerThread = Executors.newSingleThreadExecutor();
    try (Connection writer = DriverManager.getConnection(url);
         Connection reader = DriverManager.getConnection(url)) {
      Statement ddl = writer.createStatement();
      ddl.execute("CREATE STREAM s (k VARCHAR) WITH (connector = 'memory')");
      ddl.execute("CREATE MATERIALIZED VIEW per_key AS SELECT k, COUNT(*) AS n FROM s"
          + " GROUP BY k EMIT UPDATE");
      ddl.execute("CREATE MATERIALIZED VIEW per_key_complete AS SELECT k, COUNT(*) AS n FROM s"
          + " GROUP BY k EMIT COMPLETE");
      Statement select = reader.createStatement();
      for (String view : views) {
        // Compiles the reader's query once, before the race starts.
        checkWholeBatches(select, view);
      }

      AtomicInteger reads = new AtomicInteger();
      Future<Integer> inserts = writerThread.submit(() -> {
        try (Statement insert = writer.createStatement()) {
          int statements = 0;
          while (reads.get() < READS_WHILE_WRITING && statements < MAX_STATEMENTS) {
            insert.executeUpdate("INSERT INTO s VALUES " + values);
            statements++;
          }
          return statements;
        }
      });
      int partial = 0;
      while (!inserts.isDone()) {
        boolean sawBatch = false;
        for (String view : views) {
          long sum = checkWholeBatches(select, view);
          partial += sum > 0 ? 1 : 0;
          sawBatch |= sum > 0;
        }
        if (sawBatch) {
          reads.incrementAndGet();
        }
      }
      long total = (long) inserts.get() * ROWS_PER_STATEMENT;

      assertTrue(reads.get() >= READS_WHILE_WRITING,
          "the writer stopped after " + MAX_STATEMENTS + " statements");
      assertTrue(partial > 0, "no read saw a batch while the writer wrote");
      for (String view : views) {
        awaitRows(select, "SELECT SUM(n) FROM " + view, List.of(row(total)));
      }
    } finally {
      writerThread.shutdownNow();
    }
  }

  /**
   * Reads the view once and checks that it holds whole statements only: one batch may take
   * several statements, but never part of one, so every key has the same count and the total is
   * a whole number of statements. Returns the total.
   */
  private static long checkWholeBatches(Statement select, String view) throws Exception {
    try (ResultSet rs = select.executeQuery("SELECT SUM(n), MIN(n), MAX(n), COUNT(*)"
        + " FROM " + view)) {
      assertTrue(rs.next());
      long sum = rs.getLong(1);
      assertEquals(0, sum % ROWS_PER_STATEMENT, view + " showed part of a batch: " + sum);
      if (sum > 0) {
        assertEquals(rs.getLong(2), rs.getLong(3), view + " showed part of a batch");
        assertEquals(KEYS.length, rs.getLong(4), view + " showed part of a batch");
      }
      return sum;
    }
  }
}
