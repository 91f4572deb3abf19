package dev.freshet.engine;

import dev.freshet.common.types.SqlType;
import dev.freshet.common.types.ValueCodec;
import dev.freshet.connectors.filesystem.FileSourceSpec;
import dev.freshet.connectors.filesystem.FileSystemSource;
import dev.freshet.connectors.kafka.KafkaSourceSpec;
import dev.freshet.connectors.kafka.KafkaTopicSource;
import dev.freshet.connectors.nexmark.NexmarkSource;
import dev.freshet.connectors.nexmark.NexmarkSpec;
import dev.freshet.engine.errors.CatalogErrors;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.errors.StreamErrors;
import dev.freshet.executor.source.MemoryStream;
import dev.freshet.executor.source.SequenceSource;
import dev.freshet.executor.source.SequenceSpec;
import dev.freshet.executor.source.Source;
import dev.freshet.executor.source.StreamColumn;
import dev.freshet.executor.source.StreamLogException;
import dev.freshet.executor.source.StreamRetention;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.SqlTypes;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.ViewTable;
import dev.freshet.planner.catalog.WatermarkSpec;
import dev.freshet.sql.parser.SqlCreateStream;
import dev.freshet.sql.parser.SqlDropStream;
import dev.freshet.sql.parser.SqlWatermark;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rel.type.RelDataTypeImpl;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.calcite.sql.parser.SqlParserUtil;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Executes {@code CREATE STREAM} and {@code DROP STREAM}; callers hold the engine's DDL lock.
 *
 * <p>A stream's name must not be taken by a materialized view, and a stream that a view reads
 * cannot be dropped (SQLSTATE {@code 2BP01}) until the view is.
 *
 * <p>{@code connector = 'memory'} (the default) makes a {@link MemoryStream} that takes rows by
 * INSERT; {@code connector = 'sequence'} a {@link SequenceSource} that generates them
 * ({@link SequenceConnector} checks its columns and options); {@code connector = 'kafka'} a
 * {@link KafkaTopicSource} that each query reads through its own reader ({@link KafkaConnector});
 * {@code connector = 'filesystem'} a {@link FileSystemSource}, read by each query through its
 * own reader too, which keeps the list of files it has read ({@link FileSystemConnector});
 * {@code connector = 'nexmark'} a {@link NexmarkSource} that generates one Nexmark event type
 * ({@link NexmarkConnector}).
 *
 * <p>On an engine with a data directory a memory stream is durable: {@code CREATE STREAM} (with or
 * without {@code IF NOT EXISTS}) over the files an earlier run left reopens them with their rows,
 * if the columns are the same, which is how a restarted application finds its streams until the
 * catalog itself is kept; {@code DROP STREAM} deletes the files. A sequence stream has no files.
 */
final class StreamDdl {
  /**
   * The stream option that lets an idle stream's watermark follow the clock,
   * {@code 'watermark.idle-timeout' = '30 s'} ({@link IdleTimeout}); every connector accepts it.
   */
  static final String IDLE_TIMEOUT_OPTION = "watermark.idle-timeout";

  private StreamDdl() {
  }

  /**
   * Whether the stream log can encode values of {@code type}: every type with a descriptor
   * ({@link SqlTypes}), whose values are String, Boolean, the boxed numbers, BigDecimal, and
   * Integer or Long for dates, times, timestamps and intervals, but the binary ones, whose
   * values are Calcite's ByteString.
   */
  private static boolean storable(RelDataType type) {
    SqlType sqlType = SqlTypes.of(type);
    return sqlType != null && sqlType.codec() != ValueCodec.BYTES;
  }

  /**
   * Declares the stream of {@code create}.
   *
   * @param given its options as written, each {@code SECRET name} replaced by the secret's value
   */
  static void create(Engine engine, SqlCreateStream create, Map<String, String> given)
      throws SQLException {
    FreshetPlanner planner = engine.planner();
    String name = simpleName(create.name());
    Map<String, String> options = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : given.entrySet()) {
      options.put(e.getKey().toLowerCase(Locale.ROOT), e.getValue());
    }
    // Every connector's stream may have it: the connectors check the rest.
    String idleTimeout = options.get(IDLE_TIMEOUT_OPTION);
    Map<String, String> connectorOptions = new LinkedHashMap<>(options);
    connectorOptions.remove(IDLE_TIMEOUT_OPTION);
    StreamConnector connector = StreamConnector.of(name, connectorOptions);
    boolean sequence = connector == StreamConnector.SEQUENCE;
    boolean kafka = connector == StreamConnector.KAFKA;
    boolean files = connector == StreamConnector.FILESYSTEM;
    boolean nexmark = connector == StreamConnector.NEXMARK;
    if (!sequence && !kafka && !files && !nexmark) {
      // A sequence's, a topic's and a directory's options are checked with their columns.
      connector.checkOptions(name, connectorOptions);
    }
    if (!sequence && create.columns().isEmpty()) {
      throw Errors.invalidDefinition("Stream " + name + " has no columns. A " + connector.text()
          + " stream needs its columns declared: CREATE STREAM " + name + " (id BIGINT, ...)");
    }

