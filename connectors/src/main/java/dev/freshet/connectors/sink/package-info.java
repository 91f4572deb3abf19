/**
 * The sink SPI the connectors write through, shared like {@code connectors.format}: a sink's
 * target ({@link dev.freshet.connectors.sink.SinkSpec}), what its query hands it each batch
 * ({@link dev.freshet.connectors.sink.SinkLayout}), the writer of one target that applies each
 * batch exactly once ({@link dev.freshet.connectors.sink.SinkWriter}), and the executor's
 * {@code Sink} over such a writer ({@link dev.freshet.connectors.sink.ExternalSink}). Each
 * connector's package implements it (the JDBC connector's {@code JdbcSinkWriter}, the Kafka
 * connector's {@code KafkaSinkWriter}); the engine picks the writer by the sink's options.
 */
package dev.freshet.connectors.sink;
