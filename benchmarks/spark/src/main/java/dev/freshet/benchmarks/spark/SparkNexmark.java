package dev.freshet.benchmarks.spark;

import dev.freshet.benchmarks.e2e.JsonLine;
import dev.freshet.connectors.nexmark.NexmarkColumn;
import dev.freshet.connectors.nexmark.NexmarkEventType;
import dev.freshet.connectors.nexmark.NexmarkGenerator;
import dev.freshet.connectors.nexmark.NexmarkSpec;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Runs Nexmark queries on Spark Structured Streaming, one after the other in this JVM, over the
 * events Freshet reads: each stream is Spark's {@code rate-micro-batch} source, whose value is
 * the ordinal of an event of the stream's type, mapped to the event by Freshet's generator
 * ({@link NexmarkGenerator}, the same code and parameters as {@code connector = 'nexmark'}).
 *
 * <p>Usage: {@code SparkNexmark maxEvents bidsPerBatch queryFile}; each line of the file is one
 * query: name, mode, key columns, streams ({@code bid=auction,price,date_time;person=...}),
 * Spark SQL and digest, separated by tabs. A query's result goes to a {@code foreachBatch} that
 * adds up its digest per batch (APPEND) or keeps each key's latest row (UPDATE); its rate is
 * the input rows over the batches' {@code triggerExecution} time, as the other workloads'.
 */
public final class SparkNexmark {
  /** Batches run past the last event: enough for a chain of three stateful operators. */
  private static final int CLOSING_BATCHES = 4;

  private SparkNexmark() {}

  public static void main(String[] args) throws Exception {
    long maxEvents = Long.parseLong(args[0]);
    long bidsPerBatch = Long.parseLong(args[1]);
    SparkSession spark = SparkWorkloads.session();
    spark.conf().set("spark.sql.session.timeZone", "UTC");
    for (String line : Files.readAllLines(Path.of(args[2]), StandardCharsets.UTF_8)) {
      String[] f = line.split("\t");
      JsonLine result;
      try {
        result = run(spark, maxEvents, bidsPerBatch, f[0], f[1], Integer.parseInt(f[2]), f[3],
            f[4], f[5]);
      } catch (Exception e) {
        String message = String.valueOf(e.getMessage()).split("\n")[0];
        result = new JsonLine().put("error", message);
      }
      System.out.println(JsonLine.RESULT_PREFIX + result.put("engine", "spark")
          .put("workload", "NEXMARK").put("query", f[0]).put("events", maxEvents));
      System.out.flush();
      for (StreamingQuery q : spark.streams().active()) {
        q.stop();
      }
    }
    spark.stop();
    System.exit(0);
  }

