package dev.freshet.engine.security;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * The rule of a Kafka stream's or sink's {@code properties.*} on a server: only client settings
 * that say where and how to connect, how long to wait and how much to hold pass on to the Kafka
 * client. Every other is refused: those that name a class for the client to load
 * ({@code interceptor.classes}, {@code *.class}, {@code config.providers},
 * {@code metric.reporters}, {@code security.providers}, the callback handlers), those that
 * read a file or run a command ({@code ssl.*.location}, {@code sasl.kerberos.kinit.cmd},
 * {@code sasl.oauthbearer.*} endpoints and files), and any Kafka adds later.
 * {@code sasl.jaas.config} passes with an allowed login module only ({@link JaasConfigRule}).
 *
 * <pre>{@code
 * KafkaPropertyRule.check("Stream S", Map.of("bootstrap.servers", "k:9092",
 *     "security.protocol", "SASL_SSL"));                                   // allowed
 * KafkaPropertyRule.check("Stream S", Map.of("interceptor.classes", "x.Y"));   // 42501
 * }</pre>
 *
 * <p>One list serves streams (a consumer) and sinks (a producer, and the consumer that finds
 * its last batch): a consumer ignores a producer's setting, and the reverse. Group settings are
 * not among them: Freshet reads without a consumer group.
 */
final class KafkaPropertyRule {
  /** The prefix of the {@code WITH} options that are Kafka properties. */
  static final String PREFIX = "properties.";
  /** The properties that pass, without the prefix. */
  static final List<String> ALLOWED = List.of(
      // Where and how to connect.
      "bootstrap.servers", "client.id", "client.rack", "client.dns.lookup",
      "security.protocol", "sasl.mechanism", JaasConfigRule.PROPERTY,
      "ssl.protocol", "ssl.enabled.protocols", "ssl.cipher.suites",
      "ssl.endpoint.identification.algorithm", "ssl.truststore.type",
      "ssl.truststore.certificates", "ssl.keystore.type", "ssl.keystore.certificate.chain",
      "ssl.keystore.key", "ssl.key.password",
      // How long to wait.
      "request.timeout.ms", "default.api.timeout.ms", "connections.max.idle.ms",
      "socket.connection.setup.timeout.ms", "socket.connection.setup.timeout.max.ms",
      "reconnect.backoff.ms", "reconnect.backoff.max.ms", "retry.backoff.ms",
      "retry.backoff.max.ms", "metadata.max.age.ms", "metadata.max.idle.ms",
      "sasl.login.connect.timeout.ms", "sasl.login.read.timeout.ms",
      "sasl.login.refresh.buffer.seconds", "sasl.login.refresh.min.period.seconds",
      "sasl.login.refresh.window.factor", "sasl.login.refresh.window.jitter",
      "sasl.login.retry.backoff.ms", "sasl.login.retry.backoff.max.ms",
      "max.poll.interval.ms", "fetch.max.wait.ms", "max.block.ms", "delivery.timeout.ms",
      "linger.ms", "transaction.timeout.ms",
      // How much to hold.
      "send.buffer.bytes", "receive.buffer.bytes", "fetch.min.bytes", "fetch.max.bytes",
      "max.partition.fetch.bytes", "max.poll.records", "check.crcs", "isolation.level",
      "acks", "batch.size", "buffer.memory", "max.request.size", "retries",
      "max.in.flight.requests.per.connection", "enable.idempotence", "compression.type",
      "compression.gzip.level", "compression.lz4.level", "compression.zstd.level");

  private KafkaPropertyRule() {
  }

  /**
   * Passes properties that are all allowed.
   *
   * @param object what connects, as messages name it, e.g. {@code Stream ORDERS}
   * @param properties the Kafka properties, without the {@code properties.} prefix
   * @throws SQLException 42501 naming the first property refused
   */
  static void check(String object, Map<String, String> properties) throws SQLException {
    for (Map.Entry<String, String> property : properties.entrySet()) {
      String name = property.getKey();
      if (!ALLOWED.contains(name)) {
        throw Errors.of(SqlState.INSUFFICIENT_PRIVILEGE, object + " cannot pass option '"
            + PREFIX + name + "' to the Kafka client: this server passes only settings of where"
            + " and how to connect, timeouts and sizes (others could make the client load a"
            + " class or read a file). Leave it out. Allowed: " + PREFIX + "<"
            + String.join("|", ALLOWED) + ">");
      }
      if (name.equals(JaasConfigRule.PROPERTY)) {
        JaasConfigRule.check(object, PREFIX + name, property.getValue());
      }
    }
  }
}
