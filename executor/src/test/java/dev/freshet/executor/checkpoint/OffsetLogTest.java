package dev.freshet.executor.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tests {@link OffsetLog}: Spark's {@code offsets/N} layout, byte for byte, and its errors. */
class OffsetLogTest {
  private static final Map<String, String> CONF = conf();

  @TempDir Path dir;

  private static Map<String, String> conf() {
    // Not in key order, to show that the file is.
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put(OffsetSeq.STATE_STORE_PROVIDER, "memory");
    conf.put(OffsetSeq.STATE_PARTITIONS, "4");
    conf.put(OffsetSeq.STATE_FORMAT_VERSION, "1");
    return conf;
  }

  private OffsetLog log() {
    return new OffsetLog(dir.resolve("offsets"));
  }

  @Test void shouldWriteSparksLayoutWhenAdding() throws IOException {
    OffsetLog log = log();

    log.add(0, new OffsetSeq(0, 1_700_000_000_123L, CONF,
        Arrays.asList(SourceOffset.of(42), null)));

    assertEquals(sealed("v1\n"
        + "{\"batchWatermarkMs\":0,\"batchTimestampMs\":1700000000123,\"conf\":{"
        + "\"state.format.version\":\"1\",\"state.partitions\":\"4\","
        + "\"state.store.provider\":\"memory\"}}\n"
        + "42\n"
        + "-"), Files.readString(log.batchFile(0)));
  }

  @Test void shouldReadBackWhatWasWrittenWhenOffsetsAreMissingOrLarge() {
    OffsetLog log = log();
    OffsetSeq seq = new OffsetSeq(15_000, -1, Map.of("k\"ey", "v\u00e4l\nue"),
        Arrays.asList(null, SourceOffset.of(Long.MAX_VALUE), SourceOffset.of(0)));

    log.add(3, seq);

    assertEquals(Optional.of(seq), log.get(3));
    assertEquals(List.of("k\"ey"), List.copyOf(log.get(3).orElseThrow().conf().keySet()));
  }

  @Test void shouldKeepAnOffsetPerPartitionAsTheSourceWroteIt() throws IOException {
    OffsetLog log = log();
    SourceOffset kafka = new SourceOffset("{\"orders\":{\"0\":42,\"1\":17}}");

    log.add(0, new OffsetSeq(0, 1, Map.of(), Arrays.asList(kafka, SourceOffset.of(3))));

    assertTrue(Files.readString(log.batchFile(0))
        .contains("\n{\"orders\":{\"0\":42,\"1\":17}}\n3\ncrc32c "));
    assertEquals(List.of(kafka, SourceOffset.of(3)), log.get(0).orElseThrow().offsets());
    assertEquals(java.util.OptionalLong.empty(), kafka.asLong());
  }

  @Test void shouldRefuseAnOffsetObjectThatIsNotJson() throws IOException {
    OffsetLog log = log();
    Files.createDirectories(log.directory());
    Files.writeString(log.batchFile(0), "v1\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":0,"
        + "\"conf\":{}}\n{\"orders\":{\"0\":");

    CheckpointException e = assertThrows(CheckpointException.class, () -> log.get(0));
    assertTrue(e.getMessage().contains("line 3 (a source offset)"), e.getMessage());
  }

  @Test void shouldReadAnEntryWhenItHasNoSourcesOrAFinalNewline() throws IOException {
    OffsetLog log = log();
    Files.writeString(log.batchFile(0),
        "v1\n{\"batchWatermarkMs\":1,\"batchTimestampMs\":2,\"conf\":{}}\n");
    Files.writeString(log.batchFile(1), "v1\n"
        + "{\"batchWatermarkMs\":1,\"batchTimestampMs\":2,\"conf\":{},\"addedLater\":[1]}\n7\n");

    assertEquals(Optional.of(new OffsetSeq(1, 2, Map.of(), List.of())), log.get(0));
    assertEquals(Optional.of(new OffsetSeq(1, 2, Map.of(), at(7))), log.get(1));
  }

