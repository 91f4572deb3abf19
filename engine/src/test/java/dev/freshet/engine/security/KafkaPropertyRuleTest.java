package dev.freshet.engine.security;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Kafka client properties a server's streams and sinks may set ({@link KafkaPropertyRule}),
 * and the JAAS text of {@code sasl.jaas.config} ({@link JaasConfigRule}).
 */
class KafkaPropertyRuleTest {
  private static final String PLAIN = "org.apache.kafka.common.security.plain.PlainLoginModule";
  private static final String SCRAM = "org.apache.kafka.common.security.scram.ScramLoginModule";
  private static final String OAUTH =
      "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule";

  private static SQLException refused(Map<String, String> properties) {
    SQLException e = assertThrows(SQLException.class,
        () -> KafkaPropertyRule.check("Stream S", properties), properties.toString());
    assertEquals("42501", e.getSQLState(), properties.toString());
    return e;
  }

  private static SQLException refusedJaas(String text) {
    return refused(Map.of("sasl.jaas.config", text));
  }

  private static void allowedJaas(String text) {
    assertDoesNotThrow(() -> KafkaPropertyRule.check("Stream S",
        Map.of("sasl.jaas.config", text)), text);
  }

  @Test void shouldPassConnectionSecurityTimeoutAndSizeSettings() {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("bootstrap.servers", "k1:9092,k2:9092");
    properties.put("security.protocol", "SASL_SSL");
    properties.put("sasl.mechanism", "SCRAM-SHA-512");
    properties.put("sasl.jaas.config", SCRAM + " required username=\"alice\" password=\"s\";");
    properties.put("ssl.truststore.type", "PEM");
    properties.put("ssl.truststore.certificates", "-----BEGIN CERTIFICATE-----...");
    properties.put("request.timeout.ms", "30000");
    properties.put("max.poll.records", "500");
    properties.put("fetch.max.bytes", "1048576");
    properties.put("client.id", "orders");
    properties.put("acks", "all");
    properties.put("compression.type", "zstd");
    properties.put("linger.ms", "5");
    properties.put("batch.size", "65536");
    assertDoesNotThrow(() -> KafkaPropertyRule.check("Sink OUT", properties));
    assertDoesNotThrow(() -> KafkaPropertyRule.check("Sink OUT", Map.of()));
  }

  @Test void shouldRefuseClassesFilesAndCommandsNamingThePropertyAndTheAllowedOnes() {
    SQLException e = refused(Map.of("interceptor.classes", "x.Y"));
    assertEquals("Stream S cannot pass option 'properties.interceptor.classes' to the Kafka"
        + " client: this server passes only settings of where and how to connect, timeouts and"
        + " sizes (others could make the client load a class or read a file). Leave it out."
        + " Allowed: properties.<" + String.join("|", KafkaPropertyRule.ALLOWED) + ">",
        e.getMessage());
    for (String name : List.of("config.providers", "config.providers.file.class",
        "key.deserializer", "value.serializer", "partitioner.class", "metric.reporters",
        "security.providers", "sasl.login.class", "sasl.login.callback.handler.class",
        "sasl.client.callback.handler.class", "ssl.engine.factory.class",
        "ssl.truststore.location", "ssl.keystore.location", "ssl.truststore.password",
        "sasl.kerberos.kinit.cmd", "sasl.oauthbearer.token.endpoint.url",
        "sasl.oauthbearer.jwks.endpoint.url", "sasl.oauthbearer.assertion.file",
        "SSL.TRUSTSTORE.LOCATION", "group.id", "")) {
      refused(Map.of(name, "x"));
    }
  }

  @Test void shouldPassKafkasOwnLoginModules() {
    allowedJaas(PLAIN + " required username=\"alice\" password=\"a-secret\";");
    allowedJaas(SCRAM + " required username=\"alice\" password=\"p;a=s\\\"s/*x*/\";");
    allowedJaas("  " + OAUTH + " REQUIRED\n unsecuredLoginStringClaim_sub=\"alice\" ;  ");
    allowedJaas(PLAIN + " required;");
    allowedJaas(PLAIN + " optional username = alice;");
  }

  @Test void shouldRefuseAnyOtherLoginModule() {
    SQLException e = refusedJaas("com.sun.security.auth.module.Krb5LoginModule required"
        + " useKeyTab=true keyTab=\"/etc/krb5.keytab\";");
    assertEquals("Stream S cannot use option 'properties.sasl.jaas.config': login module"
        + " com.sun.security.auth.module.Krb5LoginModule is not one this server lets the Kafka"
        + " client load. Use one of " + String.join(", ", JaasConfigRule.MODULES),
        e.getMessage());
    refusedJaas("com.example.Evil required;");
    refusedJaas("org.apache.kafka.common.security.plain.PlainLoginModuleX required;");
    refusedJaas("org.apache.kafka.common.security.plain.plainloginmodule required;");
  }

  /** A second module, or text Kafka would read otherwise than this rule does. */
  @Test void shouldRefuseTextThatCouldHideAnotherModule() {
    SQLException e = refusedJaas(PLAIN + " required; com.example.Evil required;");
    assertEquals("Stream S cannot use option 'properties.sasl.jaas.config': this server reads it"
        + " only as one login module with its options, written 'Module required"
        + " name=\"value\" ...;', without comments, single quotes or a second module. Write it"
        + " so, with one of " + String.join(", ", JaasConfigRule.MODULES), e.getMessage());
    refusedJaas(PLAIN + " required username=\"a\";" + PLAIN + " required;");
    refusedJaas("/* x */ com.example.Evil required;");
    refusedJaas(PLAIN + " required // comment\n;");
    refusedJaas(PLAIN + " required /*; com.example.Evil required;*/");
    refusedJaas(PLAIN + " required username='a; com.example.Evil required';");
    refusedJaas(PLAIN + " required username=\"a\n\"; com.example.Evil required;");
    refusedJaas(PLAIN + " required username=\"unclosed;");
    refusedJaas(PLAIN + " required username=a/b;");
    refusedJaas(PLAIN + " sometimes;");
    refusedJaas(PLAIN + " required");
    refusedJaas(PLAIN + "required;");
    refusedJaas("");
  }

  @Test void shouldKeepTheRefusalMessageWithinTheErrorLimit() {
    SQLException e = refused(Map.of("interceptor.classes", "x.Y"));
    assertTrue(!e.getMessage().contains("more characters"), e.getMessage());
  }
}
