package dev.freshet.executor.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Write-ahead log of a streaming query: {@code offsets/N} records what batch {@code N} reads
 * before it runs (Spark's {@code OffsetSeqLog}).
 *
 * <p>File format, as Spark's, with no final newline:
 * <pre>
 * v1
 * {"batchWatermarkMs":15000,"batchTimestampMs":1700000000123,"conf":{"state.partitions":"4"}}
 * 42
 * -
 * </pre>
 * Line 2 is the {@link OffsetSeq}'s metadata with the conf sorted by key; then one line per
 * source with its offset as JSON (a number, or an object such as Spark's Kafka offsets
 * {@code {"orders":{"0":42,"1":17}}}), or {@code -} if it has none.
 *
 * <pre>{@code
 * OffsetLog offsets = new OffsetLog(root.resolve("offsets"));
 * offsets.add(0, new OffsetSeq(0, 1_700_000_000_123L, Map.of(OffsetSeq.STATE_PARTITIONS, "4"),
 *     List.of(SourceOffset.of(42))));
 * }</pre>
 */
public final class OffsetLog extends MetadataLog<OffsetSeq> {
  /** The version this log writes and the newest it reads. */
  public static final int VERSION = 1;
  /** The line of a source without an offset (Spark's {@code SERIALIZED_VOID_OFFSET}). */
  private static final String NO_OFFSET = "-";
  private static final Pattern OFFSET = Pattern.compile("0|[1-9][0-9]{0,18}");
  private static final String METADATA = "line 2 (the batch metadata)";

  /** Opens the log in {@code directory}, normally {@code <checkpoint>/offsets}. */
  public OffsetLog(Path directory) {
    super(directory, VERSION);
  }

  @Override String format(OffsetSeq entry) {
    StringBuilder text = new StringBuilder(Json.write(json -> {
      json.writeStartObject();
      json.writeNumberField("batchWatermarkMs", entry.batchWatermarkMs());
      json.writeNumberField("batchTimestampMs", entry.batchTimestampMs());
      json.writeObjectFieldStart("conf");
      for (Map.Entry<String, String> setting : entry.conf().entrySet()) {
        json.writeStringField(setting.getKey(), setting.getValue());
      }
      json.writeEndObject();
      json.writeEndObject();
    }));
    for (SourceOffset offset : entry.offsets()) {
      text.append('\n').append(offset == null ? NO_OFFSET : offset.json());
    }
    return text.toString();
  }

  @Override OffsetSeq parse(List<String> lines, Path file) {
    if (lines.isEmpty()) {
      throw CheckpointException.corrupt(file, METADATA + " is missing");
    }
    JsonNode metadata = Json.parseObject(lines.get(0), file, METADATA);
    long watermark = Json.longField(metadata, "batchWatermarkMs", file, METADATA);
    long timestamp = Json.longField(metadata, "batchTimestampMs", file, METADATA);
    Map<String, String> conf = Json.stringMapField(metadata, "conf", file, METADATA);
    List<SourceOffset> offsets = new ArrayList<>();
    for (int i = 1; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.equals(NO_OFFSET)) {
        offsets.add(null);
        continue;
      }
      if (line.startsWith("{")) {
        // Checked to be JSON here; what its fields mean only the source knows.
        Json.parseObject(line, file, "line " + (i + 2) + " (a source offset)");
        offsets.add(new SourceOffset(line));
        continue;
      }
      long offset;
      try {
        offset = OFFSET.matcher(line).matches() ? Long.parseLong(line) : -1;
      } catch (NumberFormatException e) {
        offset = -1;
      }
      if (offset < 0) {
        throw CheckpointException.corrupt(file, "line " + (i + 2)
            + " is not a source offset (a non-negative whole number, a JSON object, or -): "
            + MetadataLog.quote(line));
      }
      offsets.add(SourceOffset.of(offset));
    }
    return new OffsetSeq(watermark, timestamp, conf, offsets);
  }
}
