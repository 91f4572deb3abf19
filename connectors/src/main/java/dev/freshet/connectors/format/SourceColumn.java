package dev.freshet.connectors.format;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * A column of a stream read from records: its name, the type of its values, whether it may be
 * NULL, and, for a metadata column, which part of the record fills it instead of the value.
 *
 * <pre>{@code
 * new SourceColumn("ID", FieldType.BIGINT, false, Optional.empty());
 * new SourceColumn("P", FieldType.INTEGER, true, Optional.of(MetadataField.PARTITION));
 * }</pre>
 *
 * @param name the column's name; a JSON field matches it ignoring case
 * @param type the type of its values
 * @param nullable whether a record may leave it NULL
 * @param metadata the part of the record that fills it, if not a field of the value
 */
public record SourceColumn(String name, FieldType type, boolean nullable,
    Optional<MetadataField> metadata) {
  public SourceColumn {
    requireNonNull(name, "name");
    requireNonNull(type, "type");
    requireNonNull(metadata, "metadata");
  }
}
