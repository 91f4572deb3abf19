package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.connectors.nexmark.NexmarkEventType;
import dev.freshet.connectors.nexmark.NexmarkSource;
import dev.freshet.connectors.nexmark.NexmarkSpec;
import dev.freshet.engine.Engine;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streams with {@code connector = 'nexmark'} end to end: views over generated bids, auctions and
 * people match H2 running the same GROUP BY over the same events (generated once more by the
 * generator, into H2 tables), and the DDL refuses columns and options a Nexmark stream cannot
 * have.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class NexmarkStreamTest {
  private static final long EVENTS = 60_000;
  private static final String BIDS = "CREATE STREAM bid (auction BIGINT, bidder BIGINT,"
      + " price BIGINT, channel VARCHAR, date_time TIMESTAMP(3),"
      + " WATERMARK FOR date_time AS date_time - INTERVAL '5' SECOND)"
      + " WITH (connector = 'nexmark', 'event.type' = 'bid', 'max-events' = '" + EVENTS + "',"
      + " 'rows.per.batch' = '20000')";

  private final String engineName = UUID.randomUUID().toString();
  private Connection connection;
  private Statement statement;

  @BeforeEach void connect() throws Exception {
    // UTC, so that TIMESTAMP values read back as the instants generated.
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + engineName
        + ";timeZone=UTC");
    statement = connection.createStatement();
  }

  @AfterEach void close() throws Exception {
    connection.close();
  }

  /** Rows of {@code sql}, timestamps as epoch milliseconds, the others as strings; sorted. */
  private static List<List<String>> rows(Statement statement, String sql) throws SQLException {
    List<List<String>> rows = new ArrayList<>();
    try (ResultSet rs = statement.executeQuery(sql)) {
      while (rs.next()) {
        List<String> row = new ArrayList<>();
        for (int c = 1; c <= rs.getMetaData().getColumnCount(); c++) {
          Object value = rs.getObject(c);
          row.add(value instanceof Timestamp t ? Long.toString(t.getTime())
              : String.valueOf(value));
        }
        rows.add(row);
      }
    }
    rows.sort(Comparator.comparing(Object::toString));
    return rows;
  }

  /**
   * An H2 database holding every event of {@code type} among the first {@link #EVENTS} events,
   * as the generator makes them, in table {@code type}; event times as epoch milliseconds.
   */
  private static Connection h2With(NexmarkEventType type) throws SQLException {
    Connection h2 = DriverManager.getConnection("jdbc:h2:mem:" + UUID.randomUUID());
    StringBuilder columns = new StringBuilder();
    StringBuilder marks = new StringBuilder();
    for (var column : type.columns()) {
      columns.append(columns.length() == 0 ? "" : ", ").append(column.sqlName()).append(
          column.type() == dev.freshet.connectors.nexmark.NexmarkColumn.Type.VARCHAR
              ? " VARCHAR" : " BIGINT");
      marks.append(marks.length() == 0 ? "?" : ", ?");
    }
    try (Statement s = h2.createStatement()) {
      s.execute("CREATE TABLE " + type.text() + " (" + columns + ")");
    }
    NexmarkSource source = new NexmarkSource(NexmarkSpec.of(type.text(), type)
        .withMaxEvents(EVENTS));
    try (PreparedStatement insert = h2.prepareStatement("INSERT INTO " + type.text()
        + " VALUES (" + marks + ")")) {
      source.readRange(0, source.latestOffset(), row -> {
        try {
          for (int i = 0; i < row.length; i++) {
            insert.setObject(i + 1, row[i]);
          }
          insert.addBatch();
        } catch (SQLException e) {
          throw new IllegalStateException(e);
        }
      });
      insert.executeBatch();
    }
    return h2;
  }

  @Test void shouldMatchH2WhenViewsGroupBidsByChannelWindowAndAuction() throws Exception {
    statement.execute(BIDS);
    // Nexmark q16's shape (per channel, COUNT FILTER, COUNT DISTINCT), q7's inner half (TUMBLE
    // MAX) and q5's (HOP count per auction).
    statement.execute("CREATE MATERIALIZED VIEW per_channel AS SELECT channel, COUNT(*) AS c,"
        + " COUNT(*) FILTER (WHERE price < 10000) AS cheap, COUNT(DISTINCT bidder) AS bidders,"
        + " SUM(price) AS total FROM bid GROUP BY channel EMIT UPDATE");
    statement.execute("CREATE MATERIALIZED VIEW max_price AS SELECT"
        + " TUMBLE_START(date_time, INTERVAL '1' SECOND) AS w, MAX(price) AS top, COUNT(*) AS c"
        + " FROM bid GROUP BY TUMBLE(date_time, INTERVAL '1' SECOND) EMIT UPDATE");
    statement.execute("CREATE MATERIALIZED VIEW hot AS SELECT auction,"
        + " HOP_START(date_time, INTERVAL '0.5' SECOND, INTERVAL '2' SECOND) AS w, COUNT(*) AS c"
        + " FROM bid GROUP BY auction,"
        + " HOP(date_time, INTERVAL '0.5' SECOND, INTERVAL '2' SECOND)"
        + " EMIT UPDATE");
    PushResults.awaitIdle(engineName, "views over nexmark bids");
    try (Connection h2 = h2With(NexmarkEventType.BID); Statement s = h2.createStatement()) {
      List<List<String>> channels = rows(s, "SELECT channel, COUNT(*), COUNT(*) FILTER (WHERE"
          + " price < 10000), COUNT(DISTINCT bidder), SUM(price) FROM bid GROUP BY channel");
      assertTrue(channels.size() > 1000, "hot and other channels: " + channels.size());
      assertEquals(channels, rows(statement, "SELECT channel, c, cheap, bidders, total"
          + " FROM per_channel"));
      // 60,000 events at 10,000 a second from 2026-01-01 (a whole second): 6 windows.
      List<List<String>> windows = rows(s, "SELECT date_time - MOD(date_time, 1000),"
          + " MAX(price), COUNT(*) FROM bid GROUP BY date_time - MOD(date_time, 1000)");
      assertEquals(6, windows.size());
      assertEquals(windows, rows(statement, "SELECT w, top, c FROM max_price"));
      // Each bid is in the four windows of 2 s that start every 500 ms up to its time.
      s.execute("CREATE TABLE k (i BIGINT) AS SELECT X FROM SYSTEM_RANGE(0, 3)");
      List<List<String>> hot = rows(s, "SELECT auction, date_time - MOD(date_time, 500) - 500"
          + " * i, COUNT(*) FROM bid, k GROUP BY auction, date_time - MOD(date_time, 500) - 500"
          + " * i");
      assertEquals(hot, rows(statement, "SELECT auction, w, c FROM hot"));
    }
  }

  /**
   * Nexmark q7 (with 1 s windows): bids joined with the highest price of their window, an
   * aggregation's appended windows joined with the stream, equals H2's batch answer for every
   * window the final watermark has closed.
   */
  @Test void shouldMatchH2ForQ7BidsJoinedWithTheHighestPriceOfTheirWindow() throws Exception {
    statement.execute(BIDS.replace("INTERVAL '5' SECOND", "INTERVAL '0.5' SECOND")
        .replace("'20000'", "'5000'"));
    statement.execute("CREATE MATERIALIZED VIEW q7 AS SELECT b.auction, b.price, b.date_time"
        + " FROM bid AS b JOIN (SELECT MAX(price) AS maxprice, window_end FROM TABLE(TUMBLE("
        + "TABLE bid, DESCRIPTOR(date_time), INTERVAL '1' SECOND))"
        + " GROUP BY window_start, window_end) AS m ON b.price = m.maxprice"
        + " AND b.date_time BETWEEN m.window_end - INTERVAL '1' SECOND AND m.window_end"
        + " EMIT APPEND");
    PushResults.awaitIdle(engineName, "q7 over nexmark bids");
    try (Connection h2 = h2With(NexmarkEventType.BID); Statement s = h2.createStatement()) {
      List<List<String>> expected = rows(s, "SELECT b.auction, b.price, b.date_time FROM bid b"
          + " JOIN (SELECT w + 1000 AS wend, MAX(price) AS top FROM (SELECT price,"
          + " date_time - MOD(date_time, 1000) AS w FROM bid) GROUP BY w) m ON b.price = m.top"
          + " AND b.date_time BETWEEN m.wend - 1000 AND m.wend"
          // The windows the last watermark (the latest bid less 0.5 s) has closed.
          + " WHERE m.wend <= (SELECT MAX(date_time) FROM bid) - 500");
      assertTrue(expected.size() >= 5, "a row per closed window at least: " + expected);
      assertEquals(expected, rows(statement, "SELECT auction, price, date_time FROM q7"));
    }
  }

  /**
   * Nexmark q5 (with 2 s windows every 0.5 s): the auctions with the most bids of each window,
   * a chain of two aggregations (counts per auction and window, their maximum per window) joined
   * with the first, equals H2's batch answer for every window the final watermark has closed.
   */
  @Test void shouldMatchH2ForQ5TheHottestAuctionsOfEachWindow() throws Exception {
    statement.execute(BIDS.replace("INTERVAL '5' SECOND", "INTERVAL '0.5' SECOND")
        .replace("'20000'", "'5000'"));
    String counts = "SELECT auction, COUNT(*) AS num, window_start, window_end FROM TABLE(HOP("
        + "TABLE bid, DESCRIPTOR(date_time), INTERVAL '0.5' SECOND, INTERVAL '2' SECOND))"
        + " GROUP BY auction, window_start, window_end";
    statement.execute("CREATE MATERIALIZED VIEW q5 AS SELECT ab.auction, ab.num, ab.window_start"
        + " FROM (" + counts + ") AS ab JOIN (SELECT MAX(num) AS maxn, window_start, window_end"
        + " FROM (" + counts + ") GROUP BY window_start, window_end) AS mb"
        + " ON ab.window_start = mb.window_start AND ab.window_end = mb.window_end"
        + " AND ab.num >= mb.maxn EMIT APPEND");
    PushResults.awaitIdle(engineName, "q5 over nexmark bids");
    try (Connection h2 = h2With(NexmarkEventType.BID); Statement s = h2.createStatement()) {
      s.execute("CREATE TABLE k (i BIGINT) AS SELECT X FROM SYSTEM_RANGE(0, 3)");
      s.execute("CREATE TABLE c AS SELECT auction, w, COUNT(*) AS num FROM (SELECT auction,"
          + " date_time - MOD(date_time, 500) - 500 * i AS w FROM bid, k) GROUP BY auction, w");
      // The maxima per window as a table of their own: joined as a derived table, H2 runs its
      // GROUP BY again for every row of c (tens of seconds of CPU for the same answer).
      s.execute("CREATE TABLE m AS SELECT w, MAX(num) AS maxn FROM c GROUP BY w");
      s.execute("CREATE INDEX m_w ON m (w)");
      List<List<String>> expected = rows(s, "SELECT c.auction, c.num, c.w FROM c"
          + " JOIN m ON c.w = m.w AND c.num >= m.maxn"
          + " WHERE c.w + 2000 <= (SELECT MAX(date_time) FROM bid) - 500");
      assertTrue(expected.size() >= 8, "a row per closed window at least: " + expected);
      assertEquals(expected, rows(statement, "SELECT auction, num, window_start FROM q5"));
    }
  }

  @Test void shouldMatchH2OverAuctionsAndPeopleDeclaredInAnyOrderAndCase() throws Exception {
    String with = " WITH (connector = 'nexmark', 'event.type' = '%s', 'max-events' = '" + EVENTS
        + "')";
    statement.execute("CREATE STREAM auction (category BIGINT NOT NULL, initialBid BIGINT,"
        + " reserve BIGINT, seller BIGINT, \"dateTime\" TIMESTAMP(3), expires TIMESTAMP(3))"
        + String.format(with, "auction"));
    statement.execute("CREATE STREAM person (state VARCHAR, id BIGINT, city VARCHAR)"
        + String.format(with, "PERSON"));
    statement.execute("CREATE MATERIALIZED VIEW categories AS SELECT category, COUNT(*) AS c,"
        + " SUM(initialBid) AS bids, SUM(reserve - initialBid) AS extra, MAX(seller) AS seller"
        + " FROM auction GROUP BY category");
    statement.execute("CREATE MATERIALIZED VIEW states AS SELECT state, city, COUNT(*) AS c,"
        + " MIN(id) AS lo, MAX(id) AS hi FROM person GROUP BY state, city");
    PushResults.awaitIdle(engineName, "views over nexmark auctions and people");
    try (Connection h2 = h2With(NexmarkEventType.AUCTION); Statement s = h2.createStatement()) {
      List<List<String>> categories = rows(s, "SELECT category, COUNT(*), SUM(initial_bid),"
          + " SUM(reserve - initial_bid), MAX(seller) FROM auction GROUP BY category");
      assertEquals(5, categories.size());
      assertEquals(categories, rows(statement, "SELECT category, c, bids, extra, seller"
          + " FROM categories"));
      // A plain SELECT reads the whole bounded stream.
      assertEquals(rows(s, "SELECT COUNT(*), MIN(date_time), MAX(expires) FROM auction"),
          rows(statement, "SELECT COUNT(*), MIN(\"dateTime\"), MAX(expires) FROM auction"));
    }
    try (Connection h2 = h2With(NexmarkEventType.PERSON); Statement s = h2.createStatement()) {
      assertEquals(rows(s, "SELECT state, city, COUNT(*), MIN(id), MAX(id) FROM person"
          + " GROUP BY state, city"), rows(statement, "SELECT state, city, c, lo, hi FROM states"));
    }
    assertEquals(List.of(List.of("1200", "1000", "2199")),
        rows(statement, "SELECT COUNT(*), MIN(id), MAX(id) FROM person"));
  }

  @Test void shouldResumeAViewOverBidsFromItsCheckpointWithTheSameEvents(@TempDir Path dataDir)
      throws Exception {
    String url = "jdbc:freshet:dataDir=" + dataDir + ";timeZone=UTC";
    String view = "CREATE MATERIALIZED VIEW IF NOT EXISTS per_channel AS SELECT channel,"
        + " COUNT(*) AS c, SUM(price) AS total FROM bid GROUP BY channel";
    String query = "SELECT channel, c, total FROM per_channel";
    List<List<String>> expected;
    try (Connection h2 = h2With(NexmarkEventType.BID); Statement s = h2.createStatement()) {
      expected = rows(s, "SELECT channel, COUNT(*), SUM(price) FROM bid GROUP BY channel");
    }
    try (Connection first = DriverManager.getConnection(url);
         Statement s = first.createStatement()) {
      s.execute(BIDS);
      s.execute(view);
      awaitIdle(engine(dataDir), "first run");
      assertEquals(expected, rows(s, query));
    }
    engine(dataDir).close();
    // The catalog declares the stream again with its options; the view resumes after its last
    // batch and reads nothing again.
    try (Connection second = DriverManager.getConnection(url);
         Statement s = second.createStatement()) {
      s.execute(view);
      awaitIdle(engine(dataDir), "second run");
      assertEquals(expected, rows(s, query));
      assertEquals(List.of(List.of("0")), rows(s, "SELECT COUNT(*) FROM sys.query_progress"
          + " WHERE NAME = 'PER_CHANNEL'"));
    } finally {
      engine(dataDir).close();
    }
  }

  private static Engine engine(Path dataDir) throws SQLException {
    return EngineRegistry.INSTANCE.resolve(Map.of(EngineRegistry.DATA_DIR, dataDir.toString()));
  }

  private static void awaitIdle(Engine engine, String context) throws Exception {
    for (var query : engine.queries()) {
      assertTrue(query.processAllAvailable(PushResults.DEADLINE), context + ": " + query.name()
          + " did not catch up");
    }
  }

  private void assertFails(String sql, String sqlState, String message) {
    SQLException e = assertThrows(SQLException.class, () -> statement.execute(sql), sql);
    assertEquals(message, e.getMessage(), sql);
    assertEquals(sqlState, e.getSQLState(), sql);
  }

  @Test void shouldRejectColumnsAndOptionsThatANexmarkStreamDoesNotHave() throws Exception {
    String bid = " WITH (connector = 'nexmark', 'event.type' = 'bid', 'max-events' = '10')";
    String bidColumns = "A nexmark bid stream declares any of its columns, in any order, by"
        + " their names in snake or camel case: CREATE STREAM BID (auction BIGINT, bidder BIGINT,"
        + " price BIGINT, channel VARCHAR, url VARCHAR, date_time TIMESTAMP(3), extra VARCHAR)"
        + " WITH (connector = 'nexmark', 'event.type' = 'bid', 'max-events' = '1000000')";
    assertFails("CREATE STREAM bid (auction BIGINT, seller BIGINT)" + bid, "42000",
        "Column SELLER of stream BID (connector 'nexmark', event type bid) is not a column of a"
            + " bid. " + bidColumns);
    assertFails("CREATE STREAM bid (price INTEGER)" + bid, "42000",
        "Column PRICE of stream BID (connector 'nexmark', event type bid) is INTEGER, but the"
            + " generator makes a BIGINT. " + bidColumns);
    assertFails("CREATE STREAM bid (date_time TIMESTAMP(3), \"dateTime\" TIMESTAMP(3))" + bid,
        "42000", "Column dateTime of stream BID (connector 'nexmark', event type bid) is"
            + " date_time, which is declared twice. " + bidColumns);
    String create = "CREATE STREAM bid (price BIGINT) WITH (connector = 'nexmark', ";
    assertFails(create + "'max-events' = '10')", "42000", "Option 'event.type' of stream BID is"
        + " '', but must be the event type the stream holds: 'person', 'auction' or 'bid'.");
    assertFails(create + "'event.type' = 'bids', 'max-events' = '10')", "42000", "Option"
        + " 'event.type' of stream BID is 'bids', but must be the event type the stream holds:"
        + " 'person', 'auction' or 'bid'.");
    assertFails(create + "'event.type' = 'bid')", "42000", "Stream BID (connector 'nexmark')"
        + " needs 'max-events' (the number of events of all types) or 'events.per-second' (a"
        + " pace), or both: without either it would generate events as fast as it can, for ever."
        + " Add e.g. 'max-events' = '1000000' or 'events.per-second' = '10000'");
    assertFails(create + "'event.type' = 'bid', 'end' = '10')", "42000", "Unknown option 'end'"
        + " for connector 'nexmark' of stream BID. Valid options: connector, event.type,"
        + " events.per-second, max-events, seed, rows.per.batch, start.time,"
        + " watermark.idle-timeout");
    assertFails(create + "'event.type' = 'bid', 'events.per-second' = '0')", "42000", "Option"
        + " 'events.per-second' of stream BID is '0', but must be a whole number of events a"
        + " second from 1 to 1000000000, such as '10000'.");
    statement.execute(create + "'event.type' = 'bid', 'events.per-second' = '1000')");
    assertFails("INSERT INTO bid VALUES (1)", "42809", "Cannot INSERT INTO stream 'BID': its"
        + " rows are generated by connector 'nexmark', not inserted. INSERT into a stream"
        + " declared WITH (connector = 'memory').");
    assertFails("SELECT COUNT(*) FROM bid", "0A000", "A plain SELECT reads every row of its"
        + " stream at once, but stream BID generates events without end (connector 'nexmark'"
        + " without 'max-events'). Use SELECT STREAM ... for a continuous query, or declare the"
        + " stream with 'max-events'");
  }
}
