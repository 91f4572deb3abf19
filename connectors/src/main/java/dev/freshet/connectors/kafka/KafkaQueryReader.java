package dev.freshet.connectors.kafka;

import dev.freshet.connectors.format.MetadataField;
import dev.freshet.connectors.format.RecordDecoder;
import dev.freshet.connectors.format.SourceColumn;
import dev.freshet.executor.source.QueryReader;
import dev.freshet.executor.source.SourceRecordException;
import dev.freshet.executor.source.SourceUnavailableException;
import dev.freshet.executor.source.SupportsAdmissionControl;
import dev.freshet.executor.source.SupportsDroppedRecords;
import dev.freshet.executor.source.SupportsJsonOffsets;
import dev.freshet.executor.source.SupportsPartitionedReads;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.KafkaException;

/**
 * One query's reader of a Kafka topic, exactly once: its offsets are positions in the topic
 * ({@link PartitionOffsets}), written to the query's offset log as Spark writes them, and a batch
 * reads each partition from the previous batch's position up to its own, never further, with
 * {@code read_committed} so that aborted transactions are never seen. Positions come from the
 * broker's end offsets (the last stable offset under {@code read_committed}), never from counting
 * records: transaction markers take offsets too.
 *
 * <p>A poller thread of its own learns of new records with a long-poll fetch (no busy polling)
 * and then asks for the end offsets, which it publishes; it also looks for partitions added to the
 * topic every {@link KafkaSourceSpec#partitionDiscoveryInterval()}, which are read from their
 * beginning. The batch thread reads with a consumer of its own, assigned and seeked (no consumer
 * group, no offset commits).
 *
 * <p>The {@code long} offsets this reader hands out are the sums of their positions' offsets
 * ({@link PartitionOffsets#total()}), which order the positions it takes, each at or past the one
 * before (a batch limited by {@code 'scan.max-records-per-batch'} ends between its start and the
 * latest position); offset 0 is the position the query started from.
 */
