package dev.freshet.engine.security;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import java.sql.SQLException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rule of Kafka's {@code sasl.jaas.config} on a server: the JAAS text logs in with one
 * module, and it is Kafka's {@code PlainLoginModule}, {@code ScramLoginModule} or
 * {@code OAuthBearerLoginModule}. Any other module is a class the client would load and run
 * (Kerberos' {@code Krb5LoginModule} would log in as the server's own user, say).
 *
 * <pre>{@code
 * JaasConfigRule.check("Stream S", "org.apache.kafka.common.security.plain.PlainLoginModule"
 *     + " required username=\"alice\" password=\"secret\";");   // allowed
 * JaasConfigRule.check("Stream S", "com.example.Evil required;");   // 42501
 * }</pre>
 *
 * <p>The text is read by a grammar stricter than Kafka's, so that what passes here is read the
 * same by Kafka: {@code Module flag name="value" ... ;} with values in double quotes (or plain
 * words of letters, digits and {@code . _ - $ :}), no comments, no single quotes, no line breaks in
 * a value, and nothing after the one {@code ;}.
 */
final class JaasConfigRule {
  /** The property, as messages name it. */
  static final String PROPERTY = "sasl.jaas.config";
  static final List<String> MODULES = List.of(
      "org.apache.kafka.common.security.plain.PlainLoginModule",
      "org.apache.kafka.common.security.scram.ScramLoginModule",
      "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule");
  private static final String WORD = "[A-Za-z0-9_.$:-]+";
  private static final String QUOTED = "\"(?:[^\"\\\\\\r\\n]|\\\\[^\\r\\n])*\"";
  private static final Pattern ENTRY = Pattern.compile("\\s*([A-Za-z_$][A-Za-z0-9_$.]*)\\s+"
      + "(?i:required|requisite|sufficient|optional)"
      + "((?:\\s+" + WORD + "\\s*=\\s*(?:" + QUOTED + "|" + WORD + "))*)\\s*;\\s*");

  private JaasConfigRule() {
  }

  /**
   * Passes a JAAS text of one allowed login module.
   *
   * @param object what connects, as messages name it, e.g. {@code Sink OUT}
   * @param option the option as written, e.g. {@code properties.sasl.jaas.config}
   * @throws SQLException 42501 if the text is not one entry of an allowed module
   */
  static void check(String object, String option, String text) throws SQLException {
    Matcher entry = ENTRY.matcher(text);
    if (!entry.matches()) {
      throw Errors.of(SqlState.INSUFFICIENT_PRIVILEGE, object + " cannot use option '" + option
          + "': this server reads it only as one login module with its options, written"
          + " 'Module required name=\"value\" ...;', without comments, single quotes or a second"
          + " module. Write it so, with one of " + String.join(", ", MODULES));
    }
    String module = entry.group(1);
    if (!MODULES.contains(module)) {
      throw Errors.of(SqlState.INSUFFICIENT_PRIVILEGE, object + " cannot use option '" + option
          + "': login module " + module + " is not one this server lets the Kafka client load."
          + " Use one of " + String.join(", ", MODULES));
    }
  }
}
