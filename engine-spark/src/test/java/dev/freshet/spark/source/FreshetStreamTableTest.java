package dev.freshet.spark.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.executor.source.MemoryStream;
import dev.freshet.executor.source.StreamColumn;
import dev.freshet.testkit.SparkTest;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The read options of the Freshet source that it refuses, without a SparkSession. */
@SparkTest
class FreshetStreamTableTest {
  private final StreamRegistration registration;
  private final FreshetStreamTable table;

  FreshetStreamTableTest() throws Exception {
    registration = FreshetSource.register("VOLATILE", new MemoryStream("VOLATILE", 1),
        List.of(new StreamColumn("K", "VARCHAR")));
    table = new FreshetStreamTable(RegisteredStreams.get(registration.id()));
  }

  @AfterEach void unregister() {
    registration.close();
  }

  @Test void shouldRefuseToReadTheLogOfAStreamKeptInMemory() {
    FreshetSourceException e = assertThrows(FreshetSourceException.class,
        () -> table.newScanBuilder(options("readFrom", "log")));
    assertEquals("0A000", e.sqlException().getSQLState());
    assertEquals("Stream 'VOLATILE' keeps its rows in the driver's memory only, so executors"
        + " outside the driver's JVM cannot read it. Start Freshet with a data directory on"
        + " storage that the executors share, or run Spark with a local master (local[n])",
        e.getMessage());
  }

  @Test void shouldRefuseAnUnknownPlaceToReadFrom() {
    FreshetSourceException e = assertThrows(FreshetSourceException.class,
        () -> table.newScanBuilder(options("readFrom", "disk")));
    assertEquals("22023", e.sqlException().getSQLState());
    assertEquals("Option 'readFrom' of the Freshet source is 'disk'; it must be one of"
        + " 'memory' or 'log'", e.getMessage());
  }

  @Test void shouldRefuseAPartitionCountThatIsNotPositive() {
    for (String value : List.of("0", "-2", "two")) {
      FreshetSourceException e = assertThrows(FreshetSourceException.class,
          () -> table.newScanBuilder(new CaseInsensitiveStringMap(Map.of("MAXPARTITIONS",
              value, "readFrom", "memory"))), value);
      assertEquals("22023", e.sqlException().getSQLState());
      assertEquals("Option 'maxPartitions' of the Freshet source is '" + value + "'; it must"
          + " be a positive integer, e.g. '4'", e.getMessage());
    }
  }

  private static CaseInsensitiveStringMap options(String key, String value) {
    return new CaseInsensitiveStringMap(Map.of(key, value,
        FreshetSource.MAX_PARTITIONS_OPTION, "2"));
  }
}
