/**
 * A Freshet stream as a Spark Structured Streaming source: the DataSource V2 micro-batch source
 * {@code format("freshet")}, whose offsets are the stream's own offsets, so that Spark's offset
 * log fixes each batch's rows and a replayed batch reads the same rows.
 *
 * <p>The driver registers a stream ({@link dev.freshet.spark.source.FreshetSource#register}) and
 * reads it through the registration; executors find the rows in a JVM-wide registry, which is
 * why this source runs in local mode only ({@code local[n]}: executors share the driver's JVM).
 */
package dev.freshet.spark.source;
