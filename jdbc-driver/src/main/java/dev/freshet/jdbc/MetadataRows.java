package dev.freshet.jdbc;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A whole result that the driver makes itself, such as the tables {@code getTables} lists.
 *
 * <pre>{@code
 * new MetadataRows(MetadataLayouts.TABLE_TYPES, List.of(new Object[] {"TABLE"}));
 * }</pre>
 *
 * @param layout the columns
 * @param rows one {@code Object[]} per row, its values in the columns' Java classes
 */
record MetadataRows(ResultLayout layout, List<Object> rows) {
  MetadataRows {
    requireNonNull(layout, "layout");
    rows = List.copyOf(rows);
  }
}
