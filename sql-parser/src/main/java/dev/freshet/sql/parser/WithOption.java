package dev.freshet.sql.parser;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlNode;

/**
 * One option of a {@code WITH} clause as written: its key and its value, which is a string
 * ({@code 'password' = 'x'}) or a secret's name ({@code 'password' = SECRET pg_pass}).
 *
 * <pre>{@code
 * option.literal();   // Optional["x"] for 'password' = 'x', empty for SECRET pg_pass
 * option.secret();    // Optional["PG_PASS"] for 'password' = SECRET pg_pass
 * }</pre>
 *
 * @param keyLiteral the key, as a character string however it was written
 * @param value a {@link SqlCharStringLiteral} or a {@link SqlSecretReference}
 */
public record WithOption(SqlCharStringLiteral keyLiteral, SqlNode value) {
  public WithOption {
    requireNonNull(keyLiteral, "keyLiteral");
    requireNonNull(value, "value");
    if (!(value instanceof SqlCharStringLiteral) && !(value instanceof SqlSecretReference)) {
      throw new IllegalArgumentException("an option's value is a string or a secret: " + value);
    }
  }

  /** The key as written (a dotted name keeps its spelling, a string loses its quotes). */
  public String key() {
    return requireNonNull(keyLiteral.getValueAs(String.class), "key");
  }

  /** The value, if it is written as a string. */
  public Optional<String> literal() {
    return value instanceof SqlCharStringLiteral string
        ? Optional.of(requireNonNull(string.getValueAs(String.class), "value"))
        : Optional.empty();
  }

  /** The name of the secret whose value this is, if it is written {@code SECRET name}. */
  public Optional<String> secret() {
    return value instanceof SqlSecretReference reference
        ? Optional.of(reference.secretName()) : Optional.empty();
  }
}
