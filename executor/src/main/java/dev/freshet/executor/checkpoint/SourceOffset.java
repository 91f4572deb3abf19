package dev.freshet.executor.checkpoint;

import static java.util.Objects.requireNonNull;

import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * One source's offset as the {@link OffsetLog} records it: JSON text, as Spark's
 * {@code Offset.json}. A source whose offsets count rows or statements records a whole number
 * ({@code 42}); a source with an offset per partition records an object, as Spark's Kafka source
 * does ({@code {"orders":{"0":42,"1":17}}}).
 *
 * <pre>{@code
 * SourceOffset.of(42).asLong();                              // OptionalLong[42]
 * new SourceOffset("{\"orders\":{\"0\":42}}").asLong();      // empty: the source parses it
 * }</pre>
 *
 * @param json the offset as one line of JSON: a non-negative whole number or an object
 */
public record SourceOffset(String json) {
  // Before ZERO, whose construction uses it.
  private static final Pattern WHOLE_NUMBER = Pattern.compile("0|[1-9][0-9]{0,18}");

  /** Offset 0, where every source starts: "nothing yet". */
  public static final SourceOffset ZERO = of(0);

  public SourceOffset {
    requireNonNull(json, "json");
    if (json.indexOf('\n') >= 0 || json.indexOf('\r') >= 0) {
      throw new IllegalArgumentException("a source offset is one line of JSON: " + json);
    }
    if (!json.startsWith("{") && asLong(json).isEmpty()) {
      throw new IllegalArgumentException(
          "a source offset is a non-negative whole number or a JSON object: " + json);
    }
  }

  /** The offset of a source whose offsets are whole numbers. */
  public static SourceOffset of(long offset) {
    if (offset < 0) {
      throw new IllegalArgumentException("source offsets must not be negative: " + offset);
    }
    return new SourceOffset(Long.toString(offset));
  }

  /** The offset as a whole number, if it is one; empty for an object. */
  public OptionalLong asLong() {
    return asLong(json);
  }

  private static OptionalLong asLong(String json) {
    if (!WHOLE_NUMBER.matcher(json).matches()) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(Long.parseLong(json));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  @Override public String toString() {
    return json;
  }
}
