package dev.freshet.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.freshet.engine.query.StatementResult;

/**
 * Streams of an engine with a data directory keep their rows across engines: {@code CREATE
 * STREAM} finds them again, with the same columns only, and {@code DROP STREAM} deletes them.
 */
class DurableStreamTest {
  private static final String CREATE = "CREATE STREAM IF NOT EXISTS clicks (user_id VARCHAR,"
      + " amount DECIMAL(10, 2), ts TIMESTAMP(3) NOT NULL) WITH (connector = 'memory')";

  @TempDir Path dataDir;
  private final List<Engine> engines = new ArrayList<>();

  @AfterEach void close() {
    engines.forEach(Engine::close);
  }

  private Session open() {
    Engine engine = new Engine("durable", Optional.of(dataDir));
    engines.add(engine);
    return engine.openSession();
  }

  private static List<List<Object>> rows(Session session, String sql) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    for (Object[] row : ((StatementResult.Rows) session.execute(sql)).rows()) {
      rows.add(Arrays.asList(row));
    }
    return rows;
  }

  private static SQLException fails(Session session, String sql) {
    return assertThrows(SQLException.class, () -> session.execute(sql));
  }

  @Test void shouldFindTheRowsOfTheLastRunWhenTheStreamIsDeclaredAgain() throws Exception {
    Session first = open();
    first.execute(CREATE);
    first.execute("INSERT INTO clicks VALUES ('a', 1.5, TIMESTAMP '2026-01-01 00:00:01'),"
        + " ('b', NULL, TIMESTAMP '2026-01-01 00:00:02')");
    first.execute("INSERT INTO clicks VALUES ('a', 2.25, TIMESTAMP '2026-01-01 00:00:03')");
    first.engine().close();

    Session second = open();
    second.execute(CREATE);
    assertEquals(List.of(List.of("a", new BigDecimal("1.50"), 1767225601000L),
        Arrays.asList("b", null, 1767225602000L),
        List.of("a", new BigDecimal("2.25"), 1767225603000L)),
        rows(second, "SELECT * FROM clicks"));
    // A push query starts from the beginning of the stream: offsets 1 and 2 of the last run.
    StatementResult.Push push = (StatementResult.Push) second.execute(
        "SELECT STREAM user_id, COUNT(*) AS n FROM clicks GROUP BY user_id");
    List<List<Object>> counts = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      Object[] row = push.query().next(Duration.ofSeconds(30));
      assertNotNull(row, "row " + i + " did not arrive within 30 s");
      counts.add(Arrays.asList(row));
    }
    // Both rows were there when the query started: one batch, 0, in which both groups are new.
    assertTrue(counts.containsAll(List.of(List.of("a", 2L, 0L, "INSERT"),
        List.of("b", 1L, 0L, "INSERT"))), counts::toString);
    second.execute("INSERT INTO clicks VALUES ('c', 3, TIMESTAMP '2026-01-01 00:00:04')");
    second.engine().close();

    // Not declared again: the catalog declares it when the engine starts.
    Session third = open();
    assertEquals(List.of(List.of(4L)), rows(third, "SELECT COUNT(*) FROM clicks"));
    assertEquals("42S01", fails(third, CREATE.replace(" IF NOT EXISTS", "")).getSQLState());
  }

  @Test void shouldRefuseToReopenTheRowsWithOtherColumns() throws Exception {
    Session first = open();
    first.execute(CREATE);
    first.execute("INSERT INTO clicks VALUES ('a', 1, TIMESTAMP '2026-01-01 00:00:01')");
    first.engine().close();
    // The rows outlive the catalog: say it was lost, or written by an engine that kept none.
    Files.delete(dataDir.resolve("catalog.mv.db"));

    Session second = open();
    SQLException e = fails(second, "CREATE STREAM IF NOT EXISTS clicks (user_id VARCHAR,"
        + " amount DOUBLE, ts TIMESTAMP(3) NOT NULL)");
    assertEquals("42S01", e.getSQLState());
    Path directory = dataDir.resolve("streams").resolve("CLICKS");
    assertEquals("Stream 'CLICKS' has rows in " + directory + " with columns (USER_ID VARCHAR,"
        + " AMOUNT DECIMAL(10, 2), TS TIMESTAMP(3) NOT NULL), but is declared with columns"
        + " (USER_ID VARCHAR, AMOUNT DOUBLE, TS TIMESTAMP(3) NOT NULL). Declare the columns of"
        + " the stored rows to reopen them, or move " + directory + " away to start the stream"
        + " empty", e.getMessage());
    assertEquals("42S02", fails(second, "SELECT * FROM clicks").getSQLState(),
        "no stream was created");
    second.execute(CREATE);
    assertEquals(List.of(List.of(1L)), rows(second, "SELECT COUNT(*) FROM clicks"));
  }

  @Test void shouldReportADamagedLogWithTheFileAndTheOffset() throws Exception {
    Session first = open();
    first.execute(CREATE);
    for (int i = 1; i <= 3; i++) {
      first.execute("INSERT INTO clicks VALUES ('a', " + i + ", TIMESTAMP '2026-01-01 00:00:01')");
    }
    first.engine().close();
    Path log = dataDir.resolve("streams").resolve("CLICKS").resolve("segment-00000000000000000001.log");
    byte[] bytes = Files.readAllBytes(log);
    // After "v1\n": the first record's payload length, then 8 more header bytes and the payload.
    int recordLength = 12 + java.nio.ByteBuffer.wrap(bytes, 3, 4).getInt();
    // A byte of the second record's payload: its checksum fails, and a record follows it.
    bytes[3 + recordLength + 20] ^= 0x10;
    Files.write(log, bytes);

    Session second = open();
    SQLException e = fails(second, CREATE);
    assertEquals("XX001", e.getSQLState());
    assertTrue(e.getMessage().startsWith("Stream log " + log + " is corrupt at offset 2 (byte "
        + (3 + recordLength) + "): the checksum of the record does not match"), e.getMessage());
    assertArrayEquals(bytes, Files.readAllBytes(log), "nothing was discarded");
  }

  @Test void shouldDeleteTheRowsWhenTheStreamIsDropped() throws Exception {
    Session session = open();
    session.execute(CREATE);
    session.execute("INSERT INTO clicks VALUES ('a', 1, TIMESTAMP '2026-01-01 00:00:01')");
    Path directory = dataDir.resolve("streams").resolve("CLICKS");
    assertTrue(Files.exists(directory.resolve("segment-00000000000000000001.log")));
    assertTrue(Files.exists(directory.resolve("metadata")));

    session.execute("DROP STREAM clicks");
    assertFalse(Files.exists(directory));
    session.execute(CREATE);
    assertEquals(List.of(List.of(0L)), rows(session, "SELECT COUNT(*) FROM clicks"));
    session.engine().close();
    assertEquals(List.of(List.of(0L)), rows(reopened(), "SELECT COUNT(*) FROM clicks"));
  }

  private Session reopened() throws SQLException {
    Session session = open();
    session.execute(CREATE);
    return session;
  }

  @Test void shouldKeepTheRowsOfEachStreamInItsOwnDirectory() throws Exception {
    Session session = open();
    session.execute("CREATE STREAM \"odd/name\" (x INTEGER)");
    session.execute("CREATE STREAM \"ODD/NAME\" (x INTEGER)");
    session.execute("INSERT INTO \"odd/name\" VALUES (1)");
    session.execute("INSERT INTO \"ODD/NAME\" VALUES (2), (3)");
    assertTrue(Files.exists(dataDir.resolve("streams").resolve("%6F%64%64%2F%6E%61%6D%65")));
    assertTrue(Files.exists(dataDir.resolve("streams").resolve("ODD%2FNAME")));
    session.engine().close();

    Session second = open();
    // Read from the sources: the planner resolves names regardless of case.
    assertEquals(List.of(List.of(1)), stored(second, "odd/name"));
    assertEquals(List.of(List.of(2), List.of(3)), stored(second, "ODD/NAME"));
  }

  private static List<List<Object>> stored(Session session, String stream) {
    var source = session.engine().catalog().stream(stream).orElseThrow().source();
    List<List<Object>> rows = new ArrayList<>();
    source.readRange(0, source.latestOffset(), row -> rows.add(Arrays.asList(row)));
    return rows;
  }

  @Test void shouldKeepAValueOfEveryStorableType() throws Exception {
    String create = "CREATE STREAM IF NOT EXISTS typed (b BOOLEAN, t TINYINT, s SMALLINT,"
        + " i INTEGER, l BIGINT, d DECIMAL(7, 3), f FLOAT, r REAL, x DOUBLE, c CHAR(3),"
        + " v VARCHAR(10), dt DATE, tm TIME, ts TIMESTAMP)";
    Session first = open();
    first.execute(create);
    first.execute("INSERT INTO typed VALUES (TRUE, 1, 2, 3, 4, 5.125, 6.5, 7.25, 8.75, 'ab',"
        + " 'xyz', DATE '2026-11-29', TIME '10:11:12', TIMESTAMP '2026-11-29 10:11:12')");
    first.execute("INSERT INTO typed (b) VALUES (NULL)");
    List<List<Object>> before = rows(first, "SELECT * FROM typed");
    first.engine().close();

    Session second = open();
    second.execute(create);
    List<List<Object>> after = rows(second, "SELECT * FROM typed");
    assertEquals(before, after);
    assertEquals(14, after.get(0).size());
    assertTrue(after.get(0).stream().allMatch(v -> v != null), after::toString);
  }

  @Test void shouldRefuseATypeThatCannotBeStored() throws Exception {
    Session session = open();
    SQLException e = fails(session, "CREATE STREAM blobs (id INTEGER, b VARBINARY(10))");
    assertEquals("0A000", e.getSQLState());
    assertEquals("Column B of stream BLOBS is VARBINARY(10), which a stream in a data directory"
        + " cannot store yet. Use a character, numeric, boolean, date, time or timestamp type",
        e.getMessage());
    assertFalse(Files.exists(dataDir.resolve("streams").resolve("BLOBS")));
    try (Engine memory = new Engine("memory")) {
      memory.openSession().execute("CREATE STREAM blobs (id INTEGER, b VARBINARY(10))");
    }
  }

  @Test void shouldRefuseASecondEngineOnTheSameDataDirectory() {
    open();
    UncheckedIOException e = assertThrows(UncheckedIOException.class, this::open);
    assertEquals("Data directory " + dataDir + " is in use by another Freshet engine, which"
        + " holds " + dataDir.resolve("lock") + ". Stop that engine, or use another data"
        + " directory", e.getMessage());
    engines.get(0).close();
    open();
  }

  @Test void shouldFailAnInsertIntoADroppedStreamWithoutWritingIt() throws Exception {
    Session session = open();
    session.execute(CREATE);
    Engine engine = session.engine();
    var stream = engine.catalog().stream("CLICKS").orElseThrow();
    session.execute("DROP STREAM clicks");
    var e = assertThrows(dev.freshet.executor.source.StreamLogException.class,
        () -> stream.memoryStream().orElseThrow()
            .addData(List.<Object[]>of(new Object[] {"a", null, 1L})));
    assertEquals("58030", dev.freshet.engine.errors.StreamErrors.streamLogError(e).getSQLState());
    assertFalse(Files.exists(dataDir.resolve("streams").resolve("CLICKS")));
  }
}
