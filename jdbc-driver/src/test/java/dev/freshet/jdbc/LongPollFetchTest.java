package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.Engine;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
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
    meta.openConnection(connection, Map.of());
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
    meta.prepareAndExecute(h, sql, maxRowCount, -1, new Meta.PrepareCallback() {
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
    });
    return h;
  }
}
