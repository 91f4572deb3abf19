package dev.freshet.connectors.nexmark;

/**
 * The Nexmark event generator: global event {@code n} (from 0) is one person, auction or bid, a
 * pure function of {@code n}, the seed, the event time of event 0 and the event rate. Any slice of
 * the sequence can therefore be generated on its own, on any thread, in any order, and every
 * engine that runs the generator sees the same events.
 *
 * <pre>{@code
 * NexmarkGenerator g = new NexmarkGenerator(0, 1_767_225_600_000L, 10_000);
 * NexmarkGenerator.Cursor c = g.cursor();          // one per thread
 * c.moveTo(NexmarkEventType.BID, 0);               // the first bid: global event 4
 * long auction = c.longValue(0);                   // an auction id, 1000 or more
 * String channel = c.stringValue(3);               // e.g. "Google"
 * }</pre>
 *
 * <p>The rules follow the Nexmark specification as its Beam and Flink generators implement it:
 * <ul>
 *   <li>of every 50 events, 1 is a person, 3 are auctions and 46 are bids
 *       ({@link NexmarkEventType});
 *   <li>people and auctions are numbered from {@link #FIRST_PERSON_ID} and
 *       {@link #FIRST_AUCTION_ID} in the order they are generated, so a person's id is 1000 plus
 *       the number of people before it;
 *   <li>an auction's category is one of {@value #CATEGORIES} from {@link #FIRST_CATEGORY_ID};
 *       its seller is, with probability 3/4 ({@link #HOT_SELLER_RATIO}), the first person of
 *       the last hundred ("hot"), otherwise one of the last thousand people or ten not yet
 *       generated; its reserve is its initial bid plus a price; it expires after a random length
 *       averaging the time in which the next hundred auctions are generated;
 *   <li>a bid's auction is, with probability 1/2 ({@link #HOT_AUCTION_RATIO}), the first of the
 *       last hundred auctions, otherwise one of the last hundred or ten not yet generated; its
 *       bidder is, with probability 3/4 ({@link #HOT_BIDDER_RATIO}), the second person of the last
 *       hundred, otherwise as a seller; its price is {@code round(10^(6u) * 100)} for a uniform
 *       {@code u}; its channel is, with probability 1/2, one of four hot channels, otherwise one
 *       of 10,000, and its URL is the channel's;
 *   <li>event {@code n}'s time is {@code firstEventTimeMs + n * 10^6 / rate} microseconds, in
 *       whole milliseconds (rounded down): the inter-event delay of a fixed rate;
 *   <li>each event draws from random numbers seeded by the seed and {@code n} alone
 *       ({@link NexmarkRandom}).
 * </ul>
 * Not generated: Nexmark's {@code extra} padding to an average event size is the empty string
 * (it only adds bytes; no query reads it).
 *
 * <p>Immutable and thread-safe; a {@link Cursor} is one thread's.
 */
public final class NexmarkGenerator {
  /** The id of the first person. */
  public static final long FIRST_PERSON_ID = 1000;
  /** The id of the first auction. */
  public static final long FIRST_AUCTION_ID = 1000;
  /** The first category id. */
  public static final long FIRST_CATEGORY_ID = 10;
  /** The number of categories. */
  public static final int CATEGORIES = 5;
  /** A bid is for a hot auction unless a draw from this many is 0. */
  public static final int HOT_AUCTION_RATIO = 2;
  /** An auction's seller is hot unless a draw from this many is 0. */
  public static final int HOT_SELLER_RATIO = 4;
  /** A bid's bidder is hot unless a draw from this many is 0. */
  public static final int HOT_BIDDER_RATIO = 4;
  /** Hot people and auctions are the first (or second) of each group of this many. */
  static final int HOT_GROUP = 100;
  /** People a random seller or bidder is chosen from: the latest ones. */
  static final int ACTIVE_PEOPLE = 1000;
  /** Auctions a random bid is for: the latest ones. */
  static final int IN_FLIGHT_AUCTIONS = 100;
  /** Ids not yet generated that a random person or auction may have. */
  static final int ID_LEAD = 10;
  /** Bids whose channel is not one of the hot ones have one of this many. */
  static final int CHANNELS = 10_000;

  private static final String[] HOT_CHANNELS = {"Google", "Facebook", "Baidu", "Apple"};
  private static final String[] FIRST_NAMES = {"Ada", "Bram", "Cleo", "Dara", "Emil", "Fenna",
      "Gus", "Hedda", "Ivo", "Juno", "Kees", "Lotte"};
  private static final String[] LAST_NAMES = {"Abels", "Brink", "Claes", "Dekker", "Eijk",
      "Fokker", "Groen", "Hals", "Jansen", "Kok"};
  private static final String[] CITIES = {"Boise", "Bend", "Phoenix", "Portland", "Seattle",
      "Spokane", "Tacoma", "Tucson", "Cheyenne", "Sacramento", "Fresno", "Eugene"};
  private static final String[] STATES = {"AZ", "CA", "ID", "OR", "WA", "WY"};
  /** Every first and last name pair, so that a name costs no allocation. */
  private static final String[] NAMES = names();

