package dev.freshet.connectors.nexmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.vector.ColumnVector;
import dev.freshet.executor.vector.VectorBatch;
import dev.freshet.executor.vector.VectorType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@link NexmarkSource} and {@link NexmarkGenerator}: the same events for the same numbers however
 * they are read, the specification's proportions and id rules, the batch limit and the pace.
 */
class NexmarkSourceTest {
  private static final long BASE = NexmarkSpec.DEFAULT_FIRST_EVENT_TIME_MS;
  private final AtomicLong clock = new AtomicLong(1_000_000);

  private static List<List<Object>> read(NexmarkSource source, long start, long end) {
    List<List<Object>> rows = new ArrayList<>();
    source.readRange(start, end, row -> rows.add(Arrays.asList(row)));
    return rows;
  }

  private static NexmarkSource source(NexmarkEventType type, long maxEvents) {
    return new NexmarkSource(NexmarkSpec.of(type.text(), type).withMaxEvents(maxEvents));
  }

  @Test void shouldGenerateTheSameRowsForTheSameOffsetsHoweverTheyAreSliced() throws Exception {
    for (NexmarkEventType type : NexmarkEventType.values()) {
      NexmarkSource a = source(type, 20_000);
      NexmarkSource b = source(type, 20_000);
      long end = a.latestOffset();
      List<List<Object>> whole = read(a, 0, end);
      assertEquals(whole, read(b, 0, end), type + ": another source, the same rows");
      // Three slices read at once on other threads, backwards: the same rows.
      long third = end / 3;
      var last = CompletableFuture.supplyAsync(() -> read(b, 2 * third, end));
      var middle = CompletableFuture.supplyAsync(() -> read(b, third, 2 * third));
      List<List<Object>> sliced = new ArrayList<>(read(b, 0, third));
      sliced.addAll(middle.get());
      sliced.addAll(last.get());
      assertEquals(whole, sliced, type + ": slices");
      long one = end / 2 + 1;
      assertEquals(whole.subList((int) one, (int) one + 1), read(b, one, one + 1),
          type + ": one row alone");
    }
  }

  @Test void shouldGenerateOtherEventsForAnotherSeedAndTheSameForTheSameSeed() {
    NexmarkSpec spec = NexmarkSpec.of("BID", NexmarkEventType.BID).withMaxEvents(5_000);
    List<List<Object>> seed0 = read(new NexmarkSource(spec), 0, 1000);
    assertEquals(seed0, read(new NexmarkSource(spec.withSeed(0)), 0, 1000));
    assertNotEquals(seed0, read(new NexmarkSource(spec.withSeed(42)), 0, 1000));
  }

  @Test void shouldFollowTheSpecificationsProportionsAndOrder() {
    long events = 100_000;
    assertEquals(2_000, source(NexmarkEventType.PERSON, events).latestOffset());
    assertEquals(6_000, source(NexmarkEventType.AUCTION, events).latestOffset());
    assertEquals(92_000, source(NexmarkEventType.BID, events).latestOffset());
    // A bound that cuts a group: events 0..53 are groups 0 and events 50 (person), 51..53
    // (auctions).
    assertEquals(2, source(NexmarkEventType.PERSON, 54).latestOffset());
    assertEquals(6, source(NexmarkEventType.AUCTION, 54).latestOffset());
    assertEquals(46, source(NexmarkEventType.BID, 54).latestOffset());
    NexmarkGenerator.Cursor c = NexmarkSpec.of("X", NexmarkEventType.BID).generator().cursor();
    for (long n = 0; n < 1000; n++) {
      c.moveToEvent(n);
      long inGroup = n % 50;
      NexmarkEventType expected = inGroup == 0 ? NexmarkEventType.PERSON
          : inGroup < 4 ? NexmarkEventType.AUCTION : NexmarkEventType.BID;
      assertEquals(expected, c.type(), "event " + n);
      for (NexmarkEventType t : NexmarkEventType.values()) {
        if (t == expected) {
          long ordinal = t.countBefore(n);
          assertEquals(n, t.eventNumber(ordinal), "the " + ordinal + "th " + t);
        }
      }
    }
  }

