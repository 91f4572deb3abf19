package dev.freshet.spark;

import dev.freshet.planner.logical.LogicalStream;
import dev.freshet.spark.source.FreshetSource;
import dev.freshet.spark.source.StreamRegistration;
import java.sql.SQLException;
import org.apache.spark.sql.SparkSession;

/**
 * Makes the Spark Dataset of a query's stream by its connector: {@code memory} (rows by INSERT)
 * through the Freshet source ({@link FreshetSource}), {@code kafka} through Spark's Kafka source
 * ({@link KafkaStreams}). Other connectors are refused with SQLSTATE 0A000.
 *
 * <pre>{@code
 * SparkSource orders = SparkSources.of(spark, query.sources().get(0));   // ORDERS
 * new SparkPlanTranslator(Map.of(orders.name(), orders.rows())).translate(plan);
 * }</pre>
 */
public final class SparkSources {
  private SparkSources() {
  }

  /**
   * The stream {@code stream} as a streaming Dataset of {@code spark}.
   *
   * @throws SQLException 0A000 if Spark cannot read the stream's connector or a column's type
   */
  public static SparkSource of(SparkSession spark, LogicalStream stream) throws SQLException {
    String connector = stream.connector();
    switch (connector) {
      case FreshetSource.CONNECTOR -> {
        StreamRegistration registration = FreshetSource.register(stream);
        return new SparkSource(stream.name(), registration.readStream(spark),
            registration::close);
      }
      case KafkaStreams.CONNECTOR -> {
        return new SparkSource(stream.name(), KafkaStreams.read(spark, stream), () -> { });
      }
      default -> throw SparkErrors.notYetOnSpark("Stream " + stream.name() + " (connector '"
          + connector + "')", "declare it with connector 'memory' or 'kafka', or run the query"
          + " on Freshet's own executor");
    }
  }
}
