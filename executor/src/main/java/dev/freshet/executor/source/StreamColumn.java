package dev.freshet.executor.source;

import static java.util.Objects.requireNonNull;

/**
 * Column of a durable {@link MemoryStream} as its metadata file records it: a name and a type.
 *
 * <pre>{@code
 * List<StreamColumn> columns = List.of(new StreamColumn("USER_ID", "VARCHAR"),
 *     new StreamColumn("TS", "TIMESTAMP(3) NOT NULL"));
 * MemoryStream clicks = MemoryStream.open("CLICKS", columns, dataDir.resolve("streams/CLICKS"));
 * }</pre>
 *
 * <p>The executor does not interpret the type: it only compares it with the type recorded when the
 * log was created, so that a stream is never reopened with columns its rows were not written
 * for. The planner spells it as SQL.
 *
 * @param name column name, case-sensitive
 * @param type SQL type, e.g. {@code DECIMAL(10, 2) NOT NULL}
 */
public record StreamColumn(String name, String type) {
  public StreamColumn {
    requireNonNull(name, "name");
    requireNonNull(type, "type");
    if (type.indexOf('\n') >= 0 || type.indexOf('\r') >= 0 || type.indexOf('\t') >= 0) {
      throw new IllegalArgumentException("a column type cannot contain a tab or a line break: "
          + type);
    }
  }

  @Override public String toString() {
    return name + " " + type;
  }
}