  @Test void shouldNameTheFileWhenTheMetadataLineIsMissingOrTruncated() throws IOException {
    OffsetLog log = log();
    Path file = log.batchFile(2);
    String prefix = "Checkpoint file " + file + " is corrupt or truncated: ";

    assertCorrupt(log, "v1", prefix + "line 2 (the batch metadata) is missing");
    assertCorrupt(log, "v1\n{\"batchWatermarkMs\":0,\"batchTimes",
        prefix + "line 2 (the batch metadata) is not valid JSON");
    assertCorrupt(log, "v1\n", prefix + "line 2 (the batch metadata) is missing");
    assertCorrupt(log, "v1\n\n42",
        prefix + "line 2 (the batch metadata) is not a JSON object");
    assertCorrupt(log, "v1\n[1]", prefix + "line 2 (the batch metadata) is not a JSON object");
    assertCorrupt(log, "v1\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":1,\"conf\":{}} x",
        prefix + "line 2 (the batch metadata) is not valid JSON");
    assertCorrupt(log, "v1\n{\"batchWatermarkMs\":0,\"batchWatermarkMs\":1}",
        prefix + "line 2 (the batch metadata) is not valid JSON");
  }

  @Test void shouldNameTheFieldWhenTheMetadataLacksOneOrHasTheWrongType() throws IOException {
    OffsetLog log = log();
    String prefix = "Checkpoint file " + log.batchFile(2) + " is corrupt or truncated: line 2"
        + " (the batch metadata) has ";

    assertCorrupt(log, "v1\n{\"batchTimestampMs\":1,\"conf\":{}}",
        prefix + "no \"batchWatermarkMs\"");
    assertCorrupt(log, "v1\n{\"batchWatermarkMs\":0,\"conf\":{}}",
        prefix + "no \"batchTimestampMs\"");
    assertCorrupt(log, "v1\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":1}",
        prefix + "no \"conf\"");
    assertCorrupt(log, "v1\n{\"batchWatermarkMs\":0.5,\"batchTimestampMs\":1,\"conf\":{}}",
        prefix + "\"batchWatermarkMs\" that is not a whole number of type long");
    assertCorrupt(log,
        "v1\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":99999999999999999999,\"conf\":{}}",
        prefix + "\"batchTimestampMs\" that is not a whole number of type long");
    assertCorrupt(log, "v1\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":1,\"conf\":[]}",
        prefix + "\"conf\" that is not a JSON object");
    assertCorrupt(log, "v1\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":1,\"conf\":{\"a\":1}}",
        prefix + "\"conf\" whose \"a\" is not a string");
  }

  @Test void shouldNameTheLineWhenAnOffsetIsNotANumber() throws IOException {
    OffsetLog log = log();
    String metadata = "v1\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":1,\"conf\":{}}\n";
    String prefix = "Checkpoint file " + log.batchFile(2) + " is corrupt or truncated: line ";
    String suffix = " is not a source offset (a non-negative whole number, a JSON object, or -): ";

    assertCorrupt(log, metadata + "5\n[1]", prefix + "4" + suffix + "'[1]'");
    assertCorrupt(log, metadata + "-1", prefix + "3" + suffix + "'-1'");
    assertCorrupt(log, metadata + "1\n\n2", prefix + "4" + suffix + "''");
    assertCorrupt(log, metadata + "1.5", prefix + "3" + suffix + "'1.5'");
    assertCorrupt(log, metadata + "9223372036854775808",
        prefix + "3" + suffix + "'9223372036854775808'");
  }

  @Test void shouldRejectNegativeOffsetsWhenAnEntryIsMade() {
    assertThrows(IllegalArgumentException.class,
        () -> new OffsetSeq(0, 0, Map.of(), List.of(SourceOffset.of(-1))));
  }

  private static void assertCorrupt(OffsetLog log, String content, String message)
      throws IOException {
    Files.writeString(log.batchFile(2), content);

    CheckpointException e = assertThrows(CheckpointException.class, () -> log.get(2), content);

    assertEquals(CheckpointException.Reason.CORRUPT, e.reason(), content);
    assertEquals(log.batchFile(2), e.file());
    assertEquals(message, e.getMessage(), content);
  }

  private static List<SourceOffset> at(long... offsets) {
    return java.util.Arrays.stream(offsets).mapToObj(SourceOffset::of).toList();
  }

  /** {@code content} as a checkpoint file holds it: with its CRC32C line after it. */
  private static String sealed(String content) {
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(content.getBytes(StandardCharsets.UTF_8));
    return content + "\ncrc32c " + String.format("%08x", crc.getValue()) + "\n";
  }
}