final class KafkaQueryReader implements QueryReader, SupportsJsonOffsets, SupportsAdmissionControl,
    SupportsDroppedRecords, SupportsPartitionedReads {
  /** How long a batch waits for records the broker said it has before giving up. */
  static final Duration READ_TIMEOUT = Duration.ofSeconds(60);
  /** How long making a {@code latest-offset} query waits to learn where the topic ends. */
  private static final Duration LATEST_RESOLUTION_TIMEOUT = Duration.ofSeconds(10);
  /** How long the poller's fetch waits for new records before it asks again. */
  private static final Duration LONG_POLL = Duration.ofMillis(500);
  /** How long the poller waits before trying again after the broker failed it. */
  private static final long RETRY_MS = 500;

  private final KafkaSourceSpec spec;
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
  private final LongAdder dropped = new LongAdder();

  /** Guards the fields below; the poller and callers wait on it. */
  private final Object lock = new Object();
  /** Where the query started (offset 0); null until known. */
  private PartitionOffsets initial;
  /** The positions handed out or restored, by offset. */
  private final TreeMap<Long, PartitionOffsets> positions = new TreeMap<>();
  /** The newest end offsets the poller saw; null until it saw any. */
  private PartitionOffsets latestSeen;
  /** Why the poller cannot reach the topic, if it cannot; for messages. */
  private RuntimeException pollerFailure;
  private Thread poller;
  private volatile boolean closed;

  /** The batch thread's consumer and decoder; made at the first read. */
  private PartitionReader batchReader;
  /** The input tasks' consumers and decoders not in use; each task borrows one per partition. */
  private final java.util.concurrent.ConcurrentLinkedQueue<PartitionReader> idleReaders =
      new java.util.concurrent.ConcurrentLinkedQueue<>();
  /** Every reader made, to close. */
  private final List<PartitionReader> readers = new CopyOnWriteArrayList<>();
  /** The poller's consumer, to wake it from its fetch on close. */
  private volatile KafkaConsumer<byte[], byte[]> pollConsumer;

  KafkaQueryReader(KafkaSourceSpec spec) {
    this.spec = spec;
    if (spec.startup() == KafkaSourceSpec.StartupMode.LATEST) {
      // "Latest" is where the topic ends when the query is made, not when its thread first
      // asks: records written right after CREATE returns are the query's.
      synchronized (lock) {
        startPoller();
        awaitInitial(LATEST_RESOLUTION_TIMEOUT, false);
      }
    }
  }


  @Override public String description() {
    return "KafkaSource[" + spec.topic() + "]";
  }

  @Override public long latestOffset() {
    synchronized (lock) {
      startPoller();
      if (initial == null || latestSeen == null) {
        return positions.isEmpty() ? 0 : positions.lastKey();
      }
      return register(latestSeen);
    }
  }

  @Override public long latestOffset(long startOffset) {
    long latest = latestOffset();
    if (spec.maxRecordsPerBatch().isEmpty() || latest <= startOffset) {
      return latest;
    }
    synchronized (lock) {
      PartitionOffsets from = position(startOffset);
      PartitionOffsets to = position(latest);
      long cap = spec.maxRecordsPerBatch().getAsLong();
      Map<Integer, Long> available = new TreeMap<>();
      long total = 0;
      for (Map.Entry<Integer, Long> e : to.offsets().entrySet()) {
        long start = Math.max(0, from.offset(e.getKey()));
        long n = Math.max(0, e.getValue() - start);
        available.put(e.getKey(), n);
        total += n;
      }
      if (total <= cap) {
        return latest;
      }
      // As Spark's rate limit: each partition a share in proportion to what it has, the rest of
      // the cap one offset at a time to those with more.
      SortedMap<Integer, Long> capped = new TreeMap<>();
      long given = 0;
      for (Map.Entry<Integer, Long> e : available.entrySet()) {
        long share = (long) Math.floor((double) cap * e.getValue() / total);
        capped.put(e.getKey(), share);
        given += share;
      }
      for (Map.Entry<Integer, Long> e : available.entrySet()) {
        if (given >= cap) {
          break;
        }
        if (capped.get(e.getKey()) < e.getValue()) {
          capped.merge(e.getKey(), 1L, Long::sum);
          given++;
        }
      }
      SortedMap<Integer, Long> end = new TreeMap<>();
      for (Map.Entry<Integer, Long> e : capped.entrySet()) {
        long start = Math.max(0, from.offset(e.getKey()));
        end.put(e.getKey(), start + e.getValue());
      }
      return register(new PartitionOffsets(spec.topic(), end));
    }
  }

  @Override public String offsetJson(long offset) {
    synchronized (lock) {
      return position(offset).toJson();
    }
  }

  @Override public long restoreOffset(String json) {
    PartitionOffsets restored = PartitionOffsets.fromJson(spec.topic(), json);
    synchronized (lock) {
      awaitInitial();
      return register(restored);
    }
  }

  @Override public void restoreInitialOffset(String json) {
    PartitionOffsets restored = PartitionOffsets.fromJson(spec.topic(), json);
    synchronized (lock) {
      initial = restored;
      positions.put(0L, restored);
      lock.notifyAll();
    }
  }

  @Override public long droppedRecords() {
    return dropped.sum();
  }

  @Override public AutoCloseable onNewData(Runnable listener) {
    listeners.add(listener);
    synchronized (lock) {
      startPoller();
    }
    return () -> listeners.remove(listener);
  }

  @Override public void readRange(long start, long end, Consumer<Object[]> rows) {
    BatchPlan plan = plan(start, end);
    if (plan.ends().isEmpty()) {
      return;
    }
    if (batchReader == null) {
      batchReader = newReader();
    }
    read(batchReader, plan.ends(), plan.seeks(), plan.fromBeginning(), rows);
  }

  @Override public int inputPartitions(long start, long end) {
    return plan(start, end).ends().size();
  }

  @Override public void readPartition(long start, long end, int index, Consumer<Object[]> rows) {
    BatchPlan plan = plan(start, end);
    TopicPartition partition = new ArrayList<>(plan.ends().keySet()).get(index);
    Long seek = plan.seeks().get(partition);
    PartitionReader reader = idleReaders.poll();
    if (reader == null) {
      reader = newReader();
    }
    try {
      read(reader, Map.of(partition, plan.ends().get(partition)),
          seek == null ? Map.of() : Map.of(partition, seek),
          seek == null ? List.of(partition) : List.of(), rows);
    } finally {
      idleReaders.add(reader);
    }
  }

  /** A consumer and a decoder for one thread at a time. */
  private record PartitionReader(KafkaConsumer<byte[], byte[]> consumer, RecordDecoder decoder,
      Map<TopicPartition, Long> resumeAt) {
  }

  private PartitionReader newReader() {
    PartitionReader reader = new PartitionReader(
        new KafkaConsumer<>(KafkaClients.consumerProperties(spec, "reader")),
        spec.format().decoder(spec.columns()), new java.util.HashMap<>());
    readers.add(reader);
    return reader;
  }

  /**
   * What batch {@code (start, end]} reads: per partition with records in it (by partition
   * number), where it ends, and where it starts (a seek, or the beginning for a partition the
   * start position does not have).
   */
  private record BatchPlan(Map<TopicPartition, Long> ends, Map<TopicPartition, Long> seeks,
      List<TopicPartition> fromBeginning) {
  }

  private BatchPlan plan(long start, long end) {
    PartitionOffsets from;
    PartitionOffsets to;
    synchronized (lock) {
      from = position(start);
      to = position(end);
      // Positions before the batch's start are not asked for again.
      positions.headMap(start, false).keySet().removeIf(offset -> offset != 0);
    }
    Map<TopicPartition, Long> ends = new TreeMap<>(
        (a, b) -> Integer.compare(a.partition(), b.partition()));
    List<TopicPartition> fromBeginning = new ArrayList<>();
    Map<TopicPartition, Long> seeks = new TreeMap<>(
        (a, b) -> Integer.compare(a.partition(), b.partition()));
    for (Map.Entry<Integer, Long> e : to.offsets().entrySet()) {
      TopicPartition partition = new TopicPartition(spec.topic(), e.getKey());
      long first = from.offset(e.getKey());
      if (first > e.getValue()) {
        throw new SourceUnavailableException("Partition " + e.getKey() + " of topic "
            + spec.topic() + " went back from offset " + first + " to " + e.getValue()
            + " (was the topic deleted and created again?). Freshet does not read the same"
            + " offsets twice: drop the view (or query) and create it again to start over", null);
      }
      if (first == e.getValue()) {
        continue;
      }
      ends.put(partition, e.getValue());
      if (first < 0) {
        fromBeginning.add(partition);
      } else {
        seeks.put(partition, first);
      }
    }
    return new BatchPlan(ends, seeks, fromBeginning);
  }

  /** Reads each partition of {@code ends} from its seek (or beginning) to its end. */
  private void read(PartitionReader reader, Map<TopicPartition, Long> ends,
      Map<TopicPartition, Long> seeks, List<TopicPartition> fromBeginning,
      Consumer<Object[]> rows) {
    KafkaConsumer<byte[], byte[]> consumer = reader.consumer();
    Map<TopicPartition, Long> resumeAt = reader.resumeAt();
    // The same partitions as the last batch keep what the consumer fetched ahead for them.
    consumer.assign(ends.keySet());
    consumer.resume(ends.keySet());
    seeks.forEach((partition, offset) -> {
      Long at = resumeAt.get(partition);
      if (at == null || at.longValue() != offset) {
        consumer.seek(partition, offset);
      }
    });
    if (!fromBeginning.isEmpty()) {
      consumer.seekToBeginning(fromBeginning);
    }
    Set<TopicPartition> remaining = new HashSet<>(ends.keySet());
    long lastProgress = System.nanoTime();
    try {
      while (!remaining.isEmpty()) {
        ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
        for (TopicPartition partition : records.partitions()) {
          long end = ends.get(partition);
          for (ConsumerRecord<byte[], byte[]> record : records.records(partition)) {
            if (record.offset() >= end) {
              break;
            }
            emit(record, reader.decoder(), rows);
          }
        }
        boolean progressed = !records.isEmpty();
        for (java.util.Iterator<TopicPartition> it = remaining.iterator(); it.hasNext(); ) {
          TopicPartition partition = it.next();
          // Past the records: also past trailing transaction markers, which take offsets.
          if (consumer.position(partition) >= ends.get(partition)) {
            it.remove();
            consumer.pause(List.of(partition));
            progressed = true;
          }
        }
        if (progressed) {
          lastProgress = System.nanoTime();
        } else if (System.nanoTime() - lastProgress > READ_TIMEOUT.toNanos()) {
          throw new SourceUnavailableException("Kafka (" + spec.properties()
              .get("bootstrap.servers") + ") sent none of the records of topic " + spec.topic()
              + " up to offsets " + ends + " within " + READ_TIMEOUT.toSeconds() + " s. Check"
              + " that the brokers are up and reachable; the query reads them again when it"
              + " is restarted", null);
        }
      }
    } catch (OffsetOutOfRangeException e) {
      throw new SourceUnavailableException("Records of topic " + spec.topic() + " that the"
          + " query has not read yet were deleted (" + e.offsetOutOfRangePartitions() + "), by"
          + " retention or a DELETE RECORDS. Freshet does not skip them silently: drop the view"
          + " (or query) and create it again, or raise the topic's retention", e);
    } finally {
      resumeAt.clear();
      for (TopicPartition partition : ends.keySet()) {
        // Where the consumer stands, if it is where this batch ended: the next batch starts
        // there without a seek, which would drop the records fetched ahead.
        if (!remaining.contains(partition)
            && consumer.position(partition) == ends.get(partition)) {
          resumeAt.put(partition, ends.get(partition));
        }
      }
      consumer.pause(ends.keySet());
    }
  }


  /** Hands one record to {@code rows} as a row, or counts it as dropped if it cannot be read. */
  private void emit(ConsumerRecord<byte[], byte[]> record, RecordDecoder decoder,
      Consumer<Object[]> rows) {
    List<SourceColumn> columns = spec.columns();
    Object[] row = new Object[columns.size()];
    try {
      decoder.decode(record.value(), row);
    } catch (IllegalArgumentException e) {
      if (spec.ignoreParseErrors()) {
        dropped.increment();
        return;
      }
      throw new SourceRecordException("The record at offset " + record.offset() + " of partition "
          + record.partition() + " of topic " + record.topic() + " is not a row of stream "
          + spec.stream() + " (format " + spec.format().text() + "): " + e.getMessage()
          + ". Fix what writes the topic, or skip such records with"
          + " 'format.ignore-parse-errors' = 'true' (they are counted in sys.query_progress)", e);
    }
    for (int i = 0; i < row.length; i++) {
      MetadataField field = columns.get(i).metadata().orElse(null);
      if (field != null) {
        row[i] = metadata(field, columns.get(i), record);
      }
    }
    rows.accept(row);
  }

  private static Object metadata(MetadataField field, SourceColumn column,
      ConsumerRecord<byte[], byte[]> record) {
    return switch (field) {
      case KEY -> record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
      case TOPIC -> record.topic();
      case PARTITION -> column.type() == dev.freshet.connectors.format.FieldType.BIGINT
          ? (Object) (long) record.partition() : (Object) record.partition();
      case OFFSET -> record.offset();
      case TIMESTAMP -> record.timestamp();
    };
  }

  /** The offset that stands for {@code position}, which is kept for later reads. */
  private long register(PartitionOffsets position) {
    long offset = position.equals(initial) ? 0 : position.total();
    positions.put(offset, position);
    return offset;
  }

  /** The position offset {@code offset} stands for; the caller holds the lock. */
  private PartitionOffsets position(long offset) {
    if (offset == 0) {
      awaitInitial();
      return initial;
    }
    PartitionOffsets position = positions.get(offset);
    if (position == null) {
      throw new IllegalArgumentException(description() + " handed out no offset " + offset);
    }
    return position;
  }

  /** Waits until the poller knows where the query starts; the caller holds the lock. */
  private void awaitInitial() {
    startPoller();
    awaitInitial(READ_TIMEOUT, true);
  }

  /**
   * Waits up to {@code timeout} for the start; then fails if {@code required}, else returns
   * (the poller goes on trying). The caller holds the lock.
   */
  private void awaitInitial(Duration timeout, boolean required) {
    long deadline = System.nanoTime() + timeout.toNanos();
    boolean interrupted = false;
    try {
      while (initial == null) {
        long left = deadline - System.nanoTime();
        if (closed || left <= 0) {
          if (!required) {
            return;
          }
          throw new SourceUnavailableException("Kafka (" + spec.properties()
              .get("bootstrap.servers") + ") did not tell within " + timeout.toSeconds()
              + " s where topic " + spec.topic() + " starts" + (pollerFailure == null ? ""
              : ": " + pollerFailure.getMessage()) + ". Check that the brokers are up and that"
              + " the topic exists", pollerFailure);
        }
        try {
          lock.wait(Math.max(1, left / 1_000_000));
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Starts the poller once; the caller holds the lock. */
  private void startPoller() {
    if (poller != null || closed) {
      return;
    }
    poller = new Thread(this::poll, "freshet-kafka-poller-" + spec.stream());
    poller.setDaemon(true);
    poller.start();
  }

  /** The poller's loop: end offsets, published; then a long-poll fetch for what comes next. */
  private void poll() {
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(KafkaClients.consumerProperties(spec, "poller"))) {
      pollConsumer = consumer;
      List<TopicPartition> partitions = List.of();
      long nextDiscovery = 0;
      while (!closed) {
        try {
          if (System.nanoTime() - nextDiscovery >= 0) {
            partitions = KafkaClients.partitions(consumer, spec.topic());
            nextDiscovery = System.nanoTime() + spec.partitionDiscoveryInterval().toNanos();
          }
          if (partitions.isEmpty()) {
            throw new KafkaException("topic " + spec.topic() + " does not exist or has no"
                + " partitions yet");
          }
          // Assigned first: the end offsets then update the fetch state of its own partitions.
          consumer.assign(partitions);
          resolveInitial(consumer, partitions);
          Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
          publish(ends);
          // Fetch from the end: the fetch returns as soon as a record is committed past it.
          ends.forEach(consumer::seek);
          consumer.poll(LONG_POLL);
        } catch (WakeupException e) {
          return;
        } catch (KafkaException e) {
          synchronized (lock) {
            pollerFailure = e;
            if (!closed) {
              try {
                lock.wait(RETRY_MS);
              } catch (InterruptedException interrupted) {
                return;
              }
            }
          }
        }
      }
    } finally {
      pollConsumer = null;
    }
  }

  /** Fixes where the query starts, once, unless a restart restored it. */
  private void resolveInitial(KafkaConsumer<byte[], byte[]> consumer,
      List<TopicPartition> partitions) {
    synchronized (lock) {
      if (initial != null) {
        return;
      }
    }
    Map<TopicPartition, Long> start = switch (spec.startup()) {
      case LATEST -> consumer.endOffsets(partitions);
      case EARLIEST -> consumer.beginningOffsets(partitions);
      case SPECIFIC -> {
        Map<TopicPartition, Long> offsets = new java.util.HashMap<>(
            consumer.beginningOffsets(partitions));
        spec.specificOffsets().forEach((partition, offset) ->
            offsets.put(new TopicPartition(spec.topic(), partition), offset));
        yield offsets;
      }
    };
    SortedMap<Integer, Long> offsets = new TreeMap<>();
    start.forEach((partition, offset) -> offsets.put(partition.partition(), offset));
    synchronized (lock) {
      if (initial == null) {
        initial = new PartitionOffsets(spec.topic(), offsets);
        positions.put(0L, initial);
        pollerFailure = null;
        lock.notifyAll();
      }
    }
  }

  /** Publishes new end offsets and wakes the query if they moved. */
  private void publish(Map<TopicPartition, Long> ends) {
    SortedMap<Integer, Long> offsets = new TreeMap<>();
    ends.forEach((partition, offset) -> offsets.put(partition.partition(), offset));
    PartitionOffsets seen = new PartitionOffsets(spec.topic(), offsets);
    boolean moved;
    synchronized (lock) {
      moved = !seen.equals(latestSeen);
      latestSeen = seen;
      pollerFailure = null;
    }
    if (moved) {
      for (Runnable listener : listeners) {
        listener.run();
      }
    }
  }

  @Override public void close() {
    Thread thread;
    synchronized (lock) {
      closed = true;
      thread = poller;
      lock.notifyAll();
    }
    KafkaConsumer<byte[], byte[]> polling = pollConsumer;
    if (polling != null) {
      polling.wakeup();
    }
    if (thread != null && thread != Thread.currentThread()) {
      try {
        thread.join(10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    for (PartitionReader reader : readers) {
      reader.consumer().close(Duration.ofSeconds(5));
    }
    readers.clear();
  }
}
