package dev.freshet.executor.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** {@link SequenceSource}: its rows, offsets, batch limit and pace, on a manual clock. */
class SequenceSourceTest {
  /** A manual clock in milliseconds; it starts far from 0 so that only differences count. */
  private final AtomicLong clock = new AtomicLong(1_000_000);

  private static List<List<Object>> read(Source source, long start, long end) {
    List<List<Object>> rows = new ArrayList<>();
    source.readRange(start, end, row -> rows.add(Arrays.asList(row)));
    return rows;
  }

  private static List<Object> row(Object... values) {
    return Arrays.asList(values);
  }

  @Test void shouldGenerateRowNumbersWhenTheSequenceHasOneColumn() {
    SequenceSource nums = new SequenceSource(SequenceSpec.bounded("NUMS", 5));
    assertEquals("SequenceSource[NUMS]", nums.description());
    assertEquals(5, nums.latestOffset());
    assertEquals(List.of(row(0L), row(1L), row(2L), row(3L), row(4L)), read(nums, 0, 5));
    assertEquals(List.of(row(2L), row(3L)), read(nums, 2, 4));
    assertEquals(List.of(), read(nums, 5, 5));
  }

  @Test void shouldGenerateTheSameRowsWhenARangeIsReadAgain() {
    SequenceSpec spec = SequenceSpec.bounded("NUMS", 1000).withColumns(1, OptionalInt.of(0))
        .withRowsPerSecond(7).withStartTimeMs(1_767_225_600_000L);
    SequenceSource source = new SequenceSource(spec, clock::get);
    List<List<Object>> first = read(source, 100, 400);
    assertEquals(first, read(source, 100, 400));
    // Another source of the same spec, later, also: the rows depend on the offsets only.
    clock.addAndGet(123_456);
    assertEquals(first, read(new SequenceSource(spec, clock::get), 100, 400));
    // And reading in pieces gives the same rows as reading at once.
    List<List<Object>> pieces = new ArrayList<>(read(source, 100, 250));
    pieces.addAll(read(source, 250, 400));
    assertEquals(first, pieces);
  }

  @Test void shouldHandOutAFreshArrayForEveryRow() {
    List<Object[]> rows = new ArrayList<>();
    new SequenceSource(SequenceSpec.bounded("NUMS", 3)).readRange(0, 3, rows::add);
    assertNotSame(rows.get(0), rows.get(1));
    assertEquals(List.of(0L, 1L, 2L), rows.stream().map(r -> r[0]).toList());
  }

  @Test void shouldDeriveEventTimeFromTheRowNumberAndThePace() {
    SequenceSpec paced = SequenceSpec.bounded("T", 10).withColumns(0, OptionalInt.of(1))
        .withRowsPerSecond(4).withStartTimeMs(10_000);
    // 4 rows a second: a row every 250 ms.
    assertEquals(List.of(row(0L, 10_000L), row(1L, 10_250L), row(2L, 10_500L), row(3L, 10_750L),
        row(4L, 11_000L), row(5L, 11_250L)), read(new SequenceSource(paced, clock::get), 0, 6));
    // 3 rows a second: rounded down to the millisecond.
    assertEquals(List.of(row(0L, 10_000L), row(1L, 10_333L), row(2L, 10_666L), row(3L, 11_000L)),
        read(new SequenceSource(paced.withRowsPerSecond(3), clock::get), 0, 4));
    // Without a pace, a row per millisecond; the timestamp may come first.
    SequenceSpec unpaced = SequenceSpec.bounded("T", 3).withColumns(1, OptionalInt.of(0));
    assertEquals(List.of(row(0L, 0L), row(1L, 1L), row(2L, 2L)),
        read(new SequenceSource(unpaced), 0, 3));
    // Several rows share a millisecond when the pace is above 1000 a second.
    assertEquals(List.of(row(2_499L, 10_999L), row(2_500L, 11_000L)),
        read(new SequenceSource(paced.withEnd(5000).withRowsPerSecond(2500), clock::get), 2_499,
            2_501));
  }

  @Test void shouldLimitEachBatchToRowsPerBatch() {
    SequenceSource nums = new SequenceSource(SequenceSpec.bounded("NUMS", 100)
        .withRowsPerBatch(30));
    assertEquals(100, nums.latestOffset());
    assertEquals(30, nums.latestOffset(0));
    assertEquals(60, nums.latestOffset(30));
    assertEquals(100, nums.latestOffset(90));
    assertEquals(100, nums.latestOffset(100));
    // Past the end (a checkpoint of a longer sequence) nothing is admitted.
    assertEquals(100, nums.latestOffset(120));
    assertEquals(SequenceSpec.DEFAULT_ROWS_PER_BATCH,
        new SequenceSource(SequenceSpec.bounded("BIG", 5_000_000)).latestOffset(0));
  }

