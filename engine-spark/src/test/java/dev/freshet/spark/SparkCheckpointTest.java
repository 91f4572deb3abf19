package dev.freshet.spark;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.testkit.SparkTest;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a crash before a view's first Spark batch leaves is cleared before Spark starts (Spark
 * 4.2 refuses a new query's directory that is not empty); a checkpoint with an offset file is
 * left for Spark to resume from.
 */
@SparkTest
class SparkCheckpointTest {
  @TempDir Path dir;

  @Test void shouldClearTheTemporaryFilesOfACrashBeforeTheFirstOffsetFile() throws Exception {
    Files.createDirectories(dir.resolve("offsets"));
    Files.writeString(dir.resolve("offsets/.0.5f1c.tmp"), "v1");
    Files.createDirectories(dir.resolve("state/0/0"));
    Files.writeString(dir.resolve("metadata"), "{\"id\":\"q\"}");
    new SparkCheckpoint(dir.toString(), false).clearBeforeFirstBatch(new Configuration());
    assertFalse(Files.exists(dir.resolve("offsets")));
    assertFalse(Files.exists(dir.resolve("state")));
    // The query's id stays: the same query starts.
    assertTrue(Files.exists(dir.resolve("metadata")));
  }

  @Test void shouldLeaveACheckpointThatHasABatch() throws Exception {
    Files.createDirectories(dir.resolve("offsets"));
    Files.writeString(dir.resolve("offsets/0"), "v1");
    Files.writeString(dir.resolve("offsets/.1.5f1c.tmp"), "v1");
    Files.createDirectories(dir.resolve("state/0/0"));
    new SparkCheckpoint(dir.toString(), false).clearBeforeFirstBatch(new Configuration());
    assertTrue(Files.exists(dir.resolve("offsets/0")));
    assertTrue(Files.exists(dir.resolve("offsets/.1.5f1c.tmp")));
    assertTrue(Files.exists(dir.resolve("state/0/0")));
  }
}
