package dev.freshet.planner.logical;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.source.MemoryStream;
import dev.freshet.executor.source.Source;
import java.util.List;
import java.util.Optional;

/**
 * A stream a {@link LogicalQuery} reads, with what another engine needs to read it: its columns
 * as declared and where its rows come from.
 *
 * <pre>{@code
 * LogicalStream clicks = query.sources().get(0);
 * clicks.connector();      // "memory": rows by INSERT, clicks.memoryStream() has them
 * }</pre>
 *
 * @param name the stream's name as the catalog has it
 * @param connector the connector it was declared with, lower case, e.g. {@code kafka}
 * @param columns its declared columns, in order
 * @param source where its rows come from (a {@link MemoryStream} for connector {@code memory})
 */
public record LogicalStream(String name, String connector, List<LogicalField> columns,
    Source source) {
  public LogicalStream {
    requireNonNull(name, "name");
    requireNonNull(connector, "connector");
    columns = List.copyOf(columns);
    requireNonNull(source, "source");
  }

  /** The memory stream that holds the rows, for a stream whose rows arrive by INSERT. */
  public Optional<MemoryStream> memoryStream() {
    return source instanceof MemoryStream memory ? Optional.of(memory) : Optional.empty();
  }
}
