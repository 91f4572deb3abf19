package dev.freshet.connectors.kafka;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.security.SensitiveOptions;
import dev.freshet.common.security.UrlRedaction;
import dev.freshet.connectors.sink.SinkSpec;
import java.util.Map;
import java.util.TreeMap;

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

  /** With the values of sensitive properties hidden: a spec may end up in a message. */
  @Override public String toString() {
    Map<String, String> shown = new TreeMap<>();
    properties.forEach((key, value) ->
        shown.put(key, SensitiveOptions.isSensitive(key) ? UrlRedaction.HIDDEN : value));
    return "KafkaSinkSpec[topic=" + topic + ", properties=" + shown + "]";
  }
}
