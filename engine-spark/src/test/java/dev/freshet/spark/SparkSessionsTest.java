package dev.freshet.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.spark.hadoop.NioLocalFileSystem;
import dev.freshet.spark.hadoop.NioLocalFs;
import dev.freshet.testkit.SparkTest;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A server's Spark settings ({@code --spark-conf}) reach the session, over Freshet's own; Spark
 * hides the options Freshet hides; a local session's checkpoints go through the file system that
 * spawns no process.
 */
@SparkTest
@ExtendWith(LocalSparkSession.class)
class SparkSessionsTest {
  @Test void shouldSetEverySparkEntryOverFreshetsSettingsAndLeaveOtherKeysOut() {
    // create() makes a session only if none runs: the JVM's shared one goes first.
    LocalSparkSession.stop();
    SparkSession spark = SparkSessions.create(SparkSessions.DEFAULT_MASTER, Map.of(
        "spark.sql.shuffle.partitions", "3",
        "spark.sql.streaming.minBatchesToRetain", "7",
        "engine", "spark"));
    try {
      // Freshet sets 2 partitions; the entry wins.
      assertEquals("3", spark.conf().get("spark.sql.shuffle.partitions"));
      assertEquals("7", spark.conf().get("spark.sql.streaming.minBatchesToRetain"));
      assertFalse(spark.sparkContext().getConf().contains("engine"));
      // Freshet's settings that the entries do not name stay.
      assertEquals("false", spark.sparkContext().getConf().get("spark.ui.enabled"));
      assertEquals("UTC", spark.conf().get("spark.sql.session.timeZone"));
    } finally {
      spark.stop();
    }
  }

  /**
   * State is checkpointed as changelogs (a snapshot every few batches, not a RocksDB checkpoint
   * per store and batch), and a local session, whose broadcasts stay in its JVM, does not
   * compress them.
   */
  @Test void shouldCheckpointStateAsChangelogsAndKeepLocalBroadcastsUncompressed() {
    SparkSession spark = LocalSparkSession.get();
    assertEquals(SparkSessions.ROCKSDB_STATE_STORE,
        spark.conf().get("spark.sql.streaming.stateStore.providerClass"));
    assertEquals("true", spark.conf().get(SparkSessions.CHANGELOG_CHECKPOINTING));
    assertEquals("false", spark.sparkContext().getConf().get("spark.broadcast.compress"));
  }

  /** Spark hides in its plans and logs the options whose keys Freshet hides. */
  @Test void shouldRedactTheKeysFreshetHides() {
    SparkSession spark = LocalSparkSession.get();
    Pattern redacted = Pattern.compile(spark.sparkContext().getConf()
        .get("spark.redaction.regex"));
    for (String key : List.of("kafka.sasl.jaas.config", "kafka.ssl.key.password",
        "fs.s3a.access.key", "password", "kafka.ssl.keystore.key")) {
      assertTrue(redacted.matcher(key).find(), key);
    }
    for (String key : List.of("kafka.key.deserializer", "subscribe", "startingOffsets")) {
      assertFalse(redacted.matcher(key).find(), key);
    }
  }

  /**
   * The Hadoop configuration of a local session's queries (offset and commit logs, state) gives
   * {@code file:} paths the file system without child processes, to both of Hadoop's APIs.
   */
  @Test void shouldGiveLocalCheckpointsTheFileSystemWithoutChildProcesses() throws Exception {
    SparkSession spark = LocalSparkSession.get();
    for (Configuration conf : List.of(spark.sparkContext().hadoopConfiguration(),
        spark.sessionState().newHadoopConf())) {
      assertInstanceOf(NioLocalFileSystem.class, FileSystem.get(URI.create("file:///"), conf));
      assertInstanceOf(NioLocalFs.class, FileContext.getFileContext(conf)
          .getDefaultFileSystem());
    }
  }
}
