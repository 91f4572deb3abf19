package dev.freshet.common.security;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Hides the passwords of a JDBC URL wherever Freshet shows one (messages, logs, system tables):
 * the values of its {@link SensitiveOptions sensitive} parameters and the password of its user
 * info. The engine's statement redaction and the JDBC connector both use it.
 *
 * <pre>{@code
 * UrlRedaction.url("jdbc:postgresql://db/app?user=app&password=x");
 * // jdbc:postgresql://db/app?user=app&password=***
 * }</pre>
 */
public final class UrlRedaction {
  /** What a hidden value is shown as. */
  public static final String HIDDEN = "***";
  /**
   * A URL's parameter, after {@code ?}, {@code &} or {@code ;} (H2): its name, then its value.
   */
  private static final Pattern URL_PARAMETER =
      Pattern.compile("(?<=[?&;])([^=&;?#/]+)=([^&;#]*)");
  /** A URL's user and password: {@code //user:password@host}. */
  private static final Pattern URL_USER_INFO = Pattern.compile("(//[^/@:?#]*):([^/@?#]+)@");

  private UrlRedaction() {
  }

  /**
   * {@code url} with the values of its sensitive parameters ({@code password=},
   * {@code PASSWORD=}, {@code sslpassword=}, ...) and the password of its user info shown as
   * {@code ***}.
   */
  public static String url(String url) {
    StringBuilder shown = new StringBuilder();
    Matcher parameter = URL_PARAMETER.matcher(url);
    while (parameter.find()) {
      String value = SensitiveOptions.isSensitive(parameter.group(1))
          && !parameter.group(2).isEmpty() ? HIDDEN : parameter.group(2);
      parameter.appendReplacement(shown,
          Matcher.quoteReplacement(parameter.group(1) + "=" + value));
    }
    parameter.appendTail(shown);
    return URL_USER_INFO.matcher(shown).replaceAll("$1:" + HIDDEN + "@");
  }

  /** The passwords that {@link #url} hides in {@code url}. */
  public static List<String> passwords(String url) {
    List<String> passwords = new ArrayList<>();
    Matcher parameter = URL_PARAMETER.matcher(url);
    while (parameter.find()) {
      if (SensitiveOptions.isSensitive(parameter.group(1)) && !parameter.group(2).isEmpty()) {
        passwords.add(parameter.group(2));
      }
    }
    Matcher userInfo = URL_USER_INFO.matcher(url);
    while (userInfo.find()) {
      passwords.add(userInfo.group(2));
    }
    return passwords;
  }
}
