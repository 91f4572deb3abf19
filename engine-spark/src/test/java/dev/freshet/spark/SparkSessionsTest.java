package dev.freshet.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.testkit.SparkTest;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * A server's Spark settings ({@code --spark-conf}) reach the session, over Freshet's own; Spark
 * hides the options Freshet hides.
 */
@SparkTest
class SparkSessionsTest {
  @Test void shouldSetEverySparkEntryOverFreshetsSettingsAndLeaveOtherKeysOut() {
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

  /** Spark hides in its plans and logs the options whose keys Freshet hides. */
  @Test void shouldRedactTheKeysFreshetHides() {
    SparkSession spark = SparkSessions.create(SparkSessions.DEFAULT_MASTER);
    try {
      Pattern redacted = Pattern.compile(spark.sparkContext().getConf()
          .get("spark.redaction.regex"));
      for (String key : List.of("kafka.sasl.jaas.config", "kafka.ssl.key.password",
          "fs.s3a.access.key", "password", "kafka.ssl.keystore.key")) {
        assertTrue(redacted.matcher(key).find(), key);
      }
      for (String key : List.of("kafka.key.deserializer", "subscribe", "startingOffsets")) {
        assertFalse(redacted.matcher(key).find(), key);
      }
    } finally {
      spark.stop();
    }
  }
}