  private final long seed;
  private final long firstEventTimeMs;
  private final long eventsPerSecond;

  /**
   * @param seed chooses one of many equally valid event sequences; the same seed, the same events
   * @param firstEventTimeMs the event time of event 0, in epoch milliseconds
   * @param eventsPerSecond the rate that spaces the events' times, positive
   */
  public NexmarkGenerator(long seed, long firstEventTimeMs, long eventsPerSecond) {
    if (eventsPerSecond < 1) {
      throw new IllegalArgumentException("events per second must be positive: "
          + eventsPerSecond);
    }
    this.seed = seed;
    this.firstEventTimeMs = firstEventTimeMs;
    this.eventsPerSecond = eventsPerSecond;
  }

  /**
   * Event {@code n}'s time: {@code n} inter-event delays of {@code 10^6 / rate} microseconds
   * after event 0, in whole milliseconds; split into whole seconds and the rest so that
   * {@code n * 1000} cannot overflow.
   */
  public long eventTimeMs(long n) {
    return firstEventTimeMs + n / eventsPerSecond * 1000 + n % eventsPerSecond * 1000
        / eventsPerSecond;
  }

  /** A cursor for one thread: it generates an event at a time into fields it reuses. */
  public Cursor cursor() {
    return new Cursor();
  }

  /** The number of people generated before event {@code n}, less one: the latest person. */
  static long lastPerson(long n) {
    return n / NexmarkEventType.EVENTS_PER_GROUP;
  }

  /**
   * The number of auctions generated before event {@code n} and by it, less one: the latest
   * auction (event {@code n}'s own if it is one); -1 before the first.
   */
  static long lastAuction(long n) {
    return NexmarkEventType.AUCTION.countBefore(n + 1) - 1;
  }

  /** One of the latest {@value #ACTIVE_PEOPLE} people, or of the next {@value #ID_LEAD}. */
  private static long randomPerson(long n, NexmarkRandom r) {
    long people = lastPerson(n) + 1;
    long active = Math.min(people, ACTIVE_PEOPLE);
    return people - active + r.nextLong(active + ID_LEAD);
  }

  /** One of the latest {@value #IN_FLIGHT_AUCTIONS} auctions, or of the next {@value #ID_LEAD}. */
  private static long randomAuction(long n, NexmarkRandom r) {
    long last = lastAuction(n);
    long first = Math.max(last - IN_FLIGHT_AUCTIONS, 0);
    return first + r.nextLong(last - first + 1 + ID_LEAD);
  }

  private static long price(NexmarkRandom r) {
    return Math.round(Math.pow(10.0, r.nextDouble() * 6.0) * 100.0);
  }

  private static String[] names() {
    String[] names = new String[FIRST_NAMES.length * LAST_NAMES.length];
    for (int i = 0; i < names.length; i++) {
      names[i] = FIRST_NAMES[i / LAST_NAMES.length] + " " + LAST_NAMES[i % LAST_NAMES.length];
    }
    return names;
  }

  /** The channels and URLs of the non-hot channels, made on first use. */
  private static final class Channels {
    static final String[] NAMES = new String[CHANNELS];
    static final String[] URLS = new String[CHANNELS];
    static final String[] HOT_URLS = new String[HOT_CHANNELS.length];

    static {
      for (int i = 0; i < CHANNELS; i++) {
        NAMES[i] = "channel-" + i;
        URLS[i] = "https://www.nexmark.com/channel/" + i + "/item.htm?query=1&channel_id=" + i;
      }
      for (int i = 0; i < HOT_CHANNELS.length; i++) {
        HOT_URLS[i] = "https://www.nexmark.com/" + HOT_CHANNELS[i].toLowerCase(java.util.Locale.ROOT)
            + "/item.htm?query=1";
      }
    }
  }

  /**
   * A position in the event sequence and the values of the event there. {@link #moveTo}
   * computes the event's numeric fields (a few random draws, no allocation); a string field is
   * made when asked for, from random numbers of its own, so that reading only numeric columns
   * builds no string and reading a string never changes another field.
   */
  public final class Cursor {
    private final NexmarkRandom random = new NexmarkRandom();
    private final NexmarkRandom strings = new NexmarkRandom();
    /** The event's numeric values by column index; string columns' slots unused. */
    private final long[] longs = new long[10];
    private NexmarkEventType type;
    private long n;
    /** Index of a person's name and city, or of a bid's channel (hot ones below 0). */
    private int pick1;
    private int pick2;

    private Cursor() {
    }

    /** The global number of the event the cursor is at. */
    public long eventNumber() {
      return n;
    }

    /** Moves to {@code type}'s event {@code ordinal} (from 0) and generates it. */
    public void moveTo(NexmarkEventType type, long ordinal) {
      moveToEvent(type.eventNumber(ordinal));
    }

