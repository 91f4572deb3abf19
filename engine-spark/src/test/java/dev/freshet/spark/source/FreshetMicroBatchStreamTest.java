package dev.freshet.spark.source;

import static dev.freshet.spark.source.FreshetSourceTest.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.executor.source.MemoryStream;
import dev.freshet.executor.source.StreamColumn;
import dev.freshet.testkit.SparkTest;
import java.util.List;
import org.apache.spark.sql.connector.read.InputPartition;
import org.junit.jupiter.api.Test;

/** The micro-batch stream's offsets, and its errors about offsets, without a SparkSession. */
@SparkTest
class FreshetMicroBatchStreamTest {
  private static final List<StreamColumn> COLUMNS = List.of(new StreamColumn("K", "VARCHAR"),
      new StreamColumn("V", "INTEGER"));

  @Test void shouldUseTheStreamsOffsets() throws Exception {
    MemoryStream stream = new MemoryStream("OFFSETS", 2);
    try (StreamRegistration offsets = FreshetSource.register("OFFSETS", stream, COLUMNS)) {
      FreshetMicroBatchStream spark = stream(offsets);
      assertEquals("{\"offset\":0}", spark.initialOffset().json());
      assertNull(spark.latestOffset(), "no data yet");
      stream.addData(List.of(row("a", 1), row("b", 2)));
      stream.addData(List.<Object[]>of(row("c", 3)));
      assertEquals("{\"offset\":2}", spark.latestOffset().json());
      assertEquals(new FreshetOffset(2), spark.deserializeOffset("{ \"offset\" : 2 }"));
      InputPartition[] partitions = spark.planInputPartitions(new FreshetOffset(1),
          new FreshetOffset(2));
      assertEquals(List.of(new RowSlice(offsets.id(), 1, 2, 0, 1)), List.of(partitions));
    }
  }

  @Test void shouldRefuseABatchBeyondTheStreamsRows() throws Exception {
    MemoryStream stream = new MemoryStream("SHORT", 2);
    stream.addData(List.<Object[]>of(row("a", 1)));
    try (StreamRegistration registration = FreshetSource.register("SHORT", stream, COLUMNS)) {
      FreshetSourceException e = assertThrows(FreshetSourceException.class,
          () -> stream(registration).planInputPartitions(new FreshetOffset(0),
              new FreshetOffset(4)));
      assertEquals("55000", e.sqlException().getSQLState());
      assertEquals("The checkpoint asks stream 'SHORT' for its rows up to offset 4, but the"
          + " stream's latest offset is 1: the stream was dropped and created again, or lost"
          + " rows it kept in memory only. Start the query with a new checkpoint location",
          e.getMessage());
      // A checkpoint that committed offset 3 of a stream now at offset 1: Spark sees the offsets
      // differ and plans (3, 1].
      e = assertThrows(FreshetSourceException.class,
          () -> stream(registration).planInputPartitions(new FreshetOffset(3),
              new FreshetOffset(1)));
      assertEquals("55000", e.sqlException().getSQLState());
      assertEquals("The checkpoint asks stream 'SHORT' for its rows up to offset 3, but the"
          + " stream's latest offset is 1: the stream was dropped and created again, or lost"
          + " rows it kept in memory only. Start the query with a new checkpoint location",
          e.getMessage());
    }
  }

  @Test void shouldRefuseAnOffsetItDidNotWrite() throws Exception {
    MemoryStream stream = new MemoryStream("FOREIGN", 2);
    try (StreamRegistration registration = FreshetSource.register("FOREIGN", stream, COLUMNS)) {
      for (String json : List.of("5", "{\"offset\":-1}", "{\"offset\":\"5\"}",
          "{\"topic\":{\"0\":5}}")) {
        FreshetSourceException e = assertThrows(FreshetSourceException.class,
            () -> stream(registration).deserializeOffset(json), json);
        assertEquals("XX001", e.sqlException().getSQLState());
        assertEquals("The checkpoint's offset for stream 'FOREIGN' is " + json + ", not"
            + " {\"offset\":<n>} with n >= 0: the checkpoint location belongs to another query"
            + " or source. Start the query with a new checkpoint location", e.getMessage());
      }
    }
  }

  private static FreshetMicroBatchStream stream(StreamRegistration registration) {
    return new FreshetMicroBatchStream(registration.id(), new RowSlicer(2, 1000),
        new RowSliceReaderFactory(registration.schema()));
  }
}
