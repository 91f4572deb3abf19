package dev.freshet.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.connectors.format.RecordFormat;
import dev.freshet.connectors.kafka.KafkaSourceSpec;
import dev.freshet.spark.cluster.InProcessKafka;
import dev.freshet.sql.parser.EmitMode;
import dev.freshet.testkit.ExternalTest;
import dev.freshet.testkit.SparkTest;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Date;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link SparkSources} in local mode: streams declared by Freshet's DDL and read by a translated
 * {@code SELECT STREAM *}. Mostly {@code connector = 'kafka'}, read by Spark's Kafka source from a
 * real broker in this JVM: JSON and CSV values into every column type the Freshet source maps,
 * NULLs, metadata columns, and records that are not rows failing the query with 22000 and the
 * record's offset; also a stream fed by INSERT, and the connectors and options refused.
 */
@ExternalTest
@SparkTest
@ExtendWith(LocalSparkSession.class)
class SparkSourcesTest {
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  /** Every type but the metadata columns'; K, PART and POS come from the record. */
  private static final String COLUMNS = "flag BOOLEAN, tiny TINYINT, small SMALLINT,"
      + " num INTEGER, big BIGINT, re REAL, dbl DOUBLE, amount DECIMAL(10, 2), label VARCHAR,"
      + " code CHAR(3), birth DATE, ts TIMESTAMP(3)";

  private static InProcessKafka kafka;
  private static SparkSession spark;
  private static FreshetSql sql;
  private static Path checkpoints;
  private static int queries;

  @BeforeAll static void start() throws Exception {
    kafka = InProcessKafka.shared();
    spark = LocalSparkSession.get().newSession();
    sql = new FreshetSql();
    checkpoints = Files.createTempDirectory("kafka-source");
  }

  @AfterAll static void stop() throws Exception {
    if (sql != null) {
      sql.close();
    }
    if (checkpoints != null) {
      try (Stream<Path> files = Files.walk(checkpoints)) {
        files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      }
    }
  }

  @Test void readsJsonFieldsIgnoringCaseIntoEveryTypeWithNullsAndMetadata() throws Exception {
    declare("typed_json", "json", COLUMNS + ", k VARCHAR, part INTEGER, pos BIGINT",
        ", 'metadata.key' = 'k', 'metadata.partition' = 'part', 'metadata.offset' = 'pos',"
            // Consumer properties that Freshet's reader overrides, as the query on Spark must.
            + " 'properties.group.id' = 'g', 'properties.auto.offset.reset' = 'latest',"
            + " 'properties.enable.auto.commit' = 'true',"
            + " 'properties.isolation.level' = 'read_uncommitted'");
    kafka.send("typed_json", "k0", List.of(
        "{\"FLAG\": true, \"Tiny\": -128, \"small\": 32767, \"num\": 2147483647,"
            + " \"big\": 9007199254740993, \"re\": 1.5, \"dbl\": -2.25, \"amount\": 12.34,"
            + " \"label\": \"tea, green\", \"code\": \"abc\", \"birth\": \"2026-12-01\","
            + " \"ts\": \"2026-12-01 10:00:00.123\", \"other\": {\"x\": [1]}}",
        // Missing fields and JSON nulls are NULL; ISO-8601 in UTC.
        "{\"num\": null, \"label\": null, \"ts\": \"2026-12-01T10:00:00Z\"}",
        // Epoch milliseconds; a number written as a string, as Freshet takes it.
        "{\"flag\": false, \"tiny\": \"7\", \"ts\": 1796119200000}"));

    assertEquals(List.of(
        Arrays.asList(true, (byte) -128, (short) 32767, 2147483647, 9007199254740993L, 1.5f,
            -2.25, new BigDecimal("12.34"), "tea, green", "abc", LocalDate.of(2026, 12, 1),
            LocalDateTime.of(2026, 12, 1, 10, 0, 0, 123_000_000), "k0", 0, 0L),
        Arrays.asList(null, null, null, null, null, null, null, null, null, null, null,
            LocalDateTime.of(2026, 12, 1, 10, 0), "k0", 0, 1L),
        Arrays.asList(false, (byte) 7, null, null, null, null, null, null, null, null, null,
            LocalDateTime.of(2026, 12, 1, 10, 0), "k0", 0, 2L)),
        readAll("typed_json"));
  }

