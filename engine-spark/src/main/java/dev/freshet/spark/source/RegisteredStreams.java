package dev.freshet.spark.source;

import dev.freshet.executor.source.MemoryStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.sql.types.StructType;

/**
 * The JVM-wide registry of the streams that the Freshet source reads, by registration id.
 *
 * <p>A static registry, against Freshet's habit, because nothing else reaches a partition
 * reader: Spark builds it on an executor from serialized partitions and a serialized reader
 * factory, which can carry the id but not the stream. In local mode ({@code local[n]}) the
 * executors are threads of the driver's JVM and find the driver's {@link MemoryStream} here; on
 * a cluster they would find nothing, and say so ({@link SourceErrors#notRegistered}).
 *
 * <pre>{@code
 * RegisteredStreams.Entry entry = RegisteredStreams.add("CLICKS", stream, schema);  // CLICKS#1
 * RegisteredStreams.get(entry.id()).stream().latestOffset();
 * RegisteredStreams.remove(entry.id());
 * }</pre>
 */
final class RegisteredStreams {
  /** Makes ids unique in the JVM, so that two engines' streams of one name never meet. */
  private static final AtomicLong NEXT_ID = new AtomicLong(1);
  private static final Map<String, Entry> ENTRIES = new ConcurrentHashMap<>();

  /**
   * A registered stream.
   *
   * @param id the registration's id, {@code <name>#<n>}, unique in the JVM
   * @param name the stream's name, for messages
   * @param stream its rows
   * @param schema its Spark schema
   */
  record Entry(String id, String name, MemoryStream stream, StructType schema) {
  }

  private RegisteredStreams() {
  }

  static Entry add(String name, MemoryStream stream, StructType schema) {
    Entry entry = new Entry(name + "#" + NEXT_ID.getAndIncrement(), name, stream, schema);
    ENTRIES.put(entry.id(), entry);
    return entry;
  }

  /**
   * The stream registered as {@code id}.
   *
   * @throws FreshetSourceException (42S02) if none is
   */
  static Entry get(String id) {
    Entry entry = ENTRIES.get(id);
    if (entry == null) {
      throw SourceErrors.notRegistered(id);
    }
    return entry;
  }

  /** Forgets the stream registered as {@code id}; idempotent. */
  static void remove(String id) {
    ENTRIES.remove(id);
  }
}
