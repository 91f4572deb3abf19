package dev.freshet.engine;

import dev.freshet.common.types.SqlType;
import dev.freshet.connectors.format.FieldType;
import dev.freshet.connectors.format.MetadataField;
import dev.freshet.connectors.format.RecordFormat;
import dev.freshet.connectors.format.SourceColumn;
import dev.freshet.connectors.kafka.KafkaSourceSpec.StartupMode;
import dev.freshet.connectors.kafka.KafkaSourceSpec;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.errors.StreamErrors;
import dev.freshet.engine.security.ConnectorPolicy;
import dev.freshet.planner.SqlTypes;
import dev.freshet.planner.catalog.StreamTable;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;

/**
 * The {@code kafka} connector of {@code CREATE STREAM}: checks the stream's options (named as
 * Flink SQL names them) and columns, and describes the topic's reader.
 *
 * <pre>{@code
 * CREATE STREAM orders (id BIGINT, item VARCHAR, price DOUBLE, ts TIMESTAMP(3),
 *     p INTEGER, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
 * WITH (connector = 'kafka', 'topic' = 'orders',
 *     'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json',
 *     'scan.startup.mode' = 'earliest-offset', 'metadata.partition' = 'p')
 * }</pre>
 *
 * <p>{@code 'properties.*'} pass on to the Kafka consumer (without the prefix), except what reading
 * exactly once fixes: {@code isolation.level} is {@code read_committed}, and there is no consumer
 * group. On a server only those its {@link ConnectorPolicy} allows pass. Metadata columns:
 * {@code 'metadata.<key|topic|partition|offset|timestamp>' = 'column'}.
 */
final class KafkaConnector {
  static final String TOPIC = "topic";
  static final String PROPERTIES_PREFIX = "properties.";
  static final String BOOTSTRAP_SERVERS = "properties.bootstrap.servers";
  static final String FORMAT = "format";
  static final String STARTUP_MODE = "scan.startup.mode";
  static final String SPECIFIC_OFFSETS = "scan.startup.specific-offsets";
  static final String MAX_RECORDS_PER_BATCH = "scan.max-records-per-batch";
  static final String PARTITION_DISCOVERY = "scan.topic-partition-discovery.interval";
  static final String IGNORE_PARSE_ERRORS = "format.ignore-parse-errors";
  static final String METADATA_PREFIX = "metadata.";
  /** Every option with a fixed name, in the order messages list them. */
  static final List<String> OPTIONS = List.of(StreamTable.CONNECTOR_OPTION, TOPIC,
      BOOTSTRAP_SERVERS, FORMAT, STARTUP_MODE, SPECIFIC_OFFSETS, MAX_RECORDS_PER_BATCH,
      PARTITION_DISCOVERY, IGNORE_PARSE_ERRORS, "properties.<any Kafka consumer property>",
      "metadata.<key|topic|partition|offset|timestamp>");
  /** How often the topic is checked for new partitions unless the option says. */
  static final Duration DEFAULT_PARTITION_DISCOVERY = Duration.ofSeconds(1);

  private KafkaConnector() {
  }