  @Test void readsCsvFieldsInColumnOrderWithEmptyFieldsAsNull() throws Exception {
    declare("typed_csv", "csv", COLUMNS, "");
    kafka.send("typed_csv", null, List.of(
        "true,-128,32767,2147483647,9007199254740993,1.5,-2.25,12.34,\"tea, green\",abc,"
            + "2026-12-01,2026-12-01 10:00:00.123",
        ",,,,,,,,,,,2026-12-01T10:00:00Z"));

    assertEquals(List.of(
        Arrays.asList(true, (byte) -128, (short) 32767, 2147483647, 9007199254740993L, 1.5f,
            -2.25, new BigDecimal("12.34"), "tea, green", "abc", LocalDate.of(2026, 12, 1),
            LocalDateTime.of(2026, 12, 1, 10, 0, 0, 123_000_000)),
        Arrays.asList(null, null, null, null, null, null, null, null, null, null, null,
            LocalDateTime.of(2026, 12, 1, 10, 0))),
        readAll("typed_csv"));
  }

  @Test void failsOnAJsonFieldThatDoesNotFitItsColumnNamingTheRecord() throws Exception {
    assertNotARow("bad_field", "json", List.of("{\"num\": 1}", "{\"num\": \"many\"}"),
        "The record at offset 1 of partition 0 of topic bad_field is not a row of stream"
            + " BAD_FIELD (format json): field \"num\" (column NUM): 'many' is not a value that"
            + " fits INT");
  }

  @Test void failsOnAValueThatIsNotAJsonObject() throws Exception {
    assertNotARow("not_json", "json", List.of("{\"num\": 1}", "{\"num\": 2", "{\"num\": 3}"),
        "The record at offset 1 of partition 0 of topic not_json is not a row of stream NOT_JSON"
            + " (format json): the value is not a JSON object");
  }

  @Test void failsOnAMissingNotNullField() throws Exception {
    assertNotARow("no_key", "json", List.of("{\"label\": \"a\"}"),
        "The record at offset 0 of partition 0 of topic no_key is not a row of stream NO_KEY"
            + " (format json): field \"num\" (column NUM) is missing or null, but the column is"
            + " NOT NULL");
  }

  @Test void failsOnACsvLineWithTooFewFields() throws Exception {
    assertNotARow("short_csv", "csv", List.of("1,a", "2"),
        "The record at offset 1 of partition 0 of topic short_csv is not a row of stream"
            + " SHORT_CSV (format csv): the line does not have 2 fields, one per column to fill");
  }

  @Test void readsAStreamFedByInsertThroughTheFreshetSource() throws Exception {
    sql.execute("CREATE STREAM inserted (n INTEGER, label VARCHAR)");
    sql.execute("INSERT INTO inserted VALUES (1, 'a'), (2, NULL)");
    assertEquals(List.of(Arrays.asList(1, "a"), Arrays.asList(2, null)), readAll("inserted"));
  }

  @Test void refusesAConnectorSparkCannotRead() throws Exception {
    sql.execute("CREATE STREAM numbers (n BIGINT) WITH (connector = 'sequence',"
        + " 'end' = '10')");
    SQLException e = assertThrows(SQLException.class,
        () -> SparkSources.of(spark, sql.stream("NUMBERS")));
    assertEquals("0A000", e.getSQLState());
    assertEquals("Stream NUMBERS (connector 'sequence') is not yet on Spark: declare it with"
        + " connector 'memory' or 'kafka', or run the query on Freshet's own executor",
        e.getMessage());
  }

  @Test void refusesSkippingRecordsThatAreNotRows() throws Exception {
    sql.execute("CREATE STREAM lenient (n BIGINT) WITH (connector = 'kafka', 'topic' = 'lenient',"
        + " 'properties.bootstrap.servers' = '" + kafka.bootstrapServers() + "',"
        + " 'format.ignore-parse-errors' = 'true')");
    SQLException e = assertThrows(SQLException.class,
        () -> SparkSources.of(spark, sql.stream("LENIENT")));
    assertEquals("0A000", e.getSQLState());
    assertTrue(e.getMessage().startsWith("Skipping records that are not rows"
        + " ('format.ignore-parse-errors' = 'true', stream LENIENT) is not yet on Spark"),
        e.getMessage());
  }

