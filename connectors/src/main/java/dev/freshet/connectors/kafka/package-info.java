/**
 * The Kafka connector: topics as streams, and sinks that write a result to a topic exactly
 * once. What a user sees is in docs/sql.md ("Kafka streams", "Sinks"), what a server allows in
 * docs/security.md ("Connectors").
 *
 * <ul>
 *   <li><b>Source</b> ({@code CREATE STREAM s (...) WITH (connector = 'kafka', 'topic' = ...,
 *       'properties.bootstrap.servers' = ..., 'format' = 'json' | 'csv', ...)},
 *       {@link dev.freshet.connectors.kafka.KafkaSourceSpec}):
 *       {@link dev.freshet.connectors.kafka.KafkaTopicSource} describes the topic, and each
 *       query reads it with a {@link dev.freshet.connectors.kafka.KafkaQueryReader} of its own,
 *       by partition, from offsets it keeps in its checkpoint as Spark's JSON
 *       ({@link dev.freshet.connectors.kafka.PartitionOffsets}).
 *   <li><b>Sink</b> ({@code CREATE SINK s ... WITH (connector = 'kafka', 'topic' = ...,
 *       'properties.bootstrap.servers' = ..., 'properties.*' = ..., 'format' = 'json')},
 *       {@link dev.freshet.connectors.kafka.KafkaSinkSpec}):
 *       {@link dev.freshet.connectors.kafka.KafkaSinkWriter} writes each batch and a marker of
 *       its id (in the compacted topic {@code __freshet_sink_batches}) in one transaction of a
 *       producer whose {@code transactional.id} is the sink's; an UPDATE or COMPLETE result is
 *       an upsert topic keyed by its group key as JSON.
 * </ul>
 */
package dev.freshet.connectors.kafka;
