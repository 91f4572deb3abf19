package dev.freshet.spark.source;

import org.apache.spark.sql.connector.read.streaming.Offset;

/**
 * Position in a Freshet stream as Spark's offset log records it: the stream's own offset, one
 * per INSERT statement, written as JSON {@code {"offset":3}}; 0 is "nothing yet".
 *
 * <pre>{@code
 * FreshetOffset end = new FreshetOffset(3);
 * end.json();                               // {"offset":3}
 * FreshetOffset.parse("CLICKS", end.json()).offset();  // 3
 * }</pre>
 */
final class FreshetOffset extends Offset {
  private static final String PREFIX = "{\"offset\":";
  private final long offset;

  FreshetOffset(long offset) {
    if (offset < 0) {
      throw new IllegalArgumentException("negative offset " + offset);
    }
    this.offset = offset;
  }

  /**
   * The offset {@link #json} wrote; {@code stream} names the stream in the error.
   *
   * @throws FreshetSourceException if {@code json} is not one
   */
  static FreshetOffset parse(String stream, String json) {
    String text = json.replaceAll("\\s", "");
    if (text.startsWith(PREFIX) && text.endsWith("}")) {
      String digits = text.substring(PREFIX.length(), text.length() - 1);
      if (!digits.isEmpty() && digits.length() <= 18 && digits.chars().allMatch(Character::isDigit)) {
        return new FreshetOffset(Long.parseLong(digits));
      }
    }
    throw SourceErrors.badOffset(stream, json);
  }

  long offset() {
    return offset;
  }

  // Spark compares offsets by their JSON (Offset.equals), so this is all it needs.
  @Override public String json() {
    return PREFIX + offset + "}";
  }
}