    RelDataTypeFactory.Builder fields = planner.typeFactory().builder();
    Set<String> names = new HashSet<>();
    for (SqlNode node : create.columns()) {
      SqlColumnDeclaration column = (SqlColumnDeclaration) node;
      String columnName = simpleName(column.name);
      if (!names.add(columnName)) {
        throw Errors.invalidDefinition("Column " + columnName + " is declared twice in"
            + " stream " + name + ". Give each column a distinct name");
      }
      Boolean nullable = column.dataType.getNullable();
      fields.add(columnName, planner.columnType(column.dataType, nullable == null || nullable));
    }
    RelDataType rowType = fields.build();
    long idleTimeoutMs = idleTimeout == null ? 0 : IdleTimeout.parseMillis(name, idleTimeout);
    Optional<WatermarkSpec> watermark = create.watermark() == null
        ? Optional.empty()
        : Optional.of(watermark(name, create.watermark(), rowType, idleTimeoutMs));
    if (idleTimeoutMs > 0 && watermark.isEmpty()) {
      throw Errors.invalidDefinition("Option '" + IDLE_TIMEOUT_OPTION + "' of stream " + name
          + " advances its watermark, but the stream has none. Declare one: CREATE STREAM "
          + name + " (..., ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)");
    }
    // Checked with the rest of the statement, before anything exists.
    SequenceSpec sequenceSpec = sequence
        ? SequenceConnector.spec(name, rowType, connectorOptions) : null;
    // The operator's policy is checked here too, before anything is connected or read, and so
    // again when a restarted engine declares the stream anew.
    KafkaSourceSpec kafkaSpec = kafka
        ? KafkaConnector.spec(name, rowType, connectorOptions, engine.security().connectors())
        : null;
    FileSourceSpec fileSpec = files
        ? FileSystemConnector.spec(name, rowType, connectorOptions,
            engine.security().connectors())
        : null;
    NexmarkSpec nexmarkSpec = nexmark
        ? NexmarkConnector.spec(name, rowType, connectorOptions) : null;
    StreamRetention retention = !sequence && !kafka && !files && !nexmark
        ? StreamRetentionOptions.of(name, connectorOptions) : null;

