package dev.freshet.engine;

import dev.freshet.connectors.filesystem.FileSourceSpec;
import dev.freshet.connectors.format.RecordFormat;
import dev.freshet.connectors.format.SourceColumn;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.errors.StreamErrors;
import dev.freshet.engine.security.ConnectorPolicy;
import dev.freshet.planner.catalog.StreamTable;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;

/**
 * The {@code filesystem} connector of {@code CREATE STREAM}: a directory whose files are read
 * once each as they appear, a row per line (Spark's file source; options named as Flink SQL's
 * filesystem connector and Freshet's kafka connector name them).
 *
 * <pre>{@code
 * CREATE STREAM orders (id BIGINT, item VARCHAR, qty INTEGER)
 * WITH (connector = 'filesystem', 'path' = '/data/orders', 'format' = 'csv',
 *     'source.max-files-per-batch' = '10', 'format.ignore-parse-errors' = 'true')
 * }</pre>
 *
 * <p>The directory must exist when the stream is created. On a server it must be below a
 * directory the operator allows ({@link ConnectorPolicy#fileDirectory}), checked before it is
 * looked at, and is read at its real path, without following a link in it. How files are found,
 * taken and read is {@code FileQueryReader}'s to say (executor,
 * {@code dev.freshet.connectors.filesystem}).
 */
final class FileSystemConnector {
  static final String PATH = "path";
  static final String FORMAT = "format";
  static final String MAX_FILES_PER_BATCH = "source.max-files-per-batch";
  static final String MONITOR_INTERVAL = "source.monitor-interval";
  static final String IGNORE_PARSE_ERRORS = "format.ignore-parse-errors";
  /** Every option, in the order messages list them. */
  static final List<String> OPTIONS = List.of(StreamTable.CONNECTOR_OPTION, PATH, FORMAT,
      MAX_FILES_PER_BATCH, MONITOR_INTERVAL, IGNORE_PARSE_ERRORS);
  /**
   * How often the directory is listed when the file system reported no change: a safety net,
   * since a new name is normally reported at once.
   */
  static final Duration DEFAULT_MONITOR_INTERVAL = Duration.ofSeconds(1);

  private FileSystemConnector() {
  }

  /**
   * The directory reader that stream {@code stream} declares.
   *
   * @param options the {@code WITH} options, keys in lower case
   * @param policy where the engine's connectors may read
   * @throws SQLException {@code 42000} naming the option or column that is wrong and what is
   *     allowed; {@code 42501} if the policy does not allow the directory
   */
  static FileSourceSpec spec(String stream, RelDataType rowType, Map<String, String> options,
      ConnectorPolicy policy) throws SQLException {
    StreamConnector.FILESYSTEM.checkOptions(stream, options);
    Path directory = directory(stream, options.get(PATH), policy);
    String formatText = options.get(FORMAT);
    if (formatText == null || formatText.isBlank()) {
      throw Errors.invalidDefinition("Stream " + stream + " (connector 'filesystem') needs"
          + " option '" + FORMAT + "': how its files' lines are written, 'json' or 'csv'");
    }
    RecordFormat format = KafkaConnector.format(stream, formatText);
    OptionalInt maxFiles = options.containsKey(MAX_FILES_PER_BATCH)
        ? OptionalInt.of((int) KafkaConnector.wholeNumber(stream, MAX_FILES_PER_BATCH,
            options.get(MAX_FILES_PER_BATCH), 1, Integer.MAX_VALUE,
            "a whole number of files, 1 or more, such as '10'")) : OptionalInt.empty();
    Duration monitor = options.containsKey(MONITOR_INTERVAL)
        ? Duration.ofMillis(KafkaConnector.wholeNumber(stream, MONITOR_INTERVAL,
            options.get(MONITOR_INTERVAL), 10, Long.MAX_VALUE,
            "milliseconds, 10 or more, such as '1000'")) : DEFAULT_MONITOR_INTERVAL;
    boolean ignoreParseErrors = KafkaConnector.bool(stream, IGNORE_PARSE_ERRORS,
        options.getOrDefault(IGNORE_PARSE_ERRORS, "false"));
    List<SourceColumn> columns = new ArrayList<>();
    for (RelDataTypeField field : rowType.getFieldList()) {
      columns.add(new SourceColumn(field.getName(),
          KafkaConnector.fieldType(stream, field, "filesystem"), field.getType().isNullable(),
          Optional.empty()));
    }
    // A server's stream reads no link: one in the directory could lead out of the allowed roots.
    return new FileSourceSpec(stream, directory, format, columns, ignoreParseErrors, maxFiles,
        monitor, policy.trusted());
  }

  private static Path directory(String stream, String text, ConnectorPolicy policy)
      throws SQLException {
    String expected = "an absolute path of an existing directory, such as '/data/orders'";
    if (text == null || text.isBlank()) {
      throw Errors.invalidDefinition("Stream " + stream + " (connector 'filesystem') needs"
          + " option '" + PATH + "': the directory whose files it reads, such as '/data/orders'");
    }
    Path path;
    try {
      path = Path.of(text.trim());
    } catch (InvalidPathException e) {
      throw StreamErrors.badStreamOption(stream, PATH, text, expected, e);
    }
    if (!path.isAbsolute()) {
      throw StreamErrors.badStreamOption(stream, PATH, text, expected, null);
    }
    // Before the directory is looked at: whether it exists is not told outside the roots.
    path = policy.fileDirectory("Stream " + stream, path);
    if (!Files.isDirectory(path)) {
      throw StreamErrors.badStreamOption(stream, PATH, text, expected, null);
    }
    return path;
  }
}
