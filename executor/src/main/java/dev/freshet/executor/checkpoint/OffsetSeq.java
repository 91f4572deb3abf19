package dev.freshet.executor.checkpoint;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Entry of the {@link OffsetLog}: what batch {@code N} will read and the settings it runs with,
 * written to {@code offsets/N} before the batch runs (Spark's {@code OffsetSeq} with its
 * {@code OffsetSeqMetadata}).
 *
 * <p>{@code offsets} holds, for each source of the query in plan order, the end offset of the
 * batch (the batch reads {@code (offset in N - 1, offset in N]}), or {@code null} for a source
 * that has no offset yet, written {@code -}. An offset is a whole number or, for a source with
 * an offset per partition, a JSON object ({@link SourceOffset}). A restart replays the batch from exactly these
 * offsets, watermark and timestamp.
 *
 * <p>{@code conf} pins the settings that must not change over the life of a checkpoint, because
 * the state written so far depends on them (see the {@code STATE_*} keys); on restart they
 * override the session's values. It is kept sorted by key, so that files are reproducible.
 *
 * <pre>{@code
 * new OffsetSeq(10_000, 1_700_000_000_123L,
 *     Map.of(OffsetSeq.STATE_PARTITIONS, "4", OffsetSeq.STATE_STORE_PROVIDER, "memory"),
 *     Arrays.asList(SourceOffset.of(42), null))
 * }</pre>
 *
 * @param batchWatermarkMs the event-time watermark batch {@code N} evicts with, from the
 *     batches before it (SEMANTICS.md §6.4); in a batch without data that a stream's
 *     {@code 'watermark.idle-timeout'} ran, the one the clock gave ({@code batchTimestampMs}
 *     minus the delay), which a re-run reuses rather than asking the clock again
 * @param batchTimestampMs the processing time of the batch, which a re-run reuses
 * @param conf the pinned settings
 * @param offsets the end offset of each source, or null if the source has none yet
 */
public record OffsetSeq(long batchWatermarkMs, long batchTimestampMs, Map<String, String> conf,
    List<SourceOffset> offsets) {
  /** Pinned key: the number of state partitions of every stateful operator. */
  public static final String STATE_PARTITIONS = "state.partitions";
  /** Pinned key: the state store provider, e.g. {@code memory}. */
  public static final String STATE_STORE_PROVIDER = "state.store.provider";
  /** Pinned key: the version of the layout of state rows. */
  public static final String STATE_FORMAT_VERSION = "state.format.version";

  public OffsetSeq {
    requireNonNull(conf, "conf");
    requireNonNull(offsets, "offsets");
    TreeMap<String, String> sorted = new TreeMap<>();
    conf.forEach((key, value) -> sorted.put(requireNonNull(key, "conf key"),
        requireNonNull(value, () -> "value of conf " + key)));
    conf = Collections.unmodifiableSortedMap(sorted);
    // Not List.copyOf: null is a valid element ("no offset yet").
    offsets = Collections.unmodifiableList(new ArrayList<>(offsets));
  }
}
