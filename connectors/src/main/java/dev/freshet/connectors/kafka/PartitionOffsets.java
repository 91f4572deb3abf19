package dev.freshet.connectors.kafka;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A position in a topic: for each partition, the offset of the next record to read, as Spark's
 * {@code KafkaSourceOffset} and with its JSON, {@code {"orders":{"0":42,"1":17}}}.
 *
 * <pre>{@code
 * PartitionOffsets end = PartitionOffsets.fromJson("orders", "{\"orders\":{\"0\":42}}");
 * end.offset(0);      // 42
 * end.total();        // 42, the sum over partitions: the reader's long offset for it
 * }</pre>
 *
 * @param topic the topic
 * @param offsets partition to next offset, sorted by partition
 */
record PartitionOffsets(String topic, SortedMap<Integer, Long> offsets) {
  private static final JsonMapper MAPPER = new JsonMapper();

  PartitionOffsets {
    requireNonNull(topic, "topic");
    offsets = Collections.unmodifiableSortedMap(new TreeMap<>(offsets));
    for (Map.Entry<Integer, Long> e : offsets.entrySet()) {
      if (e.getKey() < 0 || e.getValue() < 0) {
        throw new IllegalArgumentException("partitions and offsets are not negative: " + offsets);
      }
    }
  }

  /** The offset of partition {@code partition}, or -1 if this position has none for it. */
  long offset(int partition) {
    Long offset = offsets.get(partition);
    return offset == null ? -1 : offset;
  }

  /**
   * The sum of the offsets: it grows with every record any partition gains and with every
   * partition added, so that it orders positions that each follow the other, which is all the
   * reader's positions are.
   */
  long total() {
    long total = 0;
    for (long offset : offsets.values()) {
      total = Math.addExact(total, offset);
    }
    return total;
  }

  /** Whether every partition of {@code other} is here at or past its offset there. */
  boolean reaches(PartitionOffsets other) {
    for (Map.Entry<Integer, Long> e : other.offsets.entrySet()) {
      if (offset(e.getKey()) < e.getValue()) {
        return false;
      }
    }
    return true;
  }

  /** The position as Spark writes it, one line of JSON. */
  String toJson() {
    ObjectNode root = MAPPER.createObjectNode();
    ObjectNode partitions = root.putObject(topic);
    offsets.forEach((partition, offset) -> partitions.put(Integer.toString(partition), offset));
    try {
      return MAPPER.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("an object of numbers is always JSON", e);
    }
  }

  /**
   * Reads a position that {@link #toJson} wrote for topic {@code topic}.
   *
   * @throws IllegalArgumentException if it is not JSON of that shape, or names another topic
   */
  static PartitionOffsets fromJson(String topic, String json) {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + json, e);
    }
    if (root == null || !root.isObject() || root.size() != 1 || !root.has(topic)
        || !root.get(topic).isObject()) {
      throw new IllegalArgumentException("not the offsets of topic " + topic
          + " ({\"" + topic + "\":{\"0\":42,...}}): " + json);
    }
    SortedMap<Integer, Long> offsets = new TreeMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = root.get(topic).fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      int partition;
      try {
        partition = Integer.parseInt(e.getKey());
      } catch (NumberFormatException bad) {
        throw new IllegalArgumentException("partition " + e.getKey() + " is not a number: "
            + json, bad);
      }
      if (!e.getValue().canConvertToLong() || !e.getValue().isIntegralNumber()) {
        throw new IllegalArgumentException("the offset of partition " + partition
            + " is not a whole number: " + json);
      }
      offsets.put(partition, e.getValue().longValue());
    }
    return new PartitionOffsets(topic, offsets);
  }

  @Override public String toString() {
    return toJson();
  }
}