  @Test void shouldNumberPeopleAndAuctionsFrom1000AndKeepTheirFieldsInRange() {
    long events = 200_000;
    List<List<Object>> people = read(source(NexmarkEventType.PERSON, events), 0, 4_000);
    for (int i = 0; i < people.size(); i++) {
      List<Object> p = people.get(i);
      assertEquals(1000L + i, p.get(0));
      assertEquals(BASE + (long) i * 50 * 1000 / NexmarkSpec.DEFAULT_EVENT_TIME_RATE, p.get(6),
          "person " + i + " is event " + i * 50L);
      assertTrue(((String) p.get(2)).matches("[a-z]{7}@[a-z]{5}\\.com"), p.toString());
      assertTrue(((String) p.get(3)).matches("\\d{4} \\d{4} \\d{4} \\d{4}"), p.toString());
    }
    List<List<Object>> auctions = read(source(NexmarkEventType.AUCTION, events), 0, 12_000);
    Set<Object> categories = new HashSet<>();
    int hotSellers = 0;
    for (int i = 0; i < auctions.size(); i++) {
      List<Object> a = auctions.get(i);
      assertEquals(1000L + i, a.get(0));
      long lastPerson = i / 3;
      long seller = (Long) a.get(7) - 1000;
      assertTrue(seller >= 0 && seller <= lastPerson + NexmarkGenerator.ID_LEAD, a.toString());
      hotSellers += seller % 100 == 0 ? 1 : 0;
      categories.add(a.get(8));
      assertTrue((Long) a.get(4) >= (Long) a.get(3), "reserve >= initial bid: " + a);
      assertTrue((Long) a.get(6) > (Long) a.get(5), "expires after it starts: " + a);
    }
    assertEquals(Set.of(10L, 11L, 12L, 13L, 14L), categories);
    // 3 in 4 are hot (the first of a hundred), and a few random ones are too.
    assertBetween(0.74, 0.78, hotSellers / (double) auctions.size(), "hot sellers");
  }

  @Test void shouldMakeHalfTheBidsForHotAuctionsAndThreeQuartersByHotBidders() {
    List<List<Object>> bids = read(source(NexmarkEventType.BID, 200_000), 0, 100_000);
    int hotAuctions = 0;
    int hotBidders = 0;
    int hotChannels = 0;
    long minPrice = Long.MAX_VALUE;
    long maxPrice = 0;
    for (int k = 0; k < bids.size(); k++) {
      List<Object> b = bids.get(k);
      long n = NexmarkEventType.BID.eventNumber(k);
      long auction = (Long) b.get(0) - 1000;
      long lastAuction = n / 50 * 3 + 2;
      assertTrue(auction >= Math.max(0, lastAuction - 100)
          && auction <= lastAuction + NexmarkGenerator.ID_LEAD, "bid " + k + ": " + b);
      hotAuctions += auction == lastAuction / 100 * 100 ? 1 : 0;
      long bidder = (Long) b.get(1) - 1000;
      assertTrue(bidder >= 0 && bidder <= n / 50 + NexmarkGenerator.ID_LEAD, b.toString());
      hotBidders += bidder == n / 50 / 100 * 100 + 1 ? 1 : 0;
      String channel = (String) b.get(3);
      boolean hot = !channel.startsWith("channel-");
      hotChannels += hot ? 1 : 0;
      assertTrue(((String) b.get(4)).startsWith("https://www.nexmark.com/"), b.toString());
      minPrice = Math.min(minPrice, (Long) b.get(2));
      maxPrice = Math.max(maxPrice, (Long) b.get(2));
      assertEquals(BASE + n * 1000 / NexmarkSpec.DEFAULT_EVENT_TIME_RATE, b.get(5));
      assertEquals("", b.get(6));
    }
    assertBetween(0.49, 0.52, hotAuctions / (double) bids.size(), "hot auctions");
    assertBetween(0.74, 0.77, hotBidders / (double) bids.size(), "hot bidders");
    assertBetween(0.49, 0.51, hotChannels / (double) bids.size(), "hot channels");
    // round(10^(6u) * 100): from 100 to 100,000,000.
    assertTrue(minPrice >= 100 && minPrice < 110, "min price " + minPrice);
    assertTrue(maxPrice > 90_000_000 && maxPrice <= 100_000_000, "max price " + maxPrice);
  }

