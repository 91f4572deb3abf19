package dev.freshet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import dev.freshet.engine.push.PushQuery;
import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.engine.query.ResultColumn;

/**
 * The trailing {@code _BATCH_ID} and {@code _ROW_KIND} columns of push results, batch markers, and
 * what a subscription keeps for a reader that does not keep up.
 *
 * <p>Each test ends a batch before the next INSERT ({@code processAllAvailable}), so that batch ids
 * are exact; a reader that "does not read" simply reads later.
 */
class PushResultTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  private final Engine engine = new Engine("push-result-test");
  private final Session session = engine.openSession();

  @BeforeEach void createStream() throws Exception {
    session.execute("CREATE STREAM clicks (user_id VARCHAR, amount DOUBLE)"
        + " WITH (connector = 'memory')");
  }

  @AfterEach void close() {
    engine.close();
  }

  private PushQuery push(String sql) throws SQLException {
    return ((StatementResult.Push) session.execute(sql)).query();
  }

  /** Inserts and waits until the query has run the batch that holds the rows. */
  private void batch(PushQuery push, String values) throws Exception {
    session.execute("INSERT INTO clicks VALUES " + values);
    assertTrue(push.query().processAllAvailable(WAIT), "the batch did not end within 30 s");
  }

  private static List<List<Object>> next(PushQuery push, int n) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Object[] row = push.next(WAIT);
      assertNotNull(row, "row " + i + " did not arrive within 30 s");
      rows.add(Arrays.asList(row));
    }
    return rows;
  }

  private static Set<List<Object>> set(List<List<Object>> rows) {
    return new HashSet<>(rows);
  }

  @Test void shouldTellANewKeyFromANewValueByTheStateInUpdateMode() throws Exception {
    StatementResult.Push result = (StatementResult.Push) session.execute("SELECT STREAM user_id,"
        + " SUM(amount) AS total FROM clicks GROUP BY user_id EMIT UPDATE");
    assertEquals(List.of("USER_ID", "TOTAL", "_BATCH_ID", "_ROW_KIND"),
        result.columns().stream().map(ResultColumn::name).toList());
    assertEquals(false, result.columns().get(3).nullable());
    PushQuery push = result.query();
    batch(push, "('a', 1), ('b', 2)");
    assertEquals(Set.of(List.of("a", 1.0, 0L, "INSERT"), List.of("b", 2.0, 0L, "INSERT")),
        set(next(push, 2)));
    batch(push, "('a', 3), ('c', 4)");
    assertEquals(Set.of(List.of("a", 4.0, 1L, "UPDATE"), List.of("c", 4.0, 1L, "INSERT")),
        set(next(push, 2)));
  }

  @Test void shouldDeleteAGroupThatHavingDropsInCompleteMode() throws Exception {
    PushQuery push = push("SELECT STREAM user_id, SUM(amount) AS total FROM clicks"
        + " GROUP BY user_id HAVING SUM(amount) < 10 EMIT COMPLETE");
    batch(push, "('a', 1), ('b', 2)");
    assertEquals(Set.of(List.of("a", 1.0, 0L, "INSERT"), List.of("b", 2.0, 0L, "INSERT")),
        set(next(push, 2)));
    batch(push, "('a', 20)");
    // Deletes come first and carry the last values the reader had.
    assertEquals(List.of(List.of("a", 1.0, 1L, "DELETE"), List.of("b", 2.0, 1L, "UPDATE")),
        next(push, 2));
  }

  @Test void shouldDeleteAGroupThatLimitPushesOutInCompleteMode() throws Exception {
    PushQuery push = push("SELECT STREAM user_id, COUNT(*) AS n FROM clicks"
        + " GROUP BY user_id ORDER BY n DESC LIMIT 1 EMIT COMPLETE");
    batch(push, "('a', 1)");
    assertEquals(List.of(List.of("a", 1L, 0L, "INSERT")), next(push, 1));
    batch(push, "('b', 1), ('b', 1)");
    assertEquals(List.of(List.of("a", 1L, 1L, "DELETE"), List.of("b", 2L, 1L, "INSERT")),
        next(push, 2));
  }

  @Test void shouldInsertEveryRowOfAnAppendResult() throws Exception {
    PushQuery push = push("SELECT STREAM user_id, amount FROM clicks");
    batch(push, "('a', 1)");
    batch(push, "('a', 2)");
    assertEquals(List.of(List.of("a", 1.0, 0L, "INSERT"), List.of("a", 2.0, 1L, "INSERT")),
        next(push, 2));
  }

  @Test void shouldEndEachBatchWithAMarkerAlsoWhenItChangedNothing() throws Exception {
    session.execute("SET 'push.batch.markers' = 'true'");
    StatementResult.Push result = (StatementResult.Push) session.execute(
        "SELECT STREAM user_id FROM clicks WHERE amount > 100");
    PushQuery push = result.query();
    batch(push, "('a', 1)");
    // The WHERE drops every row of batch 0; the marker still says it ended.
    assertEquals(List.of(Arrays.asList(null, 0L, "BATCH_END")), next(push, 1));
    batch(push, "('b', 200)");
    assertEquals(List.of(List.of("b", 1L, "INSERT"), Arrays.asList(null, 1L, "BATCH_END")),
        next(push, 2));
    assertNull(push.next(Duration.ZERO));
  }

  @Test void shouldMarkAnAggregationsBatchThatTouchedNoGroup() throws Exception {
    session.execute("SET 'push.batch.markers' = 'true'");
    StatementResult.Push result = (StatementResult.Push) session.execute("SELECT STREAM user_id,"
        + " COUNT(*) AS n FROM clicks WHERE amount > 0 GROUP BY user_id");
    // With markers on, a data column may be NULL although COUNT(*) never is.
    assertEquals(true, result.columns().get(1).nullable());
    PushQuery push = result.query();
    batch(push, "('a', 1)");
    assertEquals(List.of(List.of("a", 1L, 0L, "INSERT"), Arrays.asList(null, null, 0L,
        "BATCH_END")), next(push, 2));
    batch(push, "('a', -1)");
    assertEquals(List.of(Arrays.asList(null, null, 1L, "BATCH_END")), next(push, 1));
  }

  @Test void shouldKeepTheLatestUnreadRowPerKeyInUpdateMode() throws Exception {
    session.execute("SET 'push.batch.markers' = 'true'");
    PushQuery push = push("SELECT STREAM user_id, COUNT(*) AS n FROM clicks GROUP BY user_id");
    batch(push, "('c', 1), ('a', 1), ('b', 1)");
    for (int i = 1; i < 20; i++) {
      batch(push, "('a', 1), ('b', 1)");
      // Keys a, b, c and one marker, however many batches the reader missed.
      assertEquals(4, push.bufferedRows());
    }
    assertEquals(4, push.maxBufferedRows());
    // c is still as batch 0 left it; a and b were new keys to the reader, so still INSERT.
    assertEquals(List.of("c", 1L, 0L, "INSERT"), next(push, 1).get(0));
    assertEquals(Set.of(List.of("a", 20L, 19L, "INSERT"), List.of("b", 20L, 19L, "INSERT")),
        set(next(push, 2)));
    assertEquals(List.of(Arrays.asList(null, null, 19L, "BATCH_END")), next(push, 1));
    assertEquals(0, push.bufferedRows());
    batch(push, "('a', 1)");
    assertEquals(List.of(List.of("a", 21L, 20L, "UPDATE"), Arrays.asList(null, null, 20L,
        "BATCH_END")), next(push, 2));
  }

  @Test void shouldKeepOnlyTheLatestUnreadTableInCompleteMode() throws Exception {
    PushQuery push = push("SELECT STREAM user_id, COUNT(*) AS n FROM clicks"
        + " GROUP BY user_id EMIT COMPLETE");
    batch(push, "('a', 1)");
    assertEquals(List.of(List.of("a", 1L, 0L, "INSERT")), next(push, 1));
    for (int i = 1; i <= 10; i++) {
      batch(push, "('a', 1), ('b', 1)");
      assertEquals(2, push.bufferedRows());
    }
    // Compared with the table the reader last read (batch 0's), not with batch 9's.
    assertEquals(Set.of(List.of("a", 11L, 10L, "UPDATE"), List.of("b", 10L, 10L, "INSERT")),
        set(next(push, 2)));
    assertNull(push.next(Duration.ZERO));
  }

  @Test void shouldFailAnAppendReaderThatFallsFurtherBehindThanTheBuffer() throws Exception {
    session.execute("SET 'push.buffer.rows' = '3'");
    PushQuery push = push("SELECT STREAM user_id FROM clicks");
    batch(push, "('a', 1), ('b', 1)");
    assertEquals(2, push.bufferedRows());
    session.execute("INSERT INTO clicks VALUES ('c', 1), ('d', 1)");
    // The overflow stops the query; only then does the reader come, and finds the error first.
    assertTrue(((ContinuousQuery) push.query()).awaitTermination(WAIT));
    SQLException e = assertThrows(SQLException.class, () -> push.next(WAIT));
    assertEquals("53000", e.getSQLState());
    assertEquals("Push query " + push.query().name() + " stopped: its reader fell more than 3"
        + " rows behind (batch 1), which is what option 'push.buffer.rows' allows for a result"
        + " whose rows never change. Read faster, raise it with SET 'push.buffer.rows' = '...',"
        + " or aggregate with EMIT UPDATE, whose unread rows are coalesced per key",
        e.getMessage());
    assertEquals(0, push.bufferedRows());
    assertEquals(2, push.maxBufferedRows());
    assertTrue(engine.continuousQueries().isEmpty(), "the failed query is unregistered");
    assertThrows(SQLException.class, () -> push.next(Duration.ZERO), "the error stays");
  }

  @Test void shouldRefuseAPushQueryBeyondTheEnginesLimit() throws Exception {
    engine.setMaxPushQueries(2);
    PushQuery first = push("SELECT STREAM user_id FROM clicks");
    push("SELECT STREAM user_id FROM clicks");
    SQLException e = assertThrows(SQLException.class,
        () -> push("SELECT STREAM user_id FROM clicks"));
    assertEquals("53400", e.getSQLState());
    assertEquals("Engine push-result-test already runs 2 push queries, its limit: close result"
        + " sets or statements you no longer read, or raise the limit (the server's"
        + " --max-push-queries, Engine.setMaxPushQueries)", e.getMessage());
    first.close();
    assertNotNull(push("SELECT STREAM user_id FROM clicks"));
  }

  @Test void shouldEndAQueryAtItsTimeout() throws Exception {
    PushQuery push = push("SELECT STREAM user_id FROM clicks");
    batch(push, "('a', 1)");
    push.expireAfter(Duration.ofMillis(100));
    SQLException e = assertThrows(SQLException.class, () -> {
      while (true) {
        push.next(WAIT);
      }
    });
    assertEquals("HYT00", e.getSQLState());
    assertEquals("Push query " + push.query().name() + " ran for its query timeout of 100 ms and"
        + " was stopped. Raise Statement.setQueryTimeout, or set it to 0 for no timeout",
        e.getMessage());
    assertTrue(((ContinuousQuery) push.query()).awaitTermination(WAIT));
  }
}