    /** Moves to global event {@code eventNumber} and generates it. */
    public void moveToEvent(long eventNumber) {
      this.n = eventNumber;
      this.type = NexmarkEventType.of(eventNumber);
      random.reset(seed, eventNumber, 0);
      long time = eventTimeMs(eventNumber);
      switch (type) {
      case PERSON -> {
        longs[0] = lastPerson(eventNumber) + FIRST_PERSON_ID;
        longs[6] = time;
        pick1 = random.nextInt(NAMES.length);
        pick2 = random.nextInt(CITIES.length);
      }
      case AUCTION -> {
        longs[0] = lastAuction(eventNumber) + FIRST_AUCTION_ID;
        long seller = random.nextInt(HOT_SELLER_RATIO) > 0
            ? lastPerson(eventNumber) / HOT_GROUP * HOT_GROUP
            : randomPerson(eventNumber, random);
        longs[7] = seller + FIRST_PERSON_ID;
        longs[8] = FIRST_CATEGORY_ID + random.nextInt(CATEGORIES);
        long initialBid = price(random);
        longs[3] = initialBid;
        longs[4] = initialBid + price(random);
        longs[5] = time;
        // Auctions last on average as long as it takes to generate the next hundred.
        long horizonMs = eventTimeMs(eventNumber + (long) IN_FLIGHT_AUCTIONS
            * NexmarkEventType.EVENTS_PER_GROUP / NexmarkEventType.AUCTION.proportion()) - time;
        longs[6] = time + 1 + random.nextLong(Math.max(horizonMs * 2, 1));
      }
      case BID -> {
        long auction = random.nextInt(HOT_AUCTION_RATIO) > 0
            ? lastAuction(eventNumber) / HOT_GROUP * HOT_GROUP
            : randomAuction(eventNumber, random);
        longs[0] = auction + FIRST_AUCTION_ID;
        long bidder = random.nextInt(HOT_BIDDER_RATIO) > 0
            ? lastPerson(eventNumber) / HOT_GROUP * HOT_GROUP + 1
            : randomPerson(eventNumber, random);
        longs[1] = bidder + FIRST_PERSON_ID;
        longs[2] = price(random);
        pick1 = random.nextInt(2) > 0 ? -1 - random.nextInt(HOT_CHANNELS.length)
            : random.nextInt(CHANNELS);
        longs[5] = time;
      }
      default -> throw new AssertionError(type);
      }
    }

    /** The type of the event the cursor is at. */
    public NexmarkEventType type() {
      return type;
    }

    /**
     * The value of numeric column {@code column} (BIGINT or TIMESTAMP) of the event; a
     * timestamp in epoch milliseconds.
     */
    public long longValue(int column) {
      return longs[column];
    }

    /** The value of VARCHAR column {@code column} of the event. */
    public String stringValue(int column) {
      switch (type) {
      case PERSON:
        switch (column) {
        case 1: return NAMES[pick1];
        case 2: return email();
        case 3: return creditCard();
        case 4: return CITIES[pick2];
        case 5: return STATES[pick2 % STATES.length];
        default: return "";
        }
      case AUCTION:
        switch (column) {
        case 1: return text(1, 8, 20);
        case 2: return text(2, 20, 100);
        default: return "";
        }
      default:
        switch (column) {
        case 3: return pick1 < 0 ? HOT_CHANNELS[-1 - pick1] : Channels.NAMES[pick1];
        case 4: return pick1 < 0 ? Channels.HOT_URLS[-1 - pick1] : Channels.URLS[pick1];
        default: return "";
        }
      }
    }

    private String email() {
      strings.reset(seed, n, 1);
      char[] c = new char[7 + 1 + 5 + 4];
      for (int i = 0; i < 7; i++) {
        c[i] = (char) ('a' + strings.nextInt(26));
      }
      c[7] = '@';
      for (int i = 8; i < 13; i++) {
        c[i] = (char) ('a' + strings.nextInt(26));
      }
      c[13] = '.';
      c[14] = 'c';
      c[15] = 'o';
      c[16] = 'm';
      return new String(c);
    }

    private String creditCard() {
      strings.reset(seed, n, 2);
      char[] c = new char[19];
      for (int i = 0; i < c.length; i++) {
        c[i] = i % 5 == 4 ? ' ' : (char) ('0' + strings.nextInt(10));
      }
      return new String(c);
    }

    /** Lower-case words of random length from {@code min} to {@code max} characters. */
    private String text(int stream, int min, int max) {
      strings.reset(seed, n, stream);
      char[] c = new char[min + strings.nextInt(max - min + 1)];
      for (int i = 0; i < c.length; i++) {
        int k = strings.nextInt(27);
        c[i] = k == 26 && i > 0 && i < c.length - 1 && c[i - 1] != ' ' ? ' '
            : (char) ('a' + k % 26);
      }
      return new String(c);
    }
  }
}
