package dev.freshet.engine;

import dev.freshet.connectors.nexmark.NexmarkColumn;
import dev.freshet.connectors.nexmark.NexmarkEventType;
import dev.freshet.connectors.nexmark.NexmarkSource;
import dev.freshet.connectors.nexmark.NexmarkSpec;
import dev.freshet.engine.errors.StreamErrors;
import dev.freshet.planner.SqlTypes;
import dev.freshet.planner.catalog.StreamTable;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;

/**
 * The {@code nexmark} connector of {@code CREATE STREAM}: checks the stream's columns and options
 * and describes the {@link NexmarkSource} that generates one Nexmark event type.
 *
 * <pre>{@code
 * CREATE STREAM bid (auction BIGINT, price BIGINT, date_time TIMESTAMP(3),
 *   WATERMARK FOR date_time AS date_time - INTERVAL '5' SECOND)
 * WITH (connector = 'nexmark', 'event.type' = 'bid', 'max-events' = '10000000',
 *   'events.per-second' = '100000', 'seed' = '7', 'rows.per.batch' = '500000',
 *   'start.time' = '1767225600000')
 * }</pre>
 *
 * <p>A stream declares any of its type's columns ({@link NexmarkEventType#columns()}), in any
 * order, by their snake-case or camel-case name, each with the generator's type (BIGINT, VARCHAR
 * or TIMESTAMP, of any precision and nullability). It keeps nothing: its rows are generated when a
 * batch reads them, so a stream declared again with the same options gives a resumed query the
 * same rows, and streams of the three types with the same seed, start time and rate are views of
 * one event sequence.
 */
final class NexmarkConnector {
  /** Option: {@code person}, {@code auction} or {@code bid}; required. */
  static final String EVENT_TYPE = "event.type";
  /** Option: global events (of all types) a second, counted from {@code CREATE STREAM}. */
  static final String EVENTS_PER_SECOND = "events.per-second";
  /** Option: the number of global events (of all types); without it there is no end. */
  static final String MAX_EVENTS = "max-events";
  /** Option: the generator's seed. */
  static final String SEED = "seed";
  /** Option: the most rows one micro-batch takes. */
  static final String ROWS_PER_BATCH = "rows.per.batch";
  /** Option: the event time of global event 0, in epoch milliseconds. */
  static final String START_TIME = "start.time";
  /** Every option the connector accepts, in the order messages list them. */
  static final List<String> OPTIONS = List.of(StreamTable.CONNECTOR_OPTION, EVENT_TYPE,
      EVENTS_PER_SECOND, MAX_EVENTS, SEED, ROWS_PER_BATCH, START_TIME);

  private NexmarkConnector() {
  }

  /**
   * The generator that stream {@code stream} declares.
   *
   * @throws SQLException {@code 42000} naming the column or option that is wrong and what is
   *     allowed
   */
  static NexmarkSpec spec(String stream, RelDataType rowType, Map<String, String> options)
      throws SQLException {
    StreamConnector.NEXMARK.checkOptions(stream, options);
    String typeText = options.get(EVENT_TYPE);
    String typeExpected = "the event type the stream holds: 'person', 'auction' or 'bid'";
    if (typeText == null) {
      throw StreamErrors.badStreamOption(stream, EVENT_TYPE, "", typeExpected, null);
    }
    NexmarkEventType type = NexmarkEventType.named(typeText).orElseThrow(
        () -> StreamErrors.badStreamOption(stream, EVENT_TYPE, typeText, typeExpected, null));
    String declaration = type.columns().stream()
        .map(c -> c.sqlName() + " " + (c.type() == NexmarkColumn.Type.TIMESTAMP ? "TIMESTAMP(3)"
            : c.type().name()))
        .collect(Collectors.joining(", "));
    List<Integer> columns = new ArrayList<>();
    for (RelDataTypeField field : rowType.getFieldList()) {
      int generated = -1;
      for (int i = 0; i < type.columns().size(); i++) {
        if (type.columns().get(i).isNamed(field.getName())) {
          generated = i;
        }
      }
      if (generated < 0) {
        throw StreamErrors.nexmarkColumn(stream, type.text(), field.getName(),
            "is not a column of a " + type.text(), declaration);
      }
      if (columns.contains(generated)) {
        throw StreamErrors.nexmarkColumn(stream, type.text(), field.getName(), "is "
            + type.columns().get(generated).sqlName() + ", which is declared twice",
            declaration);
      }
      NexmarkColumn.Type expected = type.columns().get(generated).type();
      if (SqlTypes.of(field.getType()) != expected.sqlType()) {
        throw StreamErrors.nexmarkColumn(stream, type.text(), field.getName(), "is "
            + StreamDdl.typeName(field.getType()) + ", but the generator makes a "
            + (expected == NexmarkColumn.Type.TIMESTAMP ? "TIMESTAMP(3)" : expected.name()),
            declaration);
      }
      columns.add(generated);
    }
    OptionalLong eventsPerSecond = option(stream, options, EVENTS_PER_SECOND, 1,
        NexmarkSpec.MAX_EVENTS_PER_SECOND, "a whole number of events a second from 1 to "
            + NexmarkSpec.MAX_EVENTS_PER_SECOND + ", such as '10000'");
    OptionalLong maxEvents = option(stream, options, MAX_EVENTS, 0, Long.MAX_VALUE,
        "a whole number of events, 0 or more, such as '1000000'");
    long seed = option(stream, options, SEED, Long.MIN_VALUE, Long.MAX_VALUE,
        "a whole number, such as '42'").orElse(0);
    long rowsPerBatch = option(stream, options, ROWS_PER_BATCH, 1, Long.MAX_VALUE,
        "a whole number of rows, 1 or more, such as '100000'")
        .orElse(NexmarkSpec.DEFAULT_ROWS_PER_BATCH);
    // Bounded so that the last event time of any run stays a TIMESTAMP: a year to 9000.
    long startTimeMs = option(stream, options, START_TIME, 0, 221_845_392_000_000L,
        "the event time of the first event in milliseconds since 1970-01-01 00:00:00 UTC, from"
            + " 0 to 221845392000000 (year 9000), such as '1767225600000'")
        .orElse(NexmarkSpec.DEFAULT_FIRST_EVENT_TIME_MS);
    if (maxEvents.isEmpty() && eventsPerSecond.isEmpty()) {
      throw StreamErrors.nexmarkWithoutEndOrPace(stream);
    }
    return new NexmarkSpec(stream, type, columns, seed, startTimeMs, eventsPerSecond, maxEvents,
        rowsPerBatch);
  }

  /** Option {@code key} as a whole number from {@code min} to {@code max}, if given. */
  private static OptionalLong option(String stream, Map<String, String> options, String key,
      long min, long max, String expected) throws SQLException {
    String text = options.get(key);
    if (text == null) {
      return OptionalLong.empty();
    }
    long value;
    try {
      value = Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw StreamErrors.badStreamOption(stream, key, text, expected, e);
    }
    if (value < min || value > max) {
      throw StreamErrors.badStreamOption(stream, key, text, expected, null);
    }
    return OptionalLong.of(value);
  }
}