  static JsonLine run(SparkSession spark, long maxEvents, long bidsPerBatch, String name,
      String mode, int keyColumns, String streams, String sql, String digest) throws Exception {
    long rows = 0;
    for (String stream : streams.split(";")) {
      String[] kv = stream.split("=");
      NexmarkEventType type = NexmarkEventType.named(kv[0]).orElseThrow();
      rows += type.countBefore(maxEvents);
      source(spark, type, kv[1].split(","), maxEvents,
          rowsPerBatch(type, bidsPerBatch)).createOrReplaceTempView(type.text());
    }
    Dataset<Row> result = spark.sql(sql);
    boolean append = mode.equals("APPEND");
    List<BigDecimal> sums = new ArrayList<>();
    Map<List<Object>, Row> latest = new LinkedHashMap<>();
    VoidFunction2<Dataset<Row>, Long> sink = (batch, id) -> {
      if (append) {
        batch.createOrReplaceTempView("r");
        Row d = batch.sparkSession().sql("SELECT " + digest + " FROM r").first();
        synchronized (sums) {
          for (int i = 0; i < d.length(); i++) {
            BigDecimal v = d.isNullAt(i) ? BigDecimal.ZERO : new BigDecimal(d.get(i).toString());
            if (sums.size() <= i) {
              sums.add(v);
            } else {
              sums.set(i, sums.get(i).add(v));
            }
          }
        }
      } else {
        for (Row r : batch.collectAsList()) {
          List<Object> key = new ArrayList<>();
          for (int i = 0; i < keyColumns; i++) {
            key.add(r.get(i));
          }
          synchronized (latest) {
            latest.put(key, r);
          }
        }
      }
    };
    SparkWorkloads.Progress progress = new SparkWorkloads.Progress();
    spark.streams().addListener(progress);
    Path checkpoint = Files.createTempDirectory("spark-nexmark-");
    long start = System.nanoTime();
    StreamingQuery query = result.writeStream().outputMode(mode.toLowerCase(java.util.Locale.ROOT))
        .foreachBatch(sink).option("checkpointLocation", checkpoint.toString()).start();
    long deadline = start + TimeUnit.SECONDS.toNanos(SparkWorkloads.DEADLINE_SECONDS);
    // Past the last event, more batches (of rows past the end, dropped) run with the final
    // watermark, which close the windows it passes, as Freshet's batches after its last do.
    // Spark gives each stateful operator of a chain (an aggregation into a join) a watermark of
    // its own, a batch behind the one before it, so a chain needs a batch per operator.
    int lastDataBatch = -1;
    while (System.nanoTime() < deadline && query.isActive()) {
      if (lastDataBatch < 0 && progress.rows() >= rows) {
        lastDataBatch = progress.batches.size();
      }
      if (lastDataBatch >= 0 && progress.batches.size() >= lastDataBatch + 1 + CLOSING_BATCHES) {
        break;
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
    }
    if (!query.isActive() && query.exception().isDefined()) {
      throw new IllegalStateException(query.exception().get().getMessage());
    }
    query.stop();
    double wall = (System.nanoTime() - start) / 1e9;
    spark.streams().removeListener(progress);
    long read = 0;
    long millis = 0;
    int batches = 0;
    for (StreamingQueryProgress p : progress.batches) {
      if (read < rows && p.numInputRows() > 0) {
        read += p.numInputRows();
        millis += p.durationMs().get("triggerExecution");
        batches++;
      }
    }
    String digestText;
    if (append) {
      List<String> values = new ArrayList<>();
      for (BigDecimal v : sums) {
        values.add(normalized(v));
      }
      digestText = String.join(" ", values);
    } else {
      spark.createDataFrame(new ArrayList<>(latest.values()), result.schema())
          .createOrReplaceTempView("r");
      Row d = spark.sql("SELECT " + digest + " FROM r").first();
      List<String> values = new ArrayList<>();
      for (int i = 0; i < d.length(); i++) {
        values.add(d.isNullAt(i) ? "0" : normalized(new BigDecimal(d.get(i).toString())));
      }
      digestText = String.join(" ", values);
    }
    return new JsonLine().put("rows", read).put("batches", batches)
        .put("rows_per_s", millis == 0 ? Double.NaN : read * 1000.0 / millis)
        .put("wall_s", wall)
        .put("complete", lastDataBatch >= 0 ? "yes" : "no").put("digest", digestText);
  }

  static String normalized(BigDecimal v) {
    return v.signum() == 0 ? "0" : v.stripTrailingZeros().toPlainString();
  }

  /** Rows per batch of {@code type}'s stream: the global events of a batch of bids. */
  static long rowsPerBatch(NexmarkEventType type, long bidsPerBatch) {
    return bidsPerBatch / NexmarkEventType.BID.proportion() * type.proportion();
  }

  /**
   * Stream {@code type} with {@code columns}: the rate source's value {@code k} becomes the
   * type's event {@code k}; values past the stream's end (the rate source has none) are dropped.
   */
  static Dataset<Row> source(SparkSession spark, NexmarkEventType type, String[] columns,
      long maxEvents, long rowsPerBatch) {
    int[] fields = new int[columns.length];
    List<StructField> schema = new ArrayList<>();
    for (int i = 0; i < columns.length; i++) {
      fields[i] = -1;
      for (int j = 0; j < type.columns().size(); j++) {
        if (type.columns().get(j).isNamed(columns[i].trim())) {
          fields[i] = j;
        }
      }
      NexmarkColumn.Type t = type.columns().get(fields[i]).type();
      DataType sparkType = t == NexmarkColumn.Type.VARCHAR ? DataTypes.StringType
          : t == NexmarkColumn.Type.TIMESTAMP ? DataTypes.TimestampType : DataTypes.LongType;
      schema.add(DataTypes.createStructField(columns[i].trim(), sparkType, false));
    }
    StructType rowType = DataTypes.createStructType(schema);
    long end = type.countBefore(maxEvents);
    // The generator's parameters as Freshet's defaults; captured as numbers, which Spark
    // serializes into its tasks.
    NexmarkSpec spec = NexmarkSpec.of(type.text(), type).withMaxEvents(maxEvents);
    long seed = spec.seed();
    long firstEventTimeMs = spec.firstEventTimeMs();
    long eventTimeRate = spec.eventTimeRate();
    MapPartitionsFunction<Row, Row> generate = values -> new Iterator<>() {
      private final NexmarkGenerator.Cursor cursor =
          new NexmarkGenerator(seed, firstEventTimeMs, eventTimeRate).cursor();
      private Row next = advance();

      private Row advance() {
        while (values.hasNext()) {
          long k = values.next().getLong(1);
          if (k < end) {
            cursor.moveTo(type, k);
            Object[] row = new Object[fields.length];
            for (int i = 0; i < fields.length; i++) {
              NexmarkColumn.Type t = type.columns().get(fields[i]).type();
              row[i] = t == NexmarkColumn.Type.VARCHAR ? cursor.stringValue(fields[i])
                  : t == NexmarkColumn.Type.TIMESTAMP ? new Timestamp(cursor.longValue(fields[i]))
                  : (Object) cursor.longValue(fields[i]);
            }
            return RowFactory.create(row);
          }
        }
        return null;
      }

      @Override public boolean hasNext() {
        return next != null;
      }

      @Override public Row next() {
        Row r = next;
        next = advance();
        return r;
      }
    };
    return spark.readStream().format("rate-micro-batch").option("rowsPerBatch", rowsPerBatch)
        .option("numPartitions", 2).load()
        .mapPartitions(generate, Encoders.row(rowType))
        .withWatermark("date_time", "5 seconds");
  }
}