  @Test void shouldMakeRowsAvailableAsTheClockAdvancesWhenPaced() {
    SequenceSource ticks = new SequenceSource(SequenceSpec.paced("TICKS", 4), clock::get);
    // Row i is due i * 250 ms after creation; row 0 at once.
    assertEquals(1, ticks.latestOffset());
    assertEquals(OptionalLong.of(0), ticks.millisUntilAvailable(1));
    assertEquals(OptionalLong.of(250), ticks.millisUntilAvailable(2));
    assertEquals(OptionalLong.of(750), ticks.millisUntilAvailable(4));
    clock.addAndGet(249);
    assertEquals(1, ticks.latestOffset());
    assertEquals(OptionalLong.of(1), ticks.millisUntilAvailable(2));
    clock.addAndGet(1);
    assertEquals(2, ticks.latestOffset());
    assertEquals(OptionalLong.of(0), ticks.millisUntilAvailable(2));
    clock.addAndGet(10_000 - 250);
    assertEquals(41, ticks.latestOffset());
    // The pace does not hold back what a batch reads: a re-run batch must get its rows.
    assertEquals(List.of(row(99L)), read(ticks, 99, 100));
  }

  @Test void shouldStopAtTheEndWhenPacedAndBounded() {
    SequenceSource source = new SequenceSource(SequenceSpec.paced("S", 1000).withEnd(3)
        .withRowsPerBatch(2), clock::get);
    assertEquals(1, source.latestOffset());
    assertEquals(OptionalLong.of(2), source.millisUntilAvailable(3));
    assertEquals(OptionalLong.empty(), source.millisUntilAvailable(4));
    clock.addAndGet(60_000);
    assertEquals(3, source.latestOffset());
    assertEquals(2, source.latestOffset(0));
    assertEquals(3, source.latestOffset(2));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> read(source, 2, 4));
    assertEquals("SequenceSource[S] has no offset 4: it ends after 3 rows", e.getMessage());
  }

  @Test void shouldKeepPaceArithmeticExactWhenThePaceIsHighAndTheTimeLong() {
    SequenceSource fast = new SequenceSource(
        SequenceSpec.paced("FAST", SequenceSpec.MAX_ROWS_PER_SECOND), clock::get);
    assertEquals(1_000_000, fast.latestOffset());
    long tenYearsMs = 10L * 365 * 24 * 3600 * 1000;
    clock.addAndGet(tenYearsMs);
    assertEquals((tenYearsMs + 1) * 1_000_000, fast.latestOffset());
    SequenceSource slow = new SequenceSource(SequenceSpec.paced("SLOW", 1), clock::get);
    clock.addAndGet(1999);
    assertEquals(2, slow.latestOffset());
    assertEquals(OptionalLong.of(1), slow.millisUntilAvailable(3));
  }

  @Test void shouldRejectSpecsThatAreNotSequences() {
    assertEquals("sequence S needs an end or a pace", assertThrows(
        IllegalArgumentException.class, () -> new SequenceSpec("S", 0, OptionalInt.empty(),
            OptionalLong.empty(), OptionalLong.empty(), 1, 0)).getMessage());
    assertEquals("sequence S: end must not be negative: -1", assertThrows(
        IllegalArgumentException.class, () -> SequenceSpec.bounded("S", -1)).getMessage());
    assertThrows(IllegalArgumentException.class, () -> SequenceSpec.paced("S", 0));
    assertThrows(IllegalArgumentException.class,
        () -> SequenceSpec.paced("S", SequenceSpec.MAX_ROWS_PER_SECOND + 1));
    assertThrows(IllegalArgumentException.class, () -> SequenceSpec.paced("S", 1)
        .withRowsPerBatch(0));
    assertThrows(IllegalArgumentException.class, () -> SequenceSpec.paced("S", 1)
        .withStartTimeMs(SequenceSpec.MAX_START_TIME_MS + 1));
    assertThrows(IllegalArgumentException.class, () -> SequenceSpec.paced("S", 1)
        .withColumns(0, OptionalInt.of(0)));
    assertThrows(IllegalArgumentException.class, () -> SequenceSpec.paced("S", 1)
        .withColumns(1, OptionalInt.empty()));
    assertThrows(IllegalArgumentException.class, () -> new SequenceSource(
        SequenceSpec.bounded("S", 3)).readRange(2, 1, row -> { }));
  }
}
