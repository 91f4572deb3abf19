package dev.freshet.engine.sink;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * Where a Kafka sink writes: {@code WITH (connector = 'kafka', 'topic' = ...,
 * 'properties.bootstrap.servers' = ..., 'properties.*' = ...)}.
 *
 * <pre>{@code
 * new KafkaSinkSpec("totals", Map.of("bootstrap.servers", "localhost:9092"));
 * }</pre>
 *
 * @param topic the topic to write
 * @param properties Kafka producer properties; the sink sets what exactly once needs itself
 */
public record KafkaSinkSpec(String topic, Map<String, String> properties) implements SinkSpec {
  public KafkaSinkSpec {
    requireNonNull(topic, "topic");
    properties = Map.copyOf(properties);
  }

  @Override public String connector() {
    return "kafka";
  }

  @Override public String target() {
    return topic;
  }
}
