package dev.freshet.spark;

import dev.freshet.spark.hadoop.NioLocalFileSystem;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;

/**
 * Makes the long-lived SparkSession that runs Freshet's continuous queries, with Freshet as the
 * Spark driver: no web UI, the driver on the loopback address, few shuffle partitions (each is
 * a state store per stateful operator, opened every batch), RocksDB state checkpointed as
 * changelogs, and UTC; with a local master, {@code file:} paths through
 * {@link NioLocalFileSystem}, which spawns no {@code chmod} per checkpoint file, and broadcasts
 * left uncompressed.
 *
 * <pre>{@code
 * SparkSession spark = SparkSessions.local();
 * ...
 * spark.stop();
 * }</pre>
 */
public final class SparkSessions {
  /** What runs Spark's tasks unless the server is given a cluster: this JVM, two threads. */
  public static final String DEFAULT_MASTER = "local[2]";
  /** Spark's state store with its state off the Java heap, checkpointed as changelogs. */
  public static final String ROCKSDB_STATE_STORE =
      "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";

  /** Spark's switch for the RocksDB state store's changelog checkpointing. */
  static final String CHANGELOG_CHECKPOINTING =
      "spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled";

  private SparkSessions() {
  }

  /** {@link #create(String)} with {@link #DEFAULT_MASTER}: Spark's tasks in this JVM. */
  public static SparkSession local() {
    return create(DEFAULT_MASTER);
  }

  /**
   * The session of this JVM for {@code master} ({@code local[2]}, {@code spark://host:7077}),
   * made with Freshet's settings, or the one already made (Spark keeps one per JVM); the caller
   * stops it.
   */
  public static SparkSession create(String master) {
    return create(master, Map.of());
  }

  /**
   * {@link #create(String)}, then every entry of {@code conf} whose key starts with
   * {@code spark.} set on the session (a server's {@code --spark-conf}), over Freshet's settings;
   * other keys are Freshet's own and left out.
   *
   * <pre>{@code
   * SparkSession spark = SparkSessions.create("local[2]",
   *     Map.of("spark.sql.shuffle.partitions", "4", "engine", "spark"));   // "engine" left out
   * }</pre>
   */
  public static SparkSession create(String master, Map<String, String> conf) {
    SparkSession.Builder builder = freshetSettings(master);
    conf.forEach((key, value) -> {
      if (key.startsWith("spark.")) {
        builder.config(key, value);
      }
    });
    return builder.getOrCreate();
  }

  private static SparkSession.Builder freshetSettings(String master) {
    SparkSession.Builder builder = SparkSession.builder()
        .master(master)
        .appName("freshet")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        // Each shuffle partition is a state store of each stateful operator, opened by a task of
        // every batch: two keep a batch's latency low on a small machine.
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.streaming.stateStore.providerClass", ROCKSDB_STATE_STORE)
        // A batch's commit writes each store's changes as a changelog file, and the store's
        // snapshot only every few batches, in the background (Spark's maintenance): without it
        // every commit of every store makes and copies a RocksDB checkpoint. Spark reads
        // checkpoints of either kind, so views made before keep their state.
        .config(CHANGELOG_CHECKPOINTING, "true")
        // Adaptive execution does not apply to stateful streaming; Spark warns and turns it off
        // for every query otherwise.
        .config("spark.sql.adaptive.enabled", "false")
        // Spark's TimestampType is an instant: in UTC it reads back as the wall-clock TIMESTAMP
        // that Freshet wrote.
        .config("spark.sql.session.timeZone", "UTC")
        // Spark's plans and logs hide options whose keys match this; its default misses the
        // keys Freshet hides (SensitiveOptions), a Kafka stream's sasl.jaas.config among them.
        .config("spark.redaction.regex",
            "(?i)secret|password|passwd|token|access[.]?key|credential|jaas|key$");
    if (master.startsWith("local")) {
      // Without Hadoop's native library, its file: file system runs chmod for every file and
      // directory a checkpoint gets (several a batch). Local masters only: a cluster's executors
      // write state too, and need not have Freshet's classes.
      Configuration hadoop = new Configuration(false);
      NioLocalFileSystem.configure(hadoop);
      hadoop.forEach(entry -> builder.config("spark.hadoop." + entry.getKey(), entry.getValue()));
      // Every batch of a stateful query broadcasts its Hadoop configuration to the state store
      // tasks; in one JVM a broadcast stays in its memory, where compressing it only costs CPU.
      builder.config("spark.broadcast.compress", "false");
    }
    return builder;
  }
}
