package dev.freshet.connectors.kafka;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.source.QueryReader;
import dev.freshet.executor.source.SupportsQueryReaders;

/**
 * A Kafka topic as a stream: it describes the topic and hands each continuous query a
 * {@link KafkaQueryReader} of its own, with its own positions and connections (Spark's Kafka
 * source is per query too). It has no offsets itself: a plain query cannot read it, since a
 * topic has no end.
 *
 * <pre>{@code
 * KafkaTopicSource orders = new KafkaTopicSource(spec);
 * QueryReader reader = orders.newQueryReader();   // for one query; the query closes it
 * }</pre>
 */
public final class KafkaTopicSource implements SupportsQueryReaders {
  private final KafkaSourceSpec spec;

  /** The topic of {@code spec}; nothing is connected until a query reads it. */
  public KafkaTopicSource(KafkaSourceSpec spec) {
    this.spec = requireNonNull(spec, "spec");
  }

  /** What the stream reads and how. */
  public KafkaSourceSpec spec() {
    return spec;
  }

  @Override public String description() {
    return "KafkaSource[" + spec.topic() + "]";
  }

  @Override public QueryReader newQueryReader() {
    return new KafkaQueryReader(spec);
  }

  /** Yes: a batch's topic partitions are read by the query's input tasks at once. */
  @Override public boolean readersPartition() {
    return true;
  }
}
