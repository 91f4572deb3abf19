package dev.freshet.executor.checkpoint;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.freshet.executor.storage.DurableFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;

/**
 * The {@code metadata} file at the root of a checkpoint, which holds the query's id (Spark's
 * {@code StreamMetadata}). The id is made once, when the checkpoint is new, and stays the same
 * across restarts, so that state stores and sinks can tell the query's runs apart from other
 * queries.
 *
 * <p>File format, as Spark's: one JSON object and no version line,
 * {@code {"id":"7b0d9c2e-5d9e-4c55-9a3c-3f3f2f1f6b6a"}}, then a line with its CRC32C
 * ({@link FileChecksum}), which Spark does not write. Fields other than {@code id} are
 * ignored, so that a later Freshet can add some.
 *
 * <pre>{@code
 * String queryId = CheckpointMetadata.loadOrCreateQueryId(Path.of("/var/freshet/q1"));
 * }</pre>
 */
public final class CheckpointMetadata {
  /** The file's name in the checkpoint root. */
  public static final String FILE_NAME = "metadata";
  private static final String CONTENT = "the query metadata";

  private CheckpointMetadata() {
  }

  /**
   * The id of the query whose checkpoint is {@code checkpointRoot}; a new random UUID, written
   * atomically, if the checkpoint has none yet (creating the directory if needed).
   *
   * @throws CheckpointException if the file is not as described
   * @throws dev.freshet.executor.storage.StorageException if it cannot be read or written
   */
  public static String loadOrCreateQueryId(Path checkpointRoot) {
    requireNonNull(checkpointRoot, "checkpointRoot");
    Path file = checkpointRoot.resolve(FILE_NAME);
    DurableFiles.createDirectories(checkpointRoot);
    Optional<String> id = read(file);
    if (id.isEmpty()) {
      String created = UUID.randomUUID().toString();
      String text = Json.write(json -> {
        json.writeStartObject();
        json.writeStringField("id", created);
        json.writeEndObject();
      });
      // If another run created the file since we looked, its id is the query's id.
      id = DurableFiles.createAtomically(file,
          FileChecksum.seal(text.getBytes(StandardCharsets.UTF_8)))
          ? Optional.of(created) : read(file);
    }
    DurableFiles.deleteTempFiles(checkpointRoot, FILE_NAME);
    return id.orElseThrow(() -> CheckpointException.missing(file,
        "it was there when this run tried to create it"));
  }

  private static Optional<String> read(Path file) {
    return DurableFiles.readIfExists(file).map(bytes -> {
      String text = new String(FileChecksum.open(bytes, file), StandardCharsets.UTF_8);
      if (text.isBlank()) {
        throw CheckpointException.corrupt(file, CONTENT + " is empty");
      }
      JsonNode metadata = Json.parseObject(text, file, CONTENT);
      String id = Json.stringField(metadata, "id", file, CONTENT);
      if (id.isEmpty()) {
        throw CheckpointException.corrupt(file, CONTENT + " has an empty \"id\"");
      }
      return id;
    });
  }
}
