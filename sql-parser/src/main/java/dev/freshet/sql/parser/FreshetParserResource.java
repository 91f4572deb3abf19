package dev.freshet.sql.parser;

import org.apache.calcite.runtime.Resources;
import org.apache.calcite.runtime.Resources.BaseMessage;
import org.apache.calcite.runtime.Resources.ExInst;
import org.apache.calcite.sql.validate.SqlValidatorException;

/**
 * Messages of the errors that Freshet's parser raises beyond Calcite's own
 * syntax errors.
 *
 * <p>The parser throws them through
 * {@link org.apache.calcite.sql.SqlUtil#newContextException}, so they reach
 * the caller as a {@link org.apache.calcite.sql.parser.SqlParseException}
 * whose position is that of the offending text, for example:
 *
 * <pre>
 * CREATE STREAM s (a INT) WITH (topic = 'a', topic = 'b')
 * -- Option 'topic' is given more than once
 * </pre>
 */
public interface FreshetParserResource {
  /** The instance that the parser uses. */
  FreshetParserResource RESOURCE = Resources.create(FreshetParserResource.class);

  /** A {@code WITH} option key appears twice; raised at the second. */
  @BaseMessage("Option ''{0}'' is given more than once")
  ExInst<SqlValidatorException> duplicateOption(String key);

  /** A {@code CREATE STREAM} column list has a second {@code WATERMARK FOR};
   * raised at the second. */
  @BaseMessage("Stream ''{0}'' has more than one WATERMARK")
  ExInst<SqlValidatorException> duplicateWatermark(String stream);

  /** A binary string stands where an option or property needs a character
   * string, as in {@code WITH (k = X'AB')}. */
  @BaseMessage("Character string literal expected, got {0}")
  ExInst<SqlValidatorException> characterStringExpected(String literal);

  /** A {@code GRANT ... FROM} or {@code REVOKE ... TO}. */
  @BaseMessage("{0} names its users with {1}")
  ExInst<SqlValidatorException> grantDirection(String statement, String preposition);
  /** {@code CREATE OR REPLACE SECRET}: a secret is given once, and changed by dropping it. */
  @BaseMessage("Secret ''{0}'' cannot be replaced: DROP SECRET {0}, then CREATE SECRET {0}"
      + " AS ''...''")
  ExInst<SqlValidatorException> secretCannotBeReplaced(String secret);
}
