package dev.freshet.spark;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.WindowedQuery;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.WatermarkSpec;
import dev.freshet.planner.logical.conversion.LogicalPlanConverter;
import dev.freshet.planner.logical.conversion.LogicalTypes;
import dev.freshet.sql.FreshetSqlParser;
import dev.freshet.sql.parser.EmitMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.streaming.runtime.MemoryStream;
import org.apache.spark.sql.types.StructType;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A SparkSession with Freshet's settings (the JVM's, shared: extend the test class with
 * {@link LocalSparkSession}), Freshet's planner over a catalog of two streams, and
 * queries translated and run on Spark over MemoryStreams (one per stream and query):
 * {@code events (k VARCHAR, ts TIMESTAMP(3), v INTEGER)} with a 5 s watermark delay on ts, and
 * {@code clicks (user_id VARCHAR, url VARCHAR, amount INTEGER)}.
 */
final class SparkBench implements AutoCloseable {
  /** Generous: a batch takes a fraction of a second, but the test machine is loaded. */
  static final Duration DEADLINE = Duration.ofSeconds(60);
  static final String EVENTS_DDL = "CREATE STREAM events (k VARCHAR, ts TIMESTAMP(3),"
      + " v INTEGER, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH (connector = 'memory')";
  static final String CLICKS_DDL = "CREATE STREAM clicks (user_id VARCHAR, url VARCHAR,"
      + " amount INTEGER) WITH (connector = 'memory')";

  /**
   * A session of its own over the JVM's SparkContext ({@link LocalSparkSession}): the settings a
   * test class changes and the queries it starts stay its own.
   */
  final SparkSession spark = LocalSparkSession.get().newSession();
  final Catalog catalog = new Catalog();
  final FreshetPlanner planner = new FreshetPlanner(catalog);
  private final Path checkpoints;
  private int queries;

  SparkBench() throws Exception {
    checkpoints = Files.createTempDirectory("freshet-spark");
    RelDataTypeFactory f = planner.typeFactory();
    catalog.addStream(new StreamTable("EVENTS", RelDataTypeImpl.proto(f.builder()
        .add("K", SqlTypeName.VARCHAR).nullable(true)
        .add("TS", SqlTypeName.TIMESTAMP, 3).nullable(true)
        .add("V", SqlTypeName.INTEGER).nullable(true)
        .build()), Optional.of(new WatermarkSpec("TS", 5000)), Map.of("connector", "memory"),
        new dev.freshet.executor.source.MemoryStream("EVENTS", 3)));
    // EVENTS with 'watermark.idle-timeout' = '1 s', which Spark has no counterpart of.
    catalog.addStream(new StreamTable("IDLE_EVENTS", RelDataTypeImpl.proto(f.builder()
        .add("K", SqlTypeName.VARCHAR).nullable(true)
        .add("TS", SqlTypeName.TIMESTAMP, 3).nullable(true)
        .build()), Optional.of(new WatermarkSpec("TS", 5000, 1000)),
        Map.of("connector", "memory", "watermark.idle-timeout", "1 s"),
        new dev.freshet.executor.source.MemoryStream("IDLE_EVENTS", 2)));
    catalog.addStream(new StreamTable("CLICKS", RelDataTypeImpl.proto(f.builder()
        .add("USER_ID", SqlTypeName.VARCHAR).nullable(true)
        .add("URL", SqlTypeName.VARCHAR).nullable(true)
        .add("AMOUNT", SqlTypeName.INTEGER).nullable(true)
        .build()), Optional.empty(), Map.of("connector", "memory"),
        new dev.freshet.executor.source.MemoryStream("CLICKS", 3)));
  }

  /** Freshet's windowed plan of {@code sql}. */
  WindowedQuery plan(String sql, EmitMode emit) throws Exception {
    return planner.planWindowed(FreshetSqlParser.parse(sql), emit,
        FreshetPlanner.DEFAULT_MAX_WINDOWS_PER_ROW);
  }

  /** Plans and translates {@code sql} over fresh MemoryStreams, one per stream of the catalog. */
  Translated translate(String sql, EmitMode emit) throws Exception {
    return translate(sql, emit, false);
  }

