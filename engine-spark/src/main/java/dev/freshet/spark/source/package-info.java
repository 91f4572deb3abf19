/**
 * A Freshet stream as a Spark Structured Streaming source: the DataSource V2 micro-batch source
 * {@code format("freshet")}, whose offsets are the stream's own offsets, so that Spark's offset
 * log fixes each batch's rows and a replayed batch reads the same rows.
 *
 * <p>The driver registers a stream ({@link dev.freshet.spark.source.FreshetSource#register}) and
 * reads it through the registration. Executors find the rows in a JVM-wide registry in local
 * mode ({@code local[n]}: they share the driver's JVM), or read a durable stream's log from its
 * data directory, which works on a cluster when that directory is on shared storage.
 */
package dev.freshet.spark.source;
