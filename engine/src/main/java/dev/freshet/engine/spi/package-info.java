/**
 * How another engine runs materialized views' queries for Freshet: a
 * {@link dev.freshet.engine.spi.ViewRunnerProvider} found by {@link java.util.ServiceLoader}
 * (Spark's is in {@code engine-spark}), which Freshet hands each view's planned query and a sink
 * into the view's result.
 */
package dev.freshet.engine.spi;
