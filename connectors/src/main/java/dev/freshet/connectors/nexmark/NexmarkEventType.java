package dev.freshet.connectors.nexmark;

import dev.freshet.connectors.nexmark.NexmarkColumn.Type;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The three kinds of Nexmark event, their columns (as Flink's Nexmark DDL, in snake case), and
 * where they fall in the global sequence of events: of every 50 events, 1 is a person, 3 are
 * auctions and 46 are bids, in that order.
 *
 * <pre>{@code
 * NexmarkEventType.of(17);              // BID: event 17 is the 14th event of its group of 50
 * NexmarkEventType.BID.eventNumber(0);  // 4: the first bid follows a person and three auctions
 * NexmarkEventType.BID.countBefore(50); // 46: bids among events 0..49
 * }</pre>
 *
 * <p>The mapping between a type's ordinals (its stream's offsets) and global event numbers is
 * closed-form in both directions, so a stream of one type can be read at any offset without
 * generating the events of the others.
 */
public enum NexmarkEventType {
  /** A person who sells and bids: 1 event in 50. */
  PERSON(0, 1, List.of(
      new NexmarkColumn("id", "id", Type.BIGINT),
      new NexmarkColumn("name", "name", Type.VARCHAR),
      new NexmarkColumn("email_address", "emailAddress", Type.VARCHAR),
      new NexmarkColumn("credit_card", "creditCard", Type.VARCHAR),
      new NexmarkColumn("city", "city", Type.VARCHAR),
      new NexmarkColumn("state", "state", Type.VARCHAR),
      new NexmarkColumn("date_time", "dateTime", Type.TIMESTAMP),
      new NexmarkColumn("extra", "extra", Type.VARCHAR))),
  /** An auction of an item by a seller: 3 events in 50. */
  AUCTION(1, 3, List.of(
      new NexmarkColumn("id", "id", Type.BIGINT),
      new NexmarkColumn("item_name", "itemName", Type.VARCHAR),
      new NexmarkColumn("description", "description", Type.VARCHAR),
      new NexmarkColumn("initial_bid", "initialBid", Type.BIGINT),
      new NexmarkColumn("reserve", "reserve", Type.BIGINT),
      new NexmarkColumn("date_time", "dateTime", Type.TIMESTAMP),
      new NexmarkColumn("expires", "expires", Type.TIMESTAMP),
      new NexmarkColumn("seller", "seller", Type.BIGINT),
      new NexmarkColumn("category", "category", Type.BIGINT),
      new NexmarkColumn("extra", "extra", Type.VARCHAR))),
  /** A bid on an auction: 46 events in 50. */
  BID(4, 46, List.of(
      new NexmarkColumn("auction", "auction", Type.BIGINT),
      new NexmarkColumn("bidder", "bidder", Type.BIGINT),
      new NexmarkColumn("price", "price", Type.BIGINT),
      new NexmarkColumn("channel", "channel", Type.VARCHAR),
      new NexmarkColumn("url", "url", Type.VARCHAR),
      new NexmarkColumn("date_time", "dateTime", Type.TIMESTAMP),
      new NexmarkColumn("extra", "extra", Type.VARCHAR)));

  /** Events per group: the sum of the three proportions. */
  public static final int EVENTS_PER_GROUP = 50;

  /** Where the type's events start within a group of {@link #EVENTS_PER_GROUP}. */
  private final int firstInGroup;
  /** How many of a group's events are of this type. */
  private final int perGroup;
  private final List<NexmarkColumn> columns;

  NexmarkEventType(int firstInGroup, int perGroup, List<NexmarkColumn> columns) {
    this.firstInGroup = firstInGroup;
    this.perGroup = perGroup;
    this.columns = columns;
  }

  /** The type of global event {@code eventNumber}. */
  public static NexmarkEventType of(long eventNumber) {
    long inGroup = eventNumber % EVENTS_PER_GROUP;
    return inGroup < AUCTION.firstInGroup ? PERSON : inGroup < BID.firstInGroup ? AUCTION : BID;
  }

  /** The type that {@code 'event.type'} names ({@code person}, {@code auction} or {@code bid}). */
  public static Optional<NexmarkEventType> named(String name) {
    for (NexmarkEventType type : values()) {
      if (type.text().equals(name.trim().toLowerCase(Locale.ROOT))) {
        return Optional.of(type);
      }
    }
    return Optional.empty();
  }

  /** The type as {@code 'event.type'} names it, e.g. {@code bid}. */
  public String text() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The columns the generator produces for this type, in Nexmark's order. */
  public List<NexmarkColumn> columns() {
    return columns;
  }

  /** How many of every {@link #EVENTS_PER_GROUP} events are of this type: 1, 3 or 46. */
  public int proportion() {
    return perGroup;
  }

  /** The global event number of this type's event {@code ordinal} (from 0). */
  public long eventNumber(long ordinal) {
    return ordinal / perGroup * EVENTS_PER_GROUP + firstInGroup + ordinal % perGroup;
  }

  /** How many of global events {@code 0..events-1} are of this type. */
  public long countBefore(long events) {
    long inLastGroup = events % EVENTS_PER_GROUP;
    return events / EVENTS_PER_GROUP * perGroup
        + Math.min(perGroup, Math.max(0, inLastGroup - firstInGroup));
  }
}
