/**
 * Freshet's continuous queries executed on Apache Spark Structured Streaming: the Freshet server
 * is the Spark driver (client mode), Spark runs the micro-batches, and each batch's results come
 * back to Freshet's views and push queries by {@code foreachBatch} with Spark's batch id as the
 * view's version.
 */
package dev.freshet.spark;
