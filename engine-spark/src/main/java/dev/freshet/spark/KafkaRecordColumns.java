package dev.freshet.spark;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.from_csv;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.lower;
import static org.apache.spark.sql.functions.raise_error;
import static org.apache.spark.sql.functions.timestamp_millis;
import static org.apache.spark.sql.functions.trim;
import static org.apache.spark.sql.functions.try_element_at;
import static org.apache.spark.sql.functions.when;

import dev.freshet.connectors.format.MetadataField;
import dev.freshet.connectors.format.RecordFormat;
import dev.freshet.connectors.format.SourceColumn;
import dev.freshet.connectors.kafka.KafkaSourceSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Turns the records of Spark's Kafka source (key, value, topic, partition, offset, timestamp)
 * into rows of a Freshet stream, as Freshet's own reader does (docs/sql.md, "Kafka streams"):
 * a JSON value's fields matched to columns by name ignoring case, a CSV value's fields in column
 * order, metadata columns from the record, and timestamps as SQL, ISO-8601 or epoch milliseconds.
 *
 * <pre>{@code
 * Dataset<Row> rows = new KafkaRecordColumns(spec, schema).rowsOf(spark.readStream()
 *     .format("kafka").option("subscribe", "orders")...load());
 * }</pre>
 *
 * <p>A record that is not a row (not JSON, a field that does not fit its column, NULL in a NOT
 * NULL column, a CSV line with too few or too many fields) fails the batch with Spark's
 * {@code raise_error}, whose message names the record as Freshet's does: {@code The record at
 * offset 17 of partition 1 of topic orders is not a row of stream ORDERS (format json): ...}.
 * Each field is read as text and cast with {@code try_cast}, so that a bad value is seen rather
 * than becoming NULL.
 */
final class KafkaRecordColumns {
  /** CSV: the field Spark's parser puts a line in when it has the wrong number of fields. */
  private static final String CORRUPT = "_corrupt_record";
  private static final String WHOLE_NUMBER = "^\\s*-?[0-9]+\\s*$";
  /** The columns between parsing and the check, named apart from the query's. */
  private static final String VALUE_PREFIX = "_freshet_value_";
  private static final String CHECKED = "_freshet_checked";

  private final KafkaSourceSpec spec;
  private final StructType schema;

  /**
   * @param spec the stream's reader, as the engine checked it
   * @param schema the stream's columns in Spark's types, in the order of {@code spec.columns()}
   */
  KafkaRecordColumns(KafkaSourceSpec spec, StructType schema) {
    this.spec = spec;
    this.schema = schema;
  }

  /** The rows of {@code records}, a Dataset of Spark's Kafka source. */
  Dataset<Row> rowsOf(Dataset<Row> records) {
    List<SourceColumn> columns = spec.columns();
    List<Column> values = new ArrayList<>();
    List<Column> problems = new ArrayList<>();
    Texts texts = spec.format() == RecordFormat.CSV ? csvTexts(columns) : jsonTexts();
    problems.add(texts.problem());
    int field = 0;
    for (int i = 0; i < columns.size(); i++) {
      SourceColumn column = columns.get(i);
      StructField target = schema.fields()[i];
      if (column.metadata().isPresent()) {
        values.add(metadata(column.metadata().get()).cast(target.dataType()));
        continue;
      }
      field++;
      Column text = texts.field(column.name(), field);
      Column value = typed(text, target.dataType());
      values.add(value);
      String described = describe(column, field);
      problems.add(when(text.isNotNull().and(value.isNull()), concat(lit(described + ": '"), text,
          lit("' is not " + expected(target.dataType())))));
      if (!column.nullable()) {
        problems.add(when(text.isNull(), lit(described + " is missing or null, but the column"
            + " is NOT NULL")));
      }
    }
    return checked(records, values, coalesce(problems.toArray(new Column[0])));
  }

