package dev.freshet.executor.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;

/**
 * Completion log of a streaming query: {@code commits/N} records that batch {@code N} finished,
 * written after the sink took its output (Spark's {@code CommitLog}). A batch with an offsets
 * entry and no commit entry is re-run on restart.
 *
 * <p>File format, as Spark's, with no final newline:
 * <pre>
 * v1
 * {"nextBatchWatermarkMs":15000}
 * </pre>
 * Unlike Spark, which reads a file without the JSON line as watermark 0, the line is required:
 * Freshet always writes it, so its absence means the file was cut short.
 *
 * <pre>{@code
 * CommitLog commits = new CommitLog(root.resolve("commits"));
 * commits.add(7, new CommitMetadata(15_000));
 * }</pre>
 */
public final class CommitLog extends MetadataLog<CommitMetadata> {
  /** The version this log writes and the newest it reads. */
  public static final int VERSION = 1;
  private static final String METADATA = "line 2 (the commit metadata)";

  /** Opens the log in {@code directory}, normally {@code <checkpoint>/commits}. */
  public CommitLog(Path directory) {
    super(directory, VERSION);
  }

  @Override String format(CommitMetadata entry) {
    return Json.write(json -> {
      json.writeStartObject();
      json.writeNumberField("nextBatchWatermarkMs", entry.nextBatchWatermarkMs());
      json.writeEndObject();
    });
  }

  @Override CommitMetadata parse(List<String> lines, Path file) {
    if (lines.isEmpty()) {
      throw CheckpointException.corrupt(file, METADATA + " is missing");
    }
    if (lines.size() > 1) {
      throw CheckpointException.corrupt(file, "it has " + (lines.size() + 1)
          + " lines; a commit has 2");
    }
    JsonNode metadata = Json.parseObject(lines.get(0), file, METADATA);
    return new CommitMetadata(Json.longField(metadata, "nextBatchWatermarkMs", file, METADATA));
  }
}
