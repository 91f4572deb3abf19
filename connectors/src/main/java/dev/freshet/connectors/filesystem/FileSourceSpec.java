package dev.freshet.connectors.filesystem;

import static java.util.Objects.requireNonNull;

import dev.freshet.connectors.format.RecordFormat;
import dev.freshet.connectors.format.SourceColumn;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;

/**
 * What a file stream reads and how: the directory, how a line becomes a row, the most files one
 * batch takes, and how often the directory is listed.
 *
 * <pre>{@code
 * new FileSourceSpec("ORDERS", Path.of("/data/orders"), RecordFormat.CSV, columns, false,
 *     OptionalInt.of(10), Duration.ofSeconds(1));
 * }</pre>
 *
 * @param stream the stream's name, for messages
 * @param directory the directory whose files are read (not its subdirectories)
 * @param format how one line becomes a row
 * @param columns the stream's columns
 * @param ignoreParseErrors whether a line that cannot be read is skipped and counted rather
 *     than failing the query
 * @param maxFilesPerBatch the most files one batch reads, if limited (Spark's
 *     {@code maxFilesPerTrigger})
 * @param monitorInterval how often the directory is listed when no change was signalled
 * @param followLinks whether an entry of the directory that is a symbolic link is read where it
 *     leads; when not (a server's stream, whose link could lead out of the directories the
 *     operator allows), such entries are skipped and files are opened without following a link
 */
public record FileSourceSpec(String stream, Path directory, RecordFormat format,
    List<SourceColumn> columns, boolean ignoreParseErrors, OptionalInt maxFilesPerBatch,
    Duration monitorInterval, boolean followLinks) {
  public FileSourceSpec {
    requireNonNull(stream, "stream");
    directory = directory.toAbsolutePath().normalize();
    requireNonNull(format, "format");
    columns = List.copyOf(columns);
    requireNonNull(maxFilesPerBatch, "maxFilesPerBatch");
    requireNonNull(monitorInterval, "monitorInterval");
  }

  /** A spec whose directory's links are followed, as its process would follow them. */
  public FileSourceSpec(String stream, Path directory, RecordFormat format,
      List<SourceColumn> columns, boolean ignoreParseErrors, OptionalInt maxFilesPerBatch,
      Duration monitorInterval) {
    this(stream, directory, format, columns, ignoreParseErrors, maxFilesPerBatch,
        monitorInterval, true);
  }
}