  /**
   * {@code records} as {@code values}, failing on the first record whose {@code problem} is not
   * NULL with Freshet's message naming the record.
   */
  private Dataset<Row> checked(Dataset<Row> records, List<Column> values, Column problem) {
    Column message = concat(lit("The record at offset "), col("offset").cast("string"),
        lit(" of partition "), col("partition").cast("string"), lit(" of topic "), col("topic"),
        lit(" is not a row of stream " + spec.stream() + " (format " + spec.format().text()
            + "): "), problem);
    // A filter, which Spark keeps whatever columns the query reads (it prunes a projection's).
    Column checked = when(problem.isNotNull(), raise_error(message)).otherwise(lit(true));
    List<Column> parsed = new ArrayList<>();
    List<Column> named = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      parsed.add(values.get(i).as(VALUE_PREFIX + i));
      named.add(col(VALUE_PREFIX + i).as(schema.fields()[i].name()));
    }
    parsed.add(checked.as(CHECKED));
    return records.select(parsed.toArray(new Column[0]))
        .filter(col(CHECKED))
        .select(named.toArray(new Column[0]));
  }

  /** The field of {@code column} (the {@code field}-th of a CSV line), for messages. */
  private String describe(SourceColumn column, int field) {
    return spec.format() == RecordFormat.CSV
        ? "field " + field + " (column " + column.name() + ")"
        : "field \"" + column.name().toLowerCase(Locale.ROOT) + "\" (column " + column.name()
            + ")";
  }

  /** A record's value as text fields, and what makes the whole value unreadable. */
  private interface Texts {
    Column problem();

    /** The text of the value's field for {@code column}, the {@code index}-th (from 1). */
    Column field(String column, int index);
  }

  /**
   * JSON: the value as a map from lower-cased field name to the field's text (Spark's parser
   * gives a nested value's JSON text), so that columns match fields ignoring case.
   */
  private Texts jsonTexts() {
    Column fields = expr("transform_keys(from_json(CAST(value AS STRING), 'map<string,string>'),"
        + " (k, v) -> lower(k))");
    Column problem = when(col("value").isNull(),
            lit("the record has no value (a tombstone); expected a JSON object"))
        .when(fields.isNull(), lit("the value is not a JSON object"));
    return new Texts() {
      @Override public Column problem() {
        return problem;
      }

      @Override public Column field(String column, int index) {
        return try_element_at(fields, lit(column.toLowerCase(Locale.ROOT)));
      }
    };
  }

  /** CSV: the line's fields as strings, in order; a line of another length is corrupt. */
  private Texts csvTexts(List<SourceColumn> columns) {
    StringBuilder ddl = new StringBuilder();
    int fields = 0;
    for (SourceColumn column : columns) {
      if (column.metadata().isEmpty()) {
        ddl.append("f").append(++fields).append(" STRING, ");
      }
    }
    ddl.append(CORRUPT).append(" STRING");
    Column line = from_csv(col("value").cast("string"), lit(ddl.toString()),
        Map.of("mode", "PERMISSIVE", "columnNameOfCorruptRecord", CORRUPT));
    int expectedFields = fields;
    Column problem = when(col("value").isNull(),
            lit("the record has no value (a tombstone); expected a CSV line"))
        .when(line.getField(CORRUPT).isNotNull(), lit("the line does not have "
            + expectedFields + " fields, one per column to fill"));
    return new Texts() {
      @Override public Column problem() {
        return problem;
      }

      @Override public Column field(String column, int index) {
        return line.getField("f" + index);
      }
    };
  }

  /** The value of a record's metadata, as Spark's Kafka source has it. */
  private static Column metadata(MetadataField field) {
    return switch (field) {
      case KEY -> col("key").cast("string");
      case TOPIC -> col("topic");
      case PARTITION -> col("partition");
      case OFFSET -> col("offset");
      case TIMESTAMP -> col("timestamp");
    };
  }

  /** {@code text} as {@code type}; NULL if it is not one (then a problem). */
  private static Column typed(Column text, DataType type) {
    if (type.equals(DataTypes.StringType)) {
      return text;
    }
    if (type.equals(DataTypes.BooleanType)) {
      // Only true and false, as Freshet; Spark's cast would also take yes, no, 1, 0, t, f...
      Column word = lower(trim(text));
      return when(word.equalTo("true"), lit(true)).when(word.equalTo("false"), lit(false));
    }
    if (type.equals(DataTypes.TimestampType)) {
      // A JSON number is epoch milliseconds; Spark's cast of a number would take seconds.
      return when(text.rlike(WHOLE_NUMBER), timestamp_millis(trim(text).try_cast("long")))
          .otherwise(text.try_cast(type));
    }
    return text.try_cast(type);
  }

  /** What a field for a column of {@code type} must hold, for messages. */
  private static String expected(DataType type) {
    if (type.equals(DataTypes.BooleanType)) {
      return "a BOOLEAN (true or false)";
    }
    if (type.equals(DataTypes.TimestampType)) {
      return "a TIMESTAMP (2026-12-01 10:00:00.000, ISO-8601 or epoch milliseconds)";
    }
    if (type.equals(DataTypes.DateType)) {
      return "a DATE (2026-12-01)";
    }
    return "a value that fits " + type.sql();
  }
}
