package dev.freshet.common.security;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The rule of which option keys hold secrets, key by key. */
class SensitiveOptionsTest {
  @ParameterizedTest
  @ValueSource(strings = {"password", "PASSWORD", "Password", "properties.sasl.jaas.config",
      "properties.ssl.key.password", "properties.ssl.keystore.password", "access.key",
      "secret.access.key", "api-token", "api_key", "apiKey", "key", "ssl.keystore.key",
      "spark.hadoop.fs.s3a.secret.key", "client-secret", "credentials", "passwd",
      "sasl.oauthbearer.token.endpoint.url"})
  void shouldHideTheValueOfAKeyThatNamesASecret(String key) {
    assertTrue(SensitiveOptions.isSensitive(key), key);
  }

  @ParameterizedTest
  @ValueSource(strings = {"connector", "url", "username", "table-name", "topic", "format",
      "key.deserializer", "key.format", "key.fields", "metadata.key", "METADATA.KEY",
      "properties.bootstrap.servers", "scan.startup.mode", "engine", "keystore.type",
      "properties.security.protocol", "properties.sasl.mechanism"})
  void shouldShowTheValueOfAKeyThatNamesNoSecret(String key) {
    assertFalse(SensitiveOptions.isSensitive(key), key);
  }
}
