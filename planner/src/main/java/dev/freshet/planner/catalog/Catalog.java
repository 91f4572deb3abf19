package dev.freshet.planner.catalog;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

/**
 * The streams an engine knows, by name; shared by all sessions of the engine.
 *
 * <p>It is also the Calcite schema that queries resolve names against, so a stream created by one
 * connection is visible to the next statement of any other.
 */
public final class Catalog extends AbstractSchema {
  private final ConcurrentHashMap<String, StreamTable> streams = new ConcurrentHashMap<>();

  /** Adds {@code stream}; returns false if a stream of that name exists (nothing changes then). */
  public boolean addStream(StreamTable stream) {
    return streams.putIfAbsent(stream.name(), stream) == null;
  }

  /** Removes a stream; returns whether it existed. */
  public boolean dropStream(String name) {
    return streams.remove(name) != null;
  }

  /** Looks a stream up by its exact (case-sensitive) name. */
  public Optional<StreamTable> stream(String name) {
    return Optional.ofNullable(streams.get(name));
  }

  /** Names of all streams, sorted. */
  public List<String> streamNames() {
    return streams.keySet().stream().sorted().collect(Collectors.toList());
  }

  @Override protected Map<String, Table> getTableMap() {
    return Map.copyOf(streams);
  }

  @Override public boolean isMutable() {
    return true;
  }
}