  /**
   * The topic reader that stream {@code stream} declares.
   *
   * @param options the {@code WITH} options, keys in lower case
   * @param policy which properties may pass on to the client
   * @throws SQLException {@code 42000} naming the option or column that is wrong and what is
   *     allowed; {@code 42501} naming a property the policy refuses
   */
  static KafkaSourceSpec spec(String stream, RelDataType rowType, Map<String, String> options,
      ConnectorPolicy policy) throws SQLException {
    Map<String, String> properties = new LinkedHashMap<>();
    Map<MetadataField, String> metadata = new EnumMap<>(MetadataField.class);
    for (Map.Entry<String, String> option : options.entrySet()) {
      String key = option.getKey();
      if (key.startsWith(PROPERTIES_PREFIX) && key.length() > PROPERTIES_PREFIX.length()) {
        properties.put(key.substring(PROPERTIES_PREFIX.length()), option.getValue());
      } else if (key.startsWith(METADATA_PREFIX)) {
        metadata.put(metadataField(stream, key), option.getValue());
      } else if (!OPTIONS.contains(key)) {
        throw StreamErrors.unknownStreamOption(stream, "kafka", key, OPTIONS);
      }
    }
    policy.checkKafkaProperties("Stream " + stream, properties);
    String topic = required(stream, options, TOPIC, "the topic to read, such as 'orders'");
    required(stream, options, BOOTSTRAP_SERVERS, "the brokers, such as 'localhost:9092'");
    RecordFormat format = format(stream, options.getOrDefault(FORMAT, "json"));
    StartupMode startup = startupMode(stream, options.getOrDefault(STARTUP_MODE,
        StartupMode.EARLIEST.text()));
    Map<Integer, Long> specific = startup == StartupMode.SPECIFIC
        ? specificOffsets(stream, options.get(SPECIFIC_OFFSETS)) : Map.of();
    if (startup != StartupMode.SPECIFIC && options.containsKey(SPECIFIC_OFFSETS)) {
      throw StreamErrors.badStreamOption(stream, SPECIFIC_OFFSETS, options.get(SPECIFIC_OFFSETS),
          "left out unless '" + STARTUP_MODE + "' is 'specific-offsets'", null);
    }
    OptionalLong maxRecords = options.containsKey(MAX_RECORDS_PER_BATCH)
        ? OptionalLong.of(wholeNumber(stream, MAX_RECORDS_PER_BATCH,
            options.get(MAX_RECORDS_PER_BATCH), 1, "a whole number of records, 1 or more,"
                + " such as '100000'")) : OptionalLong.empty();
    Duration discovery = options.containsKey(PARTITION_DISCOVERY)
        ? Duration.ofMillis(wholeNumber(stream, PARTITION_DISCOVERY,
            options.get(PARTITION_DISCOVERY), 100, "milliseconds, 100 or more, such as '1000'"))
        : DEFAULT_PARTITION_DISCOVERY;
    boolean ignoreParseErrors = bool(stream, IGNORE_PARSE_ERRORS,
        options.getOrDefault(IGNORE_PARSE_ERRORS, "false"));
    return new KafkaSourceSpec(stream, topic, properties, startup, specific, maxRecords, format,
        columns(stream, rowType, metadata), ignoreParseErrors, discovery);
  }

  private static List<SourceColumn> columns(String stream, RelDataType rowType,
      Map<MetadataField, String> metadata) throws SQLException {
    Map<String, MetadataField> byColumn = new HashMap<>();
    for (Map.Entry<MetadataField, String> e : metadata.entrySet()) {
      RelDataTypeField field = rowType.getField(e.getValue(), false, false);
      if (field == null) {
        throw StreamErrors.badStreamOption(stream, METADATA_PREFIX + e.getKey().text(),
            e.getValue(), "a column of the stream (" + String.join(", ",
                rowType.getFieldNames()) + ")", null);
      }
      if (byColumn.put(field.getName(), e.getKey()) != null) {
        throw StreamErrors.badStreamOption(stream, METADATA_PREFIX + e.getKey().text(),
            e.getValue(), "a column no other metadata option names", null);
      }
    }
    List<SourceColumn> columns = new ArrayList<>();
    for (RelDataTypeField field : rowType.getFieldList()) {
      FieldType type = fieldType(stream, field, "kafka");
      MetadataField meta = byColumn.get(field.getName());
      if (meta != null) {
        checkMetadataType(stream, field, meta, type);
      }
      columns.add(new SourceColumn(field.getName(), type, field.getType().isNullable(),
          Optional.ofNullable(meta)));
    }
    return columns;
  }

  private static void checkMetadataType(String stream, RelDataTypeField field, MetadataField meta,
      FieldType type) throws SQLException {
    boolean ok = switch (meta) {
      case KEY, TOPIC -> type == FieldType.VARCHAR;
      case PARTITION -> type == FieldType.INTEGER || type == FieldType.BIGINT;
      case OFFSET -> type == FieldType.BIGINT;
      case TIMESTAMP -> type == FieldType.TIMESTAMP;
    };
    if (!ok) {
      String wanted = switch (meta) {
        case KEY, TOPIC -> "VARCHAR";
        case PARTITION -> "INTEGER or BIGINT";
        case OFFSET -> "BIGINT";
        case TIMESTAMP -> "TIMESTAMP(3)";
      };
      throw Errors.invalidDefinition("Column " + field.getName() + " of stream " + stream
          + " holds the record's " + meta.text() + ", so it must be " + wanted + ", not "
          + StreamDdl.typeName(field.getType()));
    }
  }