  /** {@link #translate(String, EmitMode)}, keyed or not ({@link SparkPlanTranslator}). */
  Translated translate(String sql, EmitMode emit, boolean keyed) throws Exception {
    WindowedQuery plan = plan(sql, emit);
    Map<String, MemoryStream<Row>> streams = new HashMap<>();
    Map<String, Dataset<Row>> sources = new HashMap<>();
    for (String name : List.of("EVENTS", "CLICKS")) {
      StructType schema = SparkTypes.schemaOf(LogicalTypes.fields(
          catalog.stream(name).orElseThrow().getRowType(planner.typeFactory())));
      MemoryStream<Row> stream = MemoryStream.apply(Encoders.row(schema), spark);
      streams.put(name, stream);
      sources.put(name, stream.toDF());
    }
    return new Translated(new SparkPlanTranslator(sources).translate(
        LogicalPlanConverter.convert(plan), keyed), streams);
  }

  /** Translates and starts {@code sql}, reading {@code stream}. */
  Running start(String sql, EmitMode emit, String stream) throws Exception {
    return start(sql, emit, stream, false);
  }

  /** Translates, keyed or not, and starts {@code sql}, reading {@code stream}. */
  Running start(String sql, EmitMode emit, String stream, boolean keyed) throws Exception {
    Translated translated = translate(sql, emit, keyed);
    return new Running(translated.query(), translated.streams().get(stream),
        checkpoints.resolve("q" + queries++));
  }

  @Override public void close() {
    try (java.util.stream.Stream<Path> files = Files.walk(checkpoints)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** A translated query and the sources it reads. */
  record Translated(SparkQuery query, Map<String, MemoryStream<Row>> streams) {
  }

  /** A query running on Spark whose batches are fed and read one at a time. */
  static final class Running implements AutoCloseable {
    private final MemoryStream<Row> stream;
    private final SparkContinuousQuery query;
    private final List<Batch> delivered = new ArrayList<>();

    Running(SparkQuery query, MemoryStream<Row> stream, Path checkpoint) throws SQLException {
      this.stream = stream;
      SparkRows toFreshet = SparkRows.of(query);
      this.query = SparkContinuousQuery.start(query, checkpoint, (batchId, rows) -> {
        List<List<Object>> freshet = toFreshet.convert(rows).stream().map(Arrays::asList).toList();
        synchronized (delivered) {
          delivered.add(new Batch(batchId, rows.stream().map(SparkBench::values).toList(),
              freshet));
        }
      });
    }

    /**
     * Adds {@code rows} as one batch of input (timestamps as {@link LocalDateTime} in UTC), waits
     * until Spark has run every batch they call for, and returns what those batches delivered.
     */
    List<Batch> add(List<Object[]> rows) throws SQLException {
      int before;
      synchronized (delivered) {
        before = delivered.size();
      }
      List<Row> sparkRows = new ArrayList<>();
      for (Object[] row : rows) {
        Object[] values = row.clone();
        for (int i = 0; i < values.length; i++) {
          if (values[i] instanceof LocalDateTime time) {
            values[i] = Timestamp.from(time.toInstant(ZoneOffset.UTC));
          }
        }
        sparkRows.add(RowFactory.create(values));
      }
      stream.addData(CollectionConverters.asScala(sparkRows));
      // Spark's wait has no deadline; a test must not hang on a query that stopped advancing.
      assertTimeoutPreemptively(DEADLINE, () -> query.processAllAvailable(),
          () -> "Spark did not run the batches of " + rows.size() + " rows within " + DEADLINE);
      synchronized (delivered) {
        return List.copyOf(delivered.subList(before, delivered.size()));
      }
    }

    SparkContinuousQuery query() {
      return query;
    }

    /** The stream the query reads, to add rows without waiting for their batches. */
    MemoryStream<Row> stream() {
      return stream;
    }

    @Override public void close() {
      query.close();
    }
  }

  /**
   * One batch's output, each row as its values (timestamps as UTC {@link LocalDateTime}s) and
   * as Freshet's values ({@link SparkRows}).
   */
  record Batch(long batchId, List<List<Object>> rows, List<List<Object>> freshetRows) {
  }

  static List<Object> values(Row row) {
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < row.length(); i++) {
      Object v = row.get(i);
      values.add(v instanceof Timestamp t ? LocalDateTime.ofInstant(t.toInstant(), ZoneOffset.UTC)
          : v);
    }
    return values;
  }

}
