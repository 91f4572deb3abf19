package dev.freshet.pgwire.live;

import static dev.freshet.pgwire.live.LiveTesting.DEADLINE;
import static dev.freshet.pgwire.live.LiveTesting.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Cursors over a live result, as Materialize's SUBSCRIBE cursors behave, read by pgjdbc on the
 * simple protocol: {@code FETCH} returns the rows that have arrived, waiting for a first one
 * (without a timeout, until one comes; {@code WITH (timeout = ...)} at most that long; '0s'
 * takes what is there); cursors close with their transaction unless {@code WITH HOLD}.
 */
class LiveCursorTest {
  private LiveServer live;
  private Statement insert;
  private Connection reader;
  private Statement s;

  @BeforeEach void start() throws Exception {
    live = LiveServer.start("pgwire-live-cursor-test",
        "CREATE STREAM clicks (k VARCHAR, n INTEGER)");
    insert = live.statement;
    reader = live.connect("preferQueryMode", "simple");
    s = reader.createStatement();
  }

  @AfterEach void stop() throws Exception {
    reader.close();
    live.close();
  }

  private List<String> fetch(String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(sql)) {
      assertEquals("freshet_row_kind", rs.getMetaData().getColumnLabel(3));
      assertEquals("freshet_version", rs.getMetaData().getColumnLabel(4));
      while (rs.next()) {
        rows.add(rs.getString(1) + "," + rs.getString(2) + "," + rs.getString(3));
      }
    }
    return rows;
  }

  @Test void shouldFetchWhatHasArrivedAndCloseWhenTheTransactionEnds() throws Exception {
    reader.setAutoCommit(false);
    s.execute("DECLARE c CURSOR FOR SELECT STREAM k, n FROM clicks");
    await("the push query runs", () -> live.pushQueries() == 1);
    assertEquals(List.of(), fetch("FETCH ALL c WITH (timeout = '0s')"));
    insert.executeUpdate("INSERT INTO clicks VALUES ('a', 1), ('b', 2), ('c', 3)");
    // Without a timeout, FETCH waits for a first row, then returns what has arrived.
    assertEquals(List.of("a,1,INSERT", "b,2,INSERT", "c,3,INSERT"), fetch("FETCH ALL c"));
    insert.executeUpdate("INSERT INTO clicks VALUES ('d', 4), ('e', 5), ('f', 6)");
    assertEquals(List.of("d,4,INSERT", "e,5,INSERT"), fetch("FETCH 2 FROM c"));
    assertEquals(List.of("f,6,INSERT"), fetch("FETCH NEXT IN c WITH (timeout = '0s')"));

    long started = System.nanoTime();
    assertEquals(List.of(), fetch("FETCH ALL c WITH (timeout = '1 s')"));
    long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    assertTrue(waitedMs >= 900 && waitedMs < DEADLINE.toMillis(), waitedMs + " ms");

    // In a failed transaction block, FETCH is refused as any statement.
    assertThrows(SQLException.class, () -> s.execute("SELECT * FROM missing"));
    SQLException aborted = assertThrows(SQLException.class, () -> fetch("FETCH ALL c"));
    assertEquals("25P02", aborted.getSQLState());
    reader.rollback();
    await("the cursor's push query stops", () -> live.pushQueries() == 0);
    SQLException gone = assertThrows(SQLException.class, () -> fetch("FETCH ALL c"));
    assertEquals("34000", gone.getSQLState());
  }

  @Test void shouldWaitForAFirstRowWithoutATimeout() throws Exception {
    reader.setAutoCommit(false);
    s.execute("DECLARE c CURSOR FOR SELECT STREAM k, n FROM clicks");
    await("the push query runs", () -> live.pushQueries() == 1);
    CompletableFuture<List<String>> fetched = CompletableFuture.supplyAsync(() -> {
      try {
        return fetch("FETCH 10 c");
      } catch (SQLException e) {
        throw new RuntimeException(e);
      }
    });
    // Its connection is busy with the FETCH: another statement would wait; none is sent.
    assertFalse(fetched.isDone());
    insert.executeUpdate("INSERT INTO clicks VALUES ('late', 7)");
    assertEquals(List.of("late,7,INSERT"),
        fetched.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS));
  }

  @Test void shouldKeepAHoldCursorAfterCommitAndCloseAll() throws Exception {
    SQLException outside = assertThrows(SQLException.class,
        () -> s.execute("DECLARE c CURSOR FOR SELECT STREAM k, n FROM clicks"));
    assertEquals("25P01", outside.getSQLState());
    s.execute("DECLARE h CURSOR WITH HOLD FOR SELECT STREAM k, n FROM clicks");
    s.execute("DECLARE g CURSOR WITH HOLD FOR SELECT STREAM k, n FROM clicks");
    await("both push queries run", () -> live.pushQueries() == 2);
    insert.executeUpdate("INSERT INTO clicks VALUES ('a', 1)");
    assertEquals(List.of("a,1,INSERT"), fetch("FETCH ALL h"));
    s.execute("CLOSE h");
    await("h's push query stops", () -> live.pushQueries() == 1);
    SQLException closed = assertThrows(SQLException.class, () -> s.execute("CLOSE h"));
    assertEquals("34000", closed.getSQLState());
    s.execute("CLOSE ALL");
    await("g's push query stops", () -> live.pushQueries() == 0);
  }

  /** pgjdbc's default, the extended protocol: Describe of a FETCH portal gives the cursor's columns. */
  @Test void shouldFetchOverTheExtendedProtocol() throws Exception {
    try (Connection extended = live.connect(); Statement e = extended.createStatement()) {
      extended.setAutoCommit(false);
      e.execute("DECLARE c CURSOR FOR SELECT STREAM k, n FROM clicks");
      await("the push query runs", () -> live.pushQueries() == 1);
      insert.executeUpdate("INSERT INTO clicks VALUES ('a', 1), ('b', 2)");
      List<String> rows = new ArrayList<>();
      try (java.sql.PreparedStatement p = extended.prepareStatement("FETCH ALL c");
          ResultSet rs = p.executeQuery()) {
        assertEquals("freshet_version", rs.getMetaData().getColumnLabel(4));
        while (rs.next()) {
          rows.add(rs.getString(1) + "," + rs.getInt(2) + "," + rs.getString(3));
        }
      }
      assertEquals(List.of("a,1,INSERT", "b,2,INSERT"), rows);
      try (ResultSet rs = e.executeQuery("FETCH 5 c WITH (timeout = '0s')")) {
        assertFalse(rs.next());
      }
      e.execute("CLOSE c");
      await("the push query stops", () -> live.pushQueries() == 0);
      extended.commit();
    }
  }

  @Test void shouldCancelAWaitingFetch() throws Exception {
    s.execute("DECLARE c CURSOR WITH HOLD FOR SELECT STREAM k, n FROM clicks");
    CompletableFuture<SQLException> failed = CompletableFuture.supplyAsync(() -> {
      try {
        fetch("FETCH ALL c");
        return null;
      } catch (SQLException e) {
        return e;
      }
    });
    Statement waiting = s;
    await("the FETCH waits", () -> !failed.isDone());
    // Cancel can race the FETCH's start: cancel until it is cancelled.
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (!failed.isDone() && System.nanoTime() < deadline) {
      waiting.cancel();
      try {
        failed.get(100, TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.TimeoutException e) {
        // Not yet.
      }
    }
    assertEquals("57014", failed.get().getSQLState());
    await("the cancelled cursor's push query stops", () -> live.pushQueries() == 0);
  }
}
