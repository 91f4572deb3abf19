package dev.freshet.executor.source;

/**
 * Source whose offsets are structured values, one position per partition, recorded in the offset
 * log as JSON as Spark records its Kafka offsets ({@code {"orders":{"0":42,"1":17}}}).
 *
 * <p>The {@code long} offsets such a source hands to the runtime are ordinals of the positions it
 * has taken: each greater one stands for a position at or past every smaller one's in every
 * partition. They mean nothing outside the instance that handed them out, which is why each
 * query reads such a source through an instance of its own ({@link SupportsQueryReaders}) and
 * why the offset log holds their JSON, not the ordinals.
 *
 * <pre>{@code
 * long end = source.latestOffset();
 * offsetLog.add(batchId, ... new SourceOffset(source.offsetJson(end)) ...);
 * // after a restart:
 * long committed = source.restoreOffset(recorded.json());
 * }</pre>
 */
public interface SupportsJsonOffsets extends Source {
  /**
   * The position that offset {@code offset} stands for, as one line of JSON (an object). Offset 0
   * is where the source starts reading.
   *
   * @throws IllegalArgumentException if this instance handed out no such offset
   */
  String offsetJson(long offset);

  /**
   * Takes back a position that {@link #offsetJson} wrote (an offset log entry, after a restart).
   * Called before the first read; the offset it returns is below the next
   * {@link #latestOffset()}, whose position is at or past the restored one.
   *
   * @return the offset that stands for the position from now on
   * @throws IllegalArgumentException if {@code json} is not a position of this source
   */
  long restoreOffset(String json);

  /**
   * Makes {@code json}, recorded when the query first ran, the position offset 0 stands for:
   * where the query's first batch starts, also when it runs again after a crash. Called before
   * any other offset is restored or read.
   */
  void restoreInitialOffset(String json);
}
