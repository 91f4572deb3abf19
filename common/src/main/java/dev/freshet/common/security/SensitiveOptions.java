package dev.freshet.common.security;

import java.util.List;
import java.util.Locale;

/**
 * Which options hold secrets, by their keys: the values of these are shown as {@code '***'}
 * wherever Freshet shows a statement, and a {@code WITH} option among them written as a string is
 * kept as an anonymous secret (the engine's {@code SecretStore}).
 *
 * <pre>{@code
 * SensitiveOptions.isSensitive("password");                      // true
 * SensitiveOptions.isSensitive("properties.sasl.jaas.config");   // true
 * SensitiveOptions.isSensitive("access.key");                    // true
 * SensitiveOptions.isSensitive("key.deserializer");              // false
 * SensitiveOptions.isSensitive("metadata.key");                  // false: names a column
 * }</pre>
 *
 * <p>The rule, on the key in lower case: it is sensitive if it contains {@code password},
 * {@code passwd}, {@code secret}, {@code token}, {@code credential} or {@code jaas} anywhere
 * ({@code properties.ssl.key.password}, {@code api-token}, {@code sasl.jaas.config}), or if its
 * last word (words are separated by {@code .}, {@code -} and {@code _}) ends with {@code key}
 * ({@code access.key}, {@code api_key}, {@code ssl.keystore.key}, {@code key}), except a Kafka
 * stream's {@code metadata.*} options, whose values are column names. It errs on the side of
 * hiding: a value hidden needlessly costs a look at the statement's author; one shown costs the
 * secret.
 */
public final class SensitiveOptions {
  /** Words that make a key sensitive wherever they stand in it. */
  private static final List<String> WORDS =
      List.of("password", "passwd", "secret", "token", "credential", "jaas");
  /** The prefix of a Kafka stream's metadata columns: {@code 'metadata.key' = 'k'}. */
  private static final String METADATA = "metadata.";

  private SensitiveOptions() {
  }

  /** Whether the value of option {@code key} is a secret. */
  public static boolean isSensitive(String key) {
    String lower = key.toLowerCase(Locale.ROOT);
    for (String word : WORDS) {
      if (lower.contains(word)) {
        return true;
      }
    }
    if (lower.startsWith(METADATA)) {
      return false;
    }
    String[] words = lower.split("[._-]", -1);
    return words[words.length - 1].endsWith("key");
  }
}