  /** The type a record format fills column {@code field} with; also the filesystem connector's. */
  static FieldType fieldType(String stream, RelDataTypeField field, String connector)
      throws SQLException {
    SqlType sqlType = SqlTypes.of(field.getType());
    FieldType type = sqlType == null ? null : FieldType.of(sqlType);
    if (type == null) {
      throw Errors.notSupported("Column " + field.getName() + " of stream " + stream
          + " is " + StreamDdl.typeName(field.getType()) + ", which the " + connector
          + " connector cannot read yet. Use a character, numeric, boolean, date, time or"
          + " timestamp type");
    }
    return type;
  }

  private static MetadataField metadataField(String stream, String key) throws SQLException {
    String name = key.substring(METADATA_PREFIX.length());
    for (MetadataField field : MetadataField.values()) {
      if (field.text().equals(name)) {
        return field;
      }
    }
    throw StreamErrors.unknownStreamOption(stream, "kafka", key, OPTIONS);
  }

  private static String required(String stream, Map<String, String> options, String key,
      String what) throws SQLException {
    String value = options.get(key);
    if (value == null || value.isBlank()) {
      throw Errors.invalidDefinition("Stream " + stream + " (connector 'kafka') needs option '"
          + key + "': " + what);
    }
    return value.trim();
  }

  static RecordFormat format(String stream, String text) throws SQLException {
    for (RecordFormat format : RecordFormat.values()) {
      if (format.text().equals(text.trim().toLowerCase(Locale.ROOT))) {
        return format;
      }
    }
    throw StreamErrors.badStreamOption(stream, FORMAT, text, "'json' or 'csv'", null);
  }

  private static StartupMode startupMode(String stream, String text) throws SQLException {
    for (StartupMode mode : StartupMode.values()) {
      if (mode.text().equals(text.trim().toLowerCase(Locale.ROOT))) {
        return mode;
      }
    }
    throw StreamErrors.badStreamOption(stream, STARTUP_MODE, text,
        "'earliest-offset', 'latest-offset' or 'specific-offsets'", null);
  }

  /** Flink's {@code partition:0,offset:42;partition:1,offset:300}. */
  private static Map<Integer, Long> specificOffsets(String stream, String text)
      throws SQLException {
    String expected = "partitions and offsets as 'partition:0,offset:42;partition:1,offset:300'";
    if (text == null) {
      throw Errors.invalidDefinition("Stream " + stream + " starts at 'specific-offsets', so it"
          + " needs '" + SPECIFIC_OFFSETS + "': " + expected);
    }
    Map<Integer, Long> offsets = new HashMap<>();
    for (String pair : text.split(";")) {
      String[] parts = pair.trim().split(",");
      if (parts.length != 2 || !parts[0].trim().startsWith("partition:")
          || !parts[1].trim().startsWith("offset:")) {
        throw StreamErrors.badStreamOption(stream, SPECIFIC_OFFSETS, text, expected, null);
      }
      long partition = wholeNumber(stream, SPECIFIC_OFFSETS,
          parts[0].trim().substring("partition:".length()), 0, expected);
      long offset = wholeNumber(stream, SPECIFIC_OFFSETS,
          parts[1].trim().substring("offset:".length()), 0, expected);
      if (partition > Integer.MAX_VALUE || offsets.put((int) partition, offset) != null) {
        throw StreamErrors.badStreamOption(stream, SPECIFIC_OFFSETS, text, expected
            + ", each partition once", null);
      }
    }
    return offsets;
  }

  static long wholeNumber(String stream, String key, String text, long min,
      String expected) throws SQLException {
    return wholeNumber(stream, key, text, min, Long.MAX_VALUE, expected);
  }

  /** A whole number in {@code [min, max]} of option {@code key}; also the filesystem one's. */
  static long wholeNumber(String stream, String key, String text, long min, long max,
      String expected) throws SQLException {
    try {
      long value = Long.parseLong(text.trim());
      if (value >= min && value <= max) {
        return value;
      }
    } catch (NumberFormatException e) {
      throw StreamErrors.badStreamOption(stream, key, text, expected, e);
    }
    throw StreamErrors.badStreamOption(stream, key, text, expected, null);
  }

  static boolean bool(String stream, String key, String text) throws SQLException {
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (t.equals("true") || t.equals("false")) {
      return Boolean.parseBoolean(t);
    }
    throw StreamErrors.badStreamOption(stream, key, text, "'true' or 'false'", null);
  }
}