  private static void assertBetween(double low, double high, double actual, String what) {
    assertTrue(actual >= low && actual <= high, what + ": " + actual + " not in [" + low + ", "
        + high + "]");
  }

  @Test void shouldHoldTheDeclaredColumnsInTheDeclaredOrder() {
    NexmarkSource bids = new NexmarkSource(NexmarkSpec.of("BID", NexmarkEventType.BID)
        .withMaxEvents(1000).withColumns(List.of(5, 0, 3)));
    List<List<Object>> all = read(source(NexmarkEventType.BID, 1000), 0, 10);
    List<List<Object>> some = read(bids, 0, 10);
    for (int i = 0; i < 10; i++) {
      assertEquals(List.of(all.get(i).get(5), all.get(i).get(0), all.get(i).get(3)),
          some.get(i));
    }
  }

  @Test void shouldWriteTheSameValuesIntoVectorsAsIntoRows() {
    for (NexmarkEventType type : NexmarkEventType.values()) {
      NexmarkSource source = source(type, 30_000);
      long end = source.latestOffset();
      List<List<Object>> rows = read(source, 0, end);
      VectorType[] types = new VectorType[type.columns().size()];
      for (int i = 0; i < types.length; i++) {
        // Every other column has no vector: it is neither written nor generated.
        types[i] = i % 2 == 1 ? null
            : type.columns().get(i).type() == NexmarkColumn.Type.VARCHAR ? VectorType.STRING
            : VectorType.LONG;
      }
      VectorBatch batch = VectorBatch.of(types, 1000);
      List<List<Object>> fromVectors = new ArrayList<>();
      source.readVectors(0, end, batch, b -> {
        for (int r = 0; r < b.size(); r++) {
          List<Object> row = new ArrayList<>();
          for (int i = 0; i < types.length; i++) {
            ColumnVector v = b.column(i);
            row.add(v == null ? null : types[i] == VectorType.STRING ? v.string(r) : v.longs[r]);
          }
          fromVectors.add(row);
        }
      });
      assertEquals(rows.size(), fromVectors.size());
      for (int r = 0; r < rows.size(); r++) {
        for (int i = 0; i < types.length; i += 2) {
          assertEquals(rows.get(r).get(i), fromVectors.get(r).get(i), type + " row " + r);
        }
      }
    }
  }

  @Test void shouldLimitABatchAndRefuseOffsetsPastTheEnd() {
    NexmarkSource bids = new NexmarkSource(NexmarkSpec.of("BID", NexmarkEventType.BID)
        .withMaxEvents(10_000).withRowsPerBatch(1000));
    assertEquals(9_200, bids.latestOffset());
    assertEquals(1000, bids.latestOffset(0));
    assertEquals(9_200, bids.latestOffset(8_500));
    assertEquals(OptionalLong.empty(), bids.millisUntilAvailable(9_201));
    var e = assertThrows(IllegalArgumentException.class, () -> read(bids, 9_000, 9_201));
    assertEquals("NexmarkSource[BID, bid] has no offset 9201: it ends after 9200 rows",
        e.getMessage());
  }

  @Test void shouldMakeEventsAvailableAtTheirPace() {
    // 1000 events a second: global event n is due n ms after the source was created.
    NexmarkSource bids = new NexmarkSource(NexmarkSpec.of("BID", NexmarkEventType.BID)
        .withEventsPerSecond(1000), clock::get);
    assertEquals(0, bids.latestOffset(), "event 0 is a person");
    assertEquals(OptionalLong.of(4), bids.millisUntilAvailable(1), "the first bid is event 4");
    clock.addAndGet(4);
    assertEquals(1, bids.latestOffset());
    assertEquals(OptionalLong.of(0), bids.millisUntilAvailable(1));
    clock.addAndGet(96);
    // Events 0..100 are due: 46 bids in 0..49, 46 in 50..99, none at 100 (a person).
    assertEquals(92, bids.latestOffset());
    assertEquals(OptionalLong.of(4), bids.millisUntilAvailable(93), "event 104");
    // With a pace, event times follow it: bid 0 (event 4) at 4 ms.
    assertEquals(BASE + 4, read(bids, 0, 1).get(0).get(5));
  }
}
