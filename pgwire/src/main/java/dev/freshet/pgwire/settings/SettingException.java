package dev.freshet.pgwire.settings;

import java.sql.SQLException;

/**
 * A refused {@code SET} of a PostgreSQL setting: a read-only setting (55P02), or a value Freshet
 * cannot take (22023).
 */
public final class SettingException extends SQLException {
  private static final long serialVersionUID = 1L;

  /** A refusal with {@code sqlState}; {@code message} says what to set instead. */
  public SettingException(String sqlState, String message) {
    super(message, sqlState);
  }
}
