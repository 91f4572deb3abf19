package dev.freshet.connectors.format;

import java.util.Locale;

/**
 * What a column may hold besides a field of the record's value: the record's key, topic,
 * partition, offset or timestamp (Kafka's), chosen with {@code 'metadata.<field>' = '<column>'}.
 *
 * <pre>{@code
 * CREATE STREAM orders (id BIGINT, p INTEGER, o BIGINT)
 * WITH (connector = 'kafka', ..., 'metadata.partition' = 'p', 'metadata.offset' = 'o')
 * }</pre>
 */
public enum MetadataField {
  /** The record's key as UTF-8 text (VARCHAR). */
  KEY,
  /** The topic (VARCHAR). */
  TOPIC,
  /** The partition (INTEGER or BIGINT). */
  PARTITION,
  /** The record's offset in its partition (BIGINT). */
  OFFSET,
  /** The record's timestamp (TIMESTAMP). */
  TIMESTAMP;

  /** The field as options name it, e.g. {@code partition}. */
  public String text() {
    return name().toLowerCase(Locale.ROOT);
  }
}
