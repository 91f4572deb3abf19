package dev.freshet.sql.parser;

import java.util.List;
import java.util.Map;
import org.apache.calcite.sql.SqlNodeList;

/**
 * A statement with a {@code WITH (key = value, ...)} clause: {@link SqlCreateStream},
 * {@link SqlCreateTable}, {@link SqlCreateSink} and {@link SqlCreateFreshetMaterializedView}.
 * A value is a string or {@code SECRET name}, each with the position of its text.
 *
 * <pre>{@code
 * for (WithOption option : ((SqlWithOptions) node).optionEntries()) {
 *   option.key();                 // "password"
 *   option.secret();              // Optional[PG_PASS] for 'password' = SECRET pg_pass
 *   option.value().getParserPosition();   // where the value is written
 * }
 * }</pre>
 */
public interface SqlWithOptions {
  /**
   * Returns the options as the parser made them: key, value, key, value, ...; a key is a
   * character string literal, a value one too or a {@link SqlSecretReference}.
   */
  SqlNodeList optionList();

  /**
   * Returns the options of the {@code WITH} clause in the order written, keys as written (a
   * dotted name keeps its spelling, a string loses its quotes), values without quotes.
   *
   * @throws IllegalStateException if a value is {@code SECRET name}: see {@link #optionEntries()}
   */
  default Map<String, String> options() {
    return SqlOptions.toMap(optionList());
  }

  /** Returns the options in the order written. */
  default List<WithOption> optionEntries() {
    return SqlOptions.entries(optionList());
  }
}