  @Test void refusesConsumerInterceptors() throws Exception {
    sql.execute("CREATE STREAM intercepted (n BIGINT) WITH (connector = 'kafka',"
        + " 'topic' = 'intercepted', 'properties.bootstrap.servers' = '"
        + kafka.bootstrapServers() + "', 'properties.interceptor.classes' = 'a.B')");
    SQLException e = assertThrows(SQLException.class,
        () -> SparkSources.of(spark, sql.stream("INTERCEPTED")));
    assertEquals("0A000", e.getSQLState());
    assertEquals("Consumer interceptors ('properties.interceptor.classes', stream INTERCEPTED) is"
        + " not supported on a stream by Spark. Leave the option out, or run the query on"
        + " Freshet's own executor", e.getMessage());
  }

  @Test void startsAtEarliestLatestOrSpecificOffsetsAsSparkSpellsThem() {
    assertEquals("earliest", KafkaStreams.startingOffsets(spec(KafkaSourceSpec.StartupMode.EARLIEST,
        Map.of())));
    assertEquals("latest", KafkaStreams.startingOffsets(spec(KafkaSourceSpec.StartupMode.LATEST,
        Map.of())));
    assertEquals("{\"t\\\"1\":{\"0\":42,\"1\":300}}", KafkaStreams.startingOffsets(
        spec(KafkaSourceSpec.StartupMode.SPECIFIC, Map.of(1, 300L, 0, 42L))));
  }

  private static KafkaSourceSpec spec(KafkaSourceSpec.StartupMode startup,
      Map<Integer, Long> offsets) {
    return new KafkaSourceSpec("S", "t\"1", Map.of(), startup, offsets, OptionalLong.empty(),
        RecordFormat.JSON, List.of(), false, Duration.ofSeconds(1));
  }

  /** A stream {@code name} over a new one-partition topic of the same name. */
  private static void declare(String name, String format, String columns, String options)
      throws Exception {
    kafka.createTopic(name, 1);
    sql.execute("CREATE STREAM " + name + " (" + columns + ") WITH (connector = 'kafka',"
        + " 'topic' = '" + name + "', 'properties.bootstrap.servers' = '"
        + kafka.bootstrapServers() + "', 'format' = '" + format + "'" + options + ")");
  }

  /** Runs {@code SELECT STREAM *} of the stream on Spark until it has read the whole topic. */
  private static List<List<Object>> readAll(String stream) throws Exception {
    List<List<Object>> rows = new ArrayList<>();
    try (SparkSource source = SparkSources.of(spark, sql.stream(stream.toUpperCase()));
         SparkContinuousQuery query = SparkContinuousQuery.start(
             new SparkPlanTranslator(Map.of(source.name(), source.rows()))
                 .translate(sql.plan("SELECT STREAM * FROM " + stream, EmitMode.APPEND)),
             checkpoints.resolve("q" + queries++), (batchId, batch) -> {
               synchronized (rows) {
                 batch.forEach(row -> rows.add(values(row)));
               }
             })) {
      // Spark's wait has no deadline; a test must not hang on a query that stopped advancing.
      assertTimeoutPreemptively(DEADLINE, () -> query.processAllAvailable());
    }
    synchronized (rows) {
      return List.copyOf(rows);
    }
  }

  /** Declares stream {@code name} (num INTEGER NOT NULL, label VARCHAR), sends, reads, fails. */
  private static void assertNotARow(String name, String format, List<String> values,
      String expected) throws Exception {
    declare(name, format, "num INTEGER NOT NULL, label VARCHAR", "");
    kafka.send(name, null, values);
    SQLException e = assertThrows(SQLException.class, () -> readAll(name));
    assertEquals("22000", e.getSQLState(), e::getMessage);
    assertEquals(expected + ". Fix or remove the record (on Spark the query cannot skip it),"
        + " then start the query again", e.getMessage());
  }

  private static List<Object> values(Row row) {
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < row.length(); i++) {
      Object v = row.get(i);
      values.add(v instanceof Timestamp t ? LocalDateTime.ofInstant(t.toInstant(), ZoneOffset.UTC)
          : v instanceof Date d ? d.toLocalDate() : v);
    }
    return values;
  }
}
