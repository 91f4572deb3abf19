package dev.freshet.benchmarks.e2e;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One Nexmark query of the benchmark, written for both engines: the streams it reads (each with
 * only the columns it uses, so that neither engine generates columns it drops), Freshet's SQL,
 * Spark's SQL over the same temp views, the output mode, and a digest of its final result that
 * both engines compute and the harness compares.
 *
 * <pre>{@code
 * new NexmarkQuery("q2", Map.of("bid", "auction, price"),
 *     "SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0",
 *     "SELECT auction, price FROM bid WHERE auction % 123 = 0",
 *     Mode.APPEND, 0, "COUNT(*), SUM(auction), SUM(price)", "");
 * }</pre>
 *
 * <p>Every stream has a watermark of 5 seconds on {@code date_time} on both engines (Freshet's
 * {@code WATERMARK FOR}, Spark's {@code withWatermark}), declared whether the query needs it or
 * not. A join query is one more entry: its streams are read in batches that cover the same
 * global events ({@link #streams}), so its inputs stay aligned in event time on both engines.
 *
 * @param name the query's name, e.g. {@code q5_hop}
 * @param streams per stream ({@code person}, {@code auction} or {@code bid}), the columns it
 *     declares, comma-separated snake-case names; {@code date_time} must be among them
 * @param freshet Freshet's SQL (the view's query, without {@code EMIT})
 * @param spark Spark's SQL over temp views named as the streams
 * @param mode the output mode on both engines
 * @param keyColumns for {@link Mode#UPDATE}: how many leading result columns identify a row
 *     (the Spark side keeps each key's latest row of its update batches)
 * @param digest the select list of a query over the final result {@code r}: COUNT and SUM of
 *     exact types only, so that Spark can add its per-batch digests in APPEND mode
 * @param note what the entry changes from Nexmark's query, or why it cannot run yet
 */
public record NexmarkQuery(String name, Map<String, String> streams, String freshet,
    String spark, Mode mode, int keyColumns, String digest, String note) {
  /** The output mode on both engines. */
  public enum Mode {
    /** Rows that never change: every row, or a window once the watermark passes it. */
    APPEND,
    /** The changed groups of each batch. */
    UPDATE
  }

  /** The queries of {@code ./benchmarks/run --workloads NEXMARK}, in the order they run. */
  public static List<NexmarkQuery> all() {
    List<NexmarkQuery> q = new ArrayList<>();
    String tumble = "INTERVAL '10' SECOND";
    q.add(new NexmarkQuery("q0", bid("auction, bidder, price, date_time"),
        "SELECT auction, bidder, price, date_time FROM bid",
        "SELECT auction, bidder, price, date_time FROM bid",
        Mode.APPEND, 0, "COUNT(*), SUM(auction), SUM(bidder), SUM(price)",
        "pass-through of four of the seven columns"));
    q.add(new NexmarkQuery("q1", bid("auction, bidder, price, date_time"),
        "SELECT auction, bidder, 0.908 * price AS price, date_time FROM bid",
        "SELECT auction, bidder, 0.908 * price AS price, date_time FROM bid",
        Mode.APPEND, 0, "COUNT(*), SUM(auction), SUM(price)", "currency conversion"));
    q.add(new NexmarkQuery("q2", bid("auction, price, date_time"),
        "SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0",
        "SELECT auction, price FROM bid WHERE auction % 123 = 0",
        Mode.APPEND, 0, "COUNT(*), SUM(auction), SUM(price)", "selection"));
    q.add(new NexmarkQuery("q5_hop", bid("auction, date_time"),
        "SELECT auction, HOP_START(date_time, INTERVAL '2' SECOND, " + tumble + ") AS w,"
            + " COUNT(*) AS num FROM bid"
            + " GROUP BY auction, HOP(date_time, INTERVAL '2' SECOND, " + tumble + ")",
        "SELECT auction, window.start AS w, COUNT(*) AS num FROM bid"
            + " GROUP BY auction, window(date_time, '10 seconds', '2 seconds')",
        Mode.APPEND, 0, "COUNT(*), SUM(auction), SUM(num)",
        "q5's inner half: bids per auction in 10 s windows every 2 s"));
    q.add(new NexmarkQuery("q7_tumble_max", bid("price, date_time"),
        "SELECT TUMBLE_START(date_time, " + tumble + ") AS w, MAX(price) AS maxprice,"
            + " COUNT(*) AS c FROM bid GROUP BY TUMBLE(date_time, " + tumble + ")",
        "SELECT window.start AS w, MAX(price) AS maxprice, COUNT(*) AS c FROM bid"
            + " GROUP BY window(date_time, '10 seconds')",
        Mode.APPEND, 0, "COUNT(*), SUM(maxprice), SUM(c)",
        "q7's inner half: the highest price per 10 s window"));
    q.add(new NexmarkQuery("q12_event_time", bid("bidder, date_time"),
        "SELECT bidder, TUMBLE_START(date_time, " + tumble + ") AS w, COUNT(*) AS bid_count"
            + " FROM bid GROUP BY bidder, TUMBLE(date_time, " + tumble + ")",
        "SELECT bidder, window.start AS w, COUNT(*) AS bid_count FROM bid"
            + " GROUP BY bidder, window(date_time, '10 seconds')",
        Mode.APPEND, 0, "COUNT(*), SUM(bidder), SUM(bid_count)",
        "q12 over event time: processing-time windows depend on each engine's speed, so their"
            + " results could not be compared"));
    String ranks = "COUNT(*) FILTER (WHERE price < 10000) AS rank1_bids,"
        + " COUNT(*) FILTER (WHERE price >= 10000 AND price < 1000000) AS rank2_bids,"
        + " COUNT(*) FILTER (WHERE price >= 1000000) AS rank3_bids";
    String distinct = ", COUNT(DISTINCT bidder) AS total_bidders,"
        + " COUNT(DISTINCT bidder) FILTER (WHERE price < 10000) AS rank1_bidders,"
        + " COUNT(DISTINCT auction) AS total_auctions";
    q.add(new NexmarkQuery("q15", bid("auction, bidder, price, date_time"),
        "SELECT CAST(date_time AS DATE) AS d, COUNT(*) AS total_bids, " + ranks + distinct
            + " FROM bid GROUP BY CAST(date_time AS DATE)",
        "SELECT CAST(date_time AS DATE) AS d, COUNT(*) AS total_bids, " + ranks + distinct
            + " FROM bid GROUP BY CAST(date_time AS DATE)",
        Mode.UPDATE, 1, "COUNT(*), SUM(total_bids), SUM(rank1_bids), SUM(rank3_bids),"
            + " SUM(total_bidders), SUM(rank1_bidders), SUM(total_auctions)",
        "per day; CAST(... AS DATE) for DATE_FORMAT(dateTime, 'yyyy-MM-dd'); three of the nine"
            + " DISTINCT counts"));
    q.add(new NexmarkQuery("q16", bid("bidder, price, channel, date_time"),
        "SELECT channel, CAST(date_time AS DATE) AS d, COUNT(*) AS total_bids, " + ranks
            + ", COUNT(DISTINCT bidder) AS total_bidders FROM bid"
            + " GROUP BY channel, CAST(date_time AS DATE)",
        "SELECT channel, CAST(date_time AS DATE) AS d, COUNT(*) AS total_bids, " + ranks
            + ", COUNT(DISTINCT bidder) AS total_bidders FROM bid"
            + " GROUP BY channel, CAST(date_time AS DATE)",
        Mode.UPDATE, 2, "COUNT(*), SUM(total_bids), SUM(rank2_bids), SUM(total_bidders)",
        "per channel and day; one of the DISTINCT counts"));
    q.add(new NexmarkQuery("q17", bid("auction, price, date_time"),
        "SELECT auction, CAST(date_time AS DATE) AS d, COUNT(*) AS total_bids, " + ranks
            + ", MIN(price) AS min_price, MAX(price) AS max_price, SUM(price) AS sum_price"
            + " FROM bid GROUP BY auction, CAST(date_time AS DATE)",
        "SELECT auction, CAST(date_time AS DATE) AS d, COUNT(*) AS total_bids, " + ranks
            + ", MIN(price) AS min_price, MAX(price) AS max_price, SUM(price) AS sum_price"
            + " FROM bid GROUP BY auction, CAST(date_time AS DATE)",
        Mode.UPDATE, 2, "COUNT(*), SUM(total_bids), SUM(rank1_bids), SUM(min_price),"
            + " SUM(max_price), SUM(sum_price)",
        "per auction and day; AVG left out (an integer on Freshet, a double on Spark)"));
    // Joins of two streams.
    Map<String, String> q3Streams = new LinkedHashMap<>();
    q3Streams.put("person", "id, name, city, state, date_time");
    q3Streams.put("auction", "id, seller, category, date_time");
    q.add(new NexmarkQuery("q3", q3Streams,
        "SELECT p.name, p.city, p.state, a.id FROM auction AS a JOIN person AS p"
            + " ON a.seller = p.id AND a.date_time BETWEEN p.date_time - INTERVAL '10' SECOND"
            + " AND p.date_time + INTERVAL '10' MINUTE"
            + " WHERE a.category = 10 AND (p.state = 'OR' OR p.state = 'ID' OR p.state = 'CA')",
        "SELECT p.name, p.city, p.state, a.id FROM auction AS a JOIN person AS p"
            + " ON a.seller = p.id AND a.date_time BETWEEN p.date_time - INTERVAL 10 SECONDS"
            + " AND p.date_time + INTERVAL 10 MINUTES"
            + " WHERE a.category = 10 AND (p.state = 'OR' OR p.state = 'ID' OR p.state = 'CA')",
        Mode.APPEND, 0, "COUNT(*), SUM(id)",
        "a stream-stream join; with a time range (Nexmark's has none) so that state is bounded"));
    Map<String, String> q8Streams = new LinkedHashMap<>();
    q8Streams.put("person", "id, name, date_time");
    q8Streams.put("auction", "seller, date_time");
    q.add(new NexmarkQuery("q8", q8Streams,
        "SELECT p.id, p.name, p.w FROM (SELECT id, name, TUMBLE_START(date_time, " + tumble
            + ") AS w FROM person GROUP BY id, name, TUMBLE(date_time, " + tumble + ")) AS p"
            + " JOIN (SELECT seller, TUMBLE_START(date_time, " + tumble + ") AS w FROM auction"
            + " GROUP BY seller, TUMBLE(date_time, " + tumble + ")) AS a"
            + " ON p.id = a.seller AND p.w = a.w",
        "SELECT p.id, p.name, p.w FROM (SELECT id, name, window.start AS w FROM person"
            + " GROUP BY id, name, window(date_time, '10 seconds')) AS p"
            + " JOIN (SELECT seller, window.start AS w FROM auction"
            + " GROUP BY seller, window(date_time, '10 seconds')) AS a"
            + " ON p.id = a.seller AND p.w = a.w",
        Mode.APPEND, 0, "COUNT(*), SUM(id)", "a join of two windowed aggregations"));
    Map<String, String> q20Streams = new LinkedHashMap<>();
    q20Streams.put("auction", "id, item_name, seller, category, date_time, expires");
    q20Streams.put("bid", "auction, bidder, price, date_time");
    String q20 = "SELECT b.auction, b.bidder, b.price, a.item_name, a.seller FROM bid AS b"
        + " JOIN auction AS a ON b.auction = a.id AND b.date_time BETWEEN a.date_time AND"
        + " a.expires WHERE a.category = 10";
    q.add(new NexmarkQuery("q20", q20Streams, q20, q20, Mode.APPEND, 0,
        "COUNT(*), SUM(auction), SUM(price), SUM(seller)",
        "a stream-stream join of bids with their auction while it is open"));
    String counts = "SELECT auction, COUNT(*) AS num, window_start, window_end FROM TABLE(HOP("
        + "TABLE bid, DESCRIPTOR(date_time), INTERVAL '2' SECOND, " + tumble + "))"
        + " GROUP BY auction, window_start, window_end";
    String sparkCounts = "SELECT auction, COUNT(*) AS num, window FROM bid"
        + " GROUP BY auction, window(date_time, '10 seconds', '2 seconds')";
    q.add(new NexmarkQuery("q5", bid("auction, date_time"),
        "SELECT ab.auction, ab.num FROM (" + counts + ") AS ab JOIN (SELECT MAX(num) AS maxn,"
            + " window_start, window_end FROM (" + counts + ") GROUP BY window_start, window_end)"
            + " AS mb ON ab.window_start = mb.window_start AND ab.window_end = mb.window_end"
            + " AND ab.num >= mb.maxn",
        "SELECT ab.auction, ab.num FROM (" + sparkCounts + ") AS ab JOIN (SELECT MAX(num) AS"
            + " maxn, window FROM (" + sparkCounts + ") GROUP BY window) AS mb"
            + " ON ab.window = mb.window AND ab.num >= mb.maxn",
        Mode.APPEND, 0, "COUNT(*), SUM(auction), SUM(num)",
        "the hottest auctions of each 10 s window every 2 s: counts per auction, their maximum"
            + " per window, joined"));
    q.add(new NexmarkQuery("q7", bid("auction, bidder, price, date_time"),
        "SELECT b.auction, b.price, b.bidder, b.date_time FROM bid AS b JOIN ("
            + "SELECT MAX(price) AS maxprice, window_end FROM TABLE(TUMBLE(TABLE bid,"
            + " DESCRIPTOR(date_time), " + tumble + ")) GROUP BY window_start, window_end) AS m"
            + " ON b.price = m.maxprice AND b.date_time BETWEEN m.window_end - " + tumble
            + " AND m.window_end",
        // The window struct itself, which carries the watermark in Spark (window.end alone
        // does not).
        "SELECT b.auction, b.price, b.bidder, b.date_time FROM bid AS b JOIN ("
            + "SELECT MAX(price) AS maxprice, window FROM bid"
            + " GROUP BY window(date_time, '10 seconds')) AS m"
            + " ON b.price = m.maxprice AND b.date_time BETWEEN m.window.end - INTERVAL 10"
            + " SECONDS AND m.window.end",
        Mode.APPEND, 0, "COUNT(*), SUM(auction), SUM(price), SUM(bidder)",
        "the highest bids of each 10 s window: bids joined with their window's maximum"));
    return List.copyOf(q);
  }

  private static Map<String, String> bid(String columns) {
    return Map.of("bid", columns);
  }

  /** Freshet's {@code CREATE STREAM} of stream {@code type} for this query. */
  public String freshetStream(String type, long maxEvents, long bidsPerBatch) {
    StringBuilder columns = new StringBuilder();
    for (String column : streams.get(type).split(",")) {
      String c = column.trim();
      columns.append(columns.length() == 0 ? "" : ", ").append(c).append(' ')
          .append(c.equals("date_time") || c.equals("expires") ? "TIMESTAMP(3)"
              : STRINGS.contains(c) ? "VARCHAR" : "BIGINT");
    }
    return "CREATE STREAM " + type + " (" + columns + ", WATERMARK FOR date_time AS date_time"
        + " - INTERVAL '5' SECOND) WITH (connector = 'nexmark', 'event.type' = '" + type + "',"
        + " 'max-events' = '" + maxEvents + "', 'rows.per.batch' = '"
        + rowsPerBatch(type, bidsPerBatch) + "')";
  }

  /** Columns of VARCHAR type, by name, over the three event types. */
  static final List<String> STRINGS = List.of("name", "email_address", "credit_card", "city",
      "state", "extra", "item_name", "description", "channel", "url");

  /**
   * Rows per batch of stream {@code type} when a bid batch has {@code bidsPerBatch} (a multiple
   * of 46): the same global events, so that joined streams advance together.
   */
  public static long rowsPerBatch(String type, long bidsPerBatch) {
    long groups = bidsPerBatch / 46;
    return switch (type) {
      case "person" -> groups;
      case "auction" -> groups * 3;
      default -> groups * 46;
    };
  }
}