    Catalog catalog = planner.catalog();
    // Checked before the source is opened: a stream of this name has its files open already.
    // The DDL lock keeps the answer true until the stream is added.
    if (catalog.contains(name)) {
      if (catalog.table(name).isPresent()) {
        throw CatalogErrors.nameTaken("stream", name, "table", "DROP TABLE " + name);
      }
      if (catalog.view(name).isPresent()) {
        // Even with IF NOT EXISTS: the statement asked for a stream, and there is none.
        throw CatalogErrors.nameTaken("stream", name, "materialized view",
            "DROP MATERIALIZED VIEW " + name);
      }
      if (!create.ifNotExists()) {
        throw CatalogErrors.streamExists(name);
      }
      return;
    }
    // A sequence's rows are a function of the offset: it needs no directory, even in a data
    // directory, and its pace starts now.
    // A topic is read by each query through a reader of its own, connected when it starts.
    Source source = sequence ? new SequenceSource(sequenceSpec)
        : kafka ? new KafkaTopicSource(kafkaSpec)
        : files ? new FileSystemSource(fileSpec)
        : nexmark ? new NexmarkSource(nexmarkSpec)
        : openSource(engine, name, rowType, retention);
    StreamTable table = new StreamTable(name, RelDataTypeImpl.proto(rowType), watermark, options,
        source);
    if (!catalog.addStream(table)) {
      table.memoryStream().ifPresent(MemoryStream::close);
      throw new IllegalStateException("name " + name + " was taken while the DDL lock was held");
    }
  }

  /** The stream's rows: on disk if the engine has a data directory, otherwise in memory. */
  private static MemoryStream openSource(Engine engine, String name, RelDataType rowType,
      StreamRetention retention) throws SQLException {
    Optional<Path> directory = engine.resources().streamDirectory(name);
    if (directory.isEmpty()) {
      return new MemoryStream(name, rowType.getFieldCount(), retention,
          engine.streamMemoryPool());
    }
    List<StreamColumn> columns = new ArrayList<>();
    for (RelDataTypeField field : rowType.getFieldList()) {
      if (!storable(field.getType())) {
        // Refused here rather than at the first INSERT, which could not write the value.
        throw Errors.notSupported("Column " + field.getName() + " of stream " + name
            + " is " + typeName(field.getType()) + ", which a stream in a data directory cannot"
            + " store yet. Use a character, numeric, boolean, date, time or timestamp type");
      }
      columns.add(new StreamColumn(field.getName(), typeName(field.getType())));
    }
    try {
      return MemoryStream.open(name, columns, directory.get(), retention,
          engine.streamMemoryPool());
    } catch (StreamLogException e) {
      throw StreamErrors.streamLogError(e);
    }
  }

  /**
   * A column's type as the stream's metadata records it, e.g. {@code DECIMAL(10, 2) NOT NULL}:
   * without the character set and collation that Calcite's full type string adds, which say
   * nothing about the values stored and could change with Calcite's defaults.
   */
  static String typeName(RelDataType type) {
    return type.toString() + (type.isNullable() ? "" : " NOT NULL");
  }

  /**
   * Drops a stream and deletes its files; the caller holds the engine's DDL lock, so no view
   * starts reading it. Push queries that read it keep the rows they have.
   */
  static void drop(Engine engine, SqlDropStream drop) throws SQLException {
    FreshetPlanner planner = engine.planner();
    String name = simpleName(drop.name());
    Catalog catalog = planner.catalog();
    if (catalog.view(name).isPresent()) {
      throw CatalogErrors.wrongObjectType(name, "materialized view", "stream",
          "DROP MATERIALIZED VIEW " + name);
    }
    List<String> readers = new ArrayList<>();
    for (ViewTable view : catalog.views()) {
      if (view.sources().contains(name)) {
        readers.add(view.name());
      }
    }
    List<String> sinks = SinkDdl.readersOf(engine, name);
    if (!sinks.isEmpty()) {
      throw CatalogErrors.inUseBySinks("stream", name, sinks);
    }
    if (!readers.isEmpty()) {
      // A view that lost its stream could never change again, nor be told apart from one whose
      // stream merely has no new rows; the user decides what goes first.
      throw CatalogErrors.streamInUse(name, readers);
    }
    Optional<StreamTable> stream = catalog.stream(name);
    if (stream.isEmpty() || !catalog.dropStream(name)) {
      if (!drop.ifExists()) {
        throw CatalogErrors.streamNotFound(name);
      }
      return;
    }
    // Only a memory stream has files; a generated stream has nothing to close or delete.
    Optional<MemoryStream> memory = stream.get().memoryStream();
    if (memory.isEmpty()) {
      return;
    }
    memory.get().close();
    if (memory.get().directory().isPresent()) {
      try {
        MemoryStream.delete(memory.get().directory().get());
      } catch (StreamLogException e) {
        throw StreamErrors.streamLogError(e);
      }
    }
  }

  /** Checks {@code WATERMARK FOR col AS col - INTERVAL ...} and returns its column and delay. */
  private static WatermarkSpec watermark(String stream, SqlWatermark declaration,
      RelDataType rowType, long idleTimeoutMs) throws SQLException {
    String column = simpleName(declaration.column());
    var field = rowType.getField(column, true, false);
    if (field == null) {
      throw Errors.invalidDefinition("WATERMARK FOR " + column + " of stream " + stream
          + " names an unknown column. Declare it first: " + column + " TIMESTAMP(3)");
    }
    if (field.getType().getSqlTypeName() != SqlTypeName.TIMESTAMP) {
      throw Errors.invalidDefinition("WATERMARK FOR " + column + " of stream " + stream
          + " needs a TIMESTAMP column, but " + column + " is "
          + field.getType().getFullTypeString() + ". Declare the event time as TIMESTAMP(3)");
    }
    SqlNode expression = declaration.delayExpression();
    String shape = "The watermark of stream " + stream + " must read WATERMARK FOR " + column
        + " AS " + column + " - INTERVAL '5' SECOND (any non-negative interval)";
    if (!(expression instanceof SqlBasicCall call) || call.getKind() != SqlKind.MINUS
        || !(call.operand(0) instanceof SqlIdentifier id) || !simpleName(id).equals(column)
        || !(call.operand(1) instanceof SqlIntervalLiteral interval)) {
      throw Errors.invalidDefinition(shape + "; found " + expression);
    }
    SqlIntervalLiteral.IntervalValue value =
        (SqlIntervalLiteral.IntervalValue) interval.getValue();
    long delayMs = value.getIntervalQualifier().isYearMonth()
        // As Spark: a month counts as 31 days.
        ? SqlParserUtil.intervalToMonths(value) * 31L * 24 * 3600 * 1000
        : SqlParserUtil.intervalToMillis(value);
    if (delayMs < 0 || value.getSign() < 0) {
      throw Errors.invalidDefinition("The watermark delay of stream " + stream
          + " must not be negative, but is " + interval + ". Use a delay such as INTERVAL '5'"
          + " SECOND");
    }
    return new WatermarkSpec(column, delayMs, idleTimeoutMs);
  }

  static String simpleName(SqlIdentifier id) {
    return id.names.get(id.names.size() - 1);
  }
}
