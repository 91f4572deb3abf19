package dev.freshet.connectors.kafka;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.runtime.RestartStrategy;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/**
 * The runtime's restart classification meets Kafka's errors: it knows Kafka's retriable marker
 * by name only (the executor has no Kafka), so this test, with kafka-clients on the classpath,
 * is where that name is proven right.
 */
class KafkaRestartTest {
  @Test void shouldRestartAfterRetriableKafkaErrors() {
    assertTrue(RestartStrategy.DEFAULT.isRecoverable(new NotLeaderOrFollowerException("moved")));
    assertTrue(RestartStrategy.DEFAULT.isRecoverable(
        new RuntimeException(new NotLeaderOrFollowerException("moved"))));
  }

  @Test void shouldNotRestartAfterOtherKafkaErrors() {
    assertFalse(RestartStrategy.DEFAULT.isRecoverable(new SerializationException("bad record")));
  }
}
