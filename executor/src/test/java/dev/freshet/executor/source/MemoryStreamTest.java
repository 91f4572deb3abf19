package dev.freshet.executor.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Tests {@link MemoryStream}: one offset per {@code addData}, replayable ranges, listeners. */
class MemoryStreamTest {
  private final MemoryStream stream = new MemoryStream("clicks", 2);

  @Test void shouldAddOneOffsetWhenAddingData() {
    assertEquals(0, stream.latestOffset());

    assertEquals(1, stream.addData(data(row("a", 1.0), row("b", 2.0), row("c", 3.0))));
    assertEquals(1, stream.latestOffset());
    assertEquals(2, stream.addData(data(row("d", 4.0))));
    assertEquals(3, stream.addData(data(row("e", 5.0), row("f", 6.0))));
    assertEquals(3, stream.latestOffset());
  }

  @Test void shouldReturnRowsOfRangeInOrderWhenReading() {
    stream.addData(data(row("a", 1.0), row("b", 2.0)));
    stream.addData(data(row("c", 3.0)));
    stream.addData(data(row("d", 4.0), row("e", 5.0), row("f", 6.0)));

    assertEquals(List.of(), read(0, 0));
    assertEquals(List.of(List.of("a", 1.0), List.of("b", 2.0)), read(0, 1));
    assertEquals(List.of(List.of("c", 3.0)), read(1, 2));
    assertEquals(List.of(List.of("c", 3.0), List.of("d", 4.0), List.of("e", 5.0),
        List.of("f", 6.0)), read(1, 3));
    assertEquals(List.of(), read(2, 2));
    assertEquals(List.of(), read(3, 3));
    assertEquals(List.of(List.of("a", 1.0), List.of("b", 2.0), List.of("c", 3.0),
        List.of("d", 4.0), List.of("e", 5.0), List.of("f", 6.0)), read(0, 3));
    assertEquals(read(0, 3), read(0, 3), "a range always returns the same rows");
  }

  @Test void shouldKeepRowsWhenCallerChangesArraysAfterAdding() {
    Object[] r = row("a", 1.0);
    stream.addData(new ArrayList<>(List.<Object[]>of(r)));
    r[0] = "changed";

    assertEquals(List.of(List.of("a", 1.0)), read(0, 1));
  }

  @Test void shouldThrowWhenRangeIsBad() {
    stream.addData(data(row("a", 1.0)));
    stream.addData(data(row("b", 2.0)));

    IllegalArgumentException negative =
        assertThrows(IllegalArgumentException.class, () -> read(-1, 1));
    assertEquals("bad offset range (-1, 1]", negative.getMessage());
    IllegalArgumentException backwards =
        assertThrows(IllegalArgumentException.class, () -> read(2, 1));
    assertEquals("bad offset range (2, 1]", backwards.getMessage());
    IllegalArgumentException beyond =
        assertThrows(IllegalArgumentException.class, () -> read(1, 3));
    assertEquals("MemoryStream[clicks] has no offset 3; latest is 2", beyond.getMessage());
    assertThrows(IllegalArgumentException.class, () -> read(3, 3));
    assertThrows(IllegalArgumentException.class, () -> new MemoryStream("empty", 1)
        .readRange(0, 1, row -> { }));
  }

  @Test void shouldNotifyListenersWhenDataIsAdded() throws Exception {
    AtomicInteger first = new AtomicInteger();
    AtomicInteger second = new AtomicInteger();
    AutoCloseable firstHandle = stream.onNewData(first::incrementAndGet);
    stream.onNewData(() -> {
      // The offset is visible by the time a listener runs.
      assertEquals(second.get() + 1, stream.latestOffset());
      second.incrementAndGet();
    });

    stream.addData(data(row("a", 1.0), row("b", 2.0)));
    assertEquals(1, first.get());
    assertEquals(1, second.get());
    stream.addData(data(row("c", 3.0)));
    assertEquals(2, first.get());
    assertEquals(2, second.get());

    firstHandle.close();
    stream.addData(data(row("d", 4.0)));
    assertEquals(2, first.get());
    assertEquals(3, second.get());
    firstHandle.close();
  }

  @Test void shouldAddNoOffsetWhenDataIsEmpty() {
    AtomicInteger notified = new AtomicInteger();
    stream.onNewData(notified::incrementAndGet);

    assertEquals(0, stream.addData(List.of()));
    assertEquals(0, stream.latestOffset());
    stream.addData(data(row("a", 1.0)));
    assertEquals(1, stream.addData(List.of()));
    assertEquals(1, stream.latestOffset());
    assertEquals(1, notified.get());
    assertEquals(List.of(List.of("a", 1.0)), read(0, 1));
  }

  @Test void shouldThrowWhenColumnCountIsWrong() {
    AtomicInteger notified = new AtomicInteger();
    stream.onNewData(notified::incrementAndGet);

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> stream.addData(data(row("a", 1.0), row("b", 2.0, "extra"))));
    assertEquals("MemoryStream[clicks] expects 2 columns per row, got 3", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> stream.addData(data(row("a"))));

    assertEquals(0, stream.latestOffset(), "a rejected statement adds none of its rows");
    assertEquals(0, notified.get());
  }

  @Test void shouldDescribeItselfByNameWhenAsked() {
    assertEquals("MemoryStream[clicks]", stream.description());
  }

  private List<List<Object>> read(long start, long end) {
    List<List<Object>> rows = new ArrayList<>();
    stream.readRange(start, end, r -> rows.add(Arrays.asList(r.clone())));
    return rows;
  }

  private static List<Object[]> data(Object[]... rows) {
    return List.of(rows);
  }

  private static Object[] row(Object... values) {
    return values;
  }
}
