package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.Engine;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.MissingResultsException;
import org.apache.calcite.avatica.Meta.ConnectionHandle;
import org.apache.calcite.avatica.Meta.Frame;
import org.apache.calcite.avatica.Meta.StatementHandle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The server side of a push query: {@link FreshetMeta#fetch} as a remote client calls it, with
 * the long-poll bound, the resent frame of a lost response, and the row limit.
 */
class LongPollFetchTest {
  private static final Duration BOUND = Duration.ofMillis(300);
  /** Generous: a row normally arrives within milliseconds, but CI machines are loaded. */
  private static final Duration DEADLINE = Duration.ofSeconds(30);

  private final Engine engine = new Engine("long-poll-" + UUID.randomUUID());
  private final FreshetMeta meta = new FreshetMeta(null, info -> engine, BOUND);
  private final ConnectionHandle connection = new ConnectionHandle(UUID.randomUUID().toString());

  @BeforeEach void createStream() throws Exception {
    // As Freshet's remote driver does; a client that does not say so gets PROGRESS rows.
    meta.openConnection(connection, Map.of(FreshetMeta.LONG_POLL, "true"));
    execute("CREATE STREAM clicks (user_id VARCHAR, amount DOUBLE)", -1);
  }

  @AfterEach void close() {
    meta.closeConnection(connection);
    engine.close();
  }

  @Test void shouldAnswerAnEmptyFrameThatIsNotFinalWhenNoRowComesWithinTheBound()
      throws Exception {
    StatementHandle push = execute("SELECT STREAM user_id, COUNT(*) AS n FROM clicks"
        + " GROUP BY user_id EMIT UPDATE", -1);
    long start = System.nanoTime();
    Frame frame = meta.fetch(push, 0, 100);
    Duration waited = Duration.ofNanos(System.nanoTime() - start);

    assertEquals(List.of(), list(frame));
    assertFalse(frame.done, "a push query's result goes on");
    assertEquals(0, frame.offset);
    assertTrue(waited.compareTo(BOUND) >= 0, "answered after " + waited + ", before the bound");
    assertTrue(waited.compareTo(DEADLINE) < 0, "answered after " + waited);

    // An empty frame is not kept: the same offset waits again and then gets the rows.
    execute("INSERT INTO clicks VALUES ('a', 1)", -1);
    assertEquals(Set.of(List.of("a", 1L, 0L, "INSERT")), rows(fetchUntil(push, 0, 1)));
  }

  /**
   * A client that does not say it long-polls (Avatica's stock driver) fetches until a row exists,
   * in executeQuery and in each next(): it never gets an empty frame, but a PROGRESS row, which
   * takes an offset like any row.
   */
  @Test void shouldAnswerAClientThatCannotLongPollWithProgressRowsInsteadOfEmptyFrames()
      throws Exception {
    ConnectionHandle stock = new ConnectionHandle(UUID.randomUUID().toString());
    meta.openConnection(stock, Map.of());
    try {
      StatementHandle h = meta.createStatement(stock);
      Meta.MetaResultSet result = prepareAndExecute(h, "SELECT STREAM user_id, COUNT(*) AS n"
          + " FROM clicks GROUP BY user_id EMIT UPDATE", -1);
      // At once: no batch has run, so the last batch read is null.
      assertEquals(List.of(progress(null)), arrays(result.firstFrame));
      assertFalse(result.firstFrame.done);
      for (ColumnMetaData column : result.signature.columns) {
        assertEquals(DatabaseMetaData.columnNullable, column.nullable, column.columnName);
      }

      long start = System.nanoTime();
      Frame second = meta.fetch(h, 1, 100);
      Duration waited = Duration.ofNanos(System.nanoTime() - start);
      assertEquals(List.of(progress(null)), arrays(second));
      assertEquals(1, second.offset);
      assertFalse(second.done);
      assertTrue(waited.compareTo(BOUND) >= 0, "answered after " + waited + ", before the bound");
      // Its response was lost: the same frame again.
      assertSame(second, meta.fetch(h, 1, 100));

      execute("INSERT INTO clicks VALUES ('a', 1)", -1);
      long offset = 2;
      Frame frame = meta.fetch(h, offset, 100);
      // How many PROGRESS frames come before the batch ran depends on timing; they say null.
      while (arrays(frame).equals(List.of(progress(null)))) {
        frame = meta.fetch(h, ++offset, 100);
      }
      assertEquals(List.of(Arrays.asList("a", 1L, 0L, "INSERT")), arrays(frame));
      assertEquals(List.of(progress(0L)), arrays(meta.fetch(h, offset + 1, 100)));
    } finally {
      meta.closeConnection(stock);
    }
  }

  /** A PROGRESS row of a query with two columns of its own. */
  private static List<Object> progress(Long lastBatch) {
    return Arrays.asList(null, null, lastBatch, "PROGRESS");
  }

  /** The rows of a frame in order, each as a list that may hold nulls. */
  private static List<List<Object>> arrays(Frame frame) {
    List<List<Object>> rows = new ArrayList<>();
    for (Object row : frame.rows) {
      rows.add(Arrays.asList((Object[]) row));
    }
    return rows;
  }

  @Test void shouldSendTheLastFrameAgainWhenItsOffsetIsFetchedAgain() throws Exception {
    StatementHandle push = execute("SELECT STREAM user_id, COUNT(*) AS n FROM clicks"
        + " GROUP BY user_id EMIT UPDATE", -1);
    execute("INSERT INTO clicks VALUES ('a', 1), ('b', 2)", -1);
    Frame first = fetchUntil(push, 0, 1);
    int sent = list(first).size();

    // The response was lost: the client asks for the same offset and must get the same rows.
    assertSame(first, meta.fetch(push, 0, 100));

    execute("INSERT INTO clicks VALUES ('a', 3)", -1);
    List<Object> after = new ArrayList<>();
    long offset = sent;
    while (after.size() < 3 - sent) {
      Frame next = fetchUntil(push, offset, 1);
      after.addAll(list(next));
      offset += list(next).size();
    }
    Set<List<Object>> all = rows(first);
    all.addAll(rows(Frame.create(0, false, after)));
    // Batch 0's two rows reach the result together, so the first frame has both.
    assertEquals(Set.of(List.of("a", 1L, 0L, "INSERT"), List.of("b", 1L, 0L, "INSERT"),
        List.of("a", 2L, 1L, "UPDATE")), all);
  }

  @Test void shouldRefuseAnOffsetThatIsNeitherTheNextRowNorTheLastFrame() throws Exception {
    StatementHandle push = execute("SELECT STREAM user_id, COUNT(*) AS n FROM clicks"
        + " GROUP BY user_id EMIT UPDATE", -1);
    RuntimeException e = assertThrows(RuntimeException.class, () -> meta.fetch(push, 5, 100));
    SQLException cause = (SQLException) e.getCause();
    assertEquals("24000", cause.getSQLState());
    assertEquals("Cannot fetch the rows of a push query from offset 5: its rows continue at"
        + " offset 0. Fetch offsets in order, as a JDBC result set does", cause.getMessage());
  }

  @Test void shouldEndTheResultAndStopTheQueryAtTheRowLimit() throws Exception {
    execute("INSERT INTO clicks VALUES ('a', 1), ('b', 2), ('c', 3)", -1);
    StatementHandle push = execute("SELECT STREAM user_id, COUNT(*) AS n FROM clicks"
        + " GROUP BY user_id EMIT UPDATE", 2);
    List<Object> rows = new ArrayList<>();
    Frame frame = Frame.create(0, false, List.of());
    while (!frame.done) {
      frame = fetchUntil(push, rows.size(), 0);
      rows.addAll(list(frame));
    }
    assertEquals(2, rows.size());
    assertTrue(engine.queries().isEmpty(), "the query stopped: " + engine.queries());
  }

  @Test void shouldServeAPullQueryAsFramesOfTheRequestedSize() throws Exception {
    execute("INSERT INTO clicks VALUES ('a', 1), ('b', 2), ('c', 3)", -1);
    StatementHandle pull = execute("SELECT user_id FROM clicks", -1);
    Frame first = meta.fetch(pull, 0, 2);
    assertEquals(2, list(first).size());
    assertFalse(first.done);
    Frame second = meta.fetch(pull, 2, 2);
    assertEquals(1, list(second).size());
    assertTrue(second.done);
  }

  @Test void shouldCloseAPushResultThatNoClientFetchedForTheIdleTime() throws Exception {
    StatementHandle push = execute("SELECT STREAM user_id, COUNT(*) AS n FROM clicks"
        + " GROUP BY user_id EMIT UPDATE", -1);
    meta.fetch(push, 0, 100);
    assertEquals(0, meta.closeAbandonedPushResults(Duration.ofHours(1)));
    assertEquals(1, engine.queries().size());

    assertEquals(1, meta.closeAbandonedPushResults(Duration.ZERO));
    assertTrue(engine.queries().isEmpty(), "the query stopped: " + engine.queries());
    assertThrows(MissingResultsException.class, () -> meta.fetch(push, 0, 100));
  }

  /** Fetches until a frame has at least {@code min} rows or is final. */
  private Frame fetchUntil(StatementHandle h, long offset, int min) throws Exception {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (System.nanoTime() < deadline) {
      Frame frame = meta.fetch(h, offset, 100);
      if (list(frame).size() >= min || frame.done) {
        return frame;
      }
    }
    throw new AssertionError("no frame with " + min + " rows at offset " + offset + " within "
        + DEADLINE);
  }

  private static List<Object> list(Frame frame) {
    List<Object> rows = new ArrayList<>();
    frame.rows.forEach(rows::add);
    return rows;
  }

  private static Set<List<Object>> rows(Frame frame) {
    Set<List<Object>> rows = new HashSet<>();
    for (Object row : frame.rows) {
      rows.add(List.of((Object[]) row));
    }
    return rows;
  }

  private StatementHandle execute(String sql, long maxRowCount) throws Exception {
    StatementHandle h = meta.createStatement(connection);
    prepareAndExecute(h, sql, maxRowCount);
    return h;
  }

  private Meta.MetaResultSet prepareAndExecute(StatementHandle h, String sql, long maxRowCount)
      throws Exception {
    return meta.prepareAndExecute(h, sql, maxRowCount, -1, new Meta.PrepareCallback() {
      @Override public Object getMonitor() {
        return this;
      }

      @Override public void clear() {
      }

      @Override public void assign(Meta.Signature signature, Frame firstFrame,
          long updateCount) {
      }

      @Override public void execute() {
      }
    }).resultSets.get(0);
  }
}
