package dev.freshet.engine.security;

import dev.freshet.common.security.SensitiveOptions;
import dev.freshet.sql.FreshetSqlParser;
import dev.freshet.sql.parser.SqlCreateSecret;
import dev.freshet.sql.parser.SqlSetProperty;
import dev.freshet.sql.parser.SqlWithOptions;
import dev.freshet.sql.parser.WithOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * The parts of a statement's text that hold secrets, and what to show in their place: the value
 * of {@code CREATE SECRET}, each {@code WITH} option value whose key is
 * {@link SensitiveOptions sensitive}, a password inside a URL value, and the value of a
 * {@code SET} of a sensitive key.
 *
 * <pre>{@code
 * HiddenSpans.of("CREATE SECRET s AS 'hunter2'");
 * // [Span[start=19, end=28, shown='***', values=[hunter2]]]
 * }</pre>
 *
 * <p>A statement that parses is read by the parser's positions, so exactly the values' text is
 * replaced and the rest keeps its spelling; one that does not is scanned word by word, for
 * {@code key = 'value'} pairs with a sensitive key and for the string after {@code SECRET name
 * AS}.
 */
final class HiddenSpans {
  /**
   * One part of the text to hide.
   *
   * @param start the offset of its first character
   * @param end the offset after its last character
   * @param shown what to show instead, a string literal
   * @param values the secrets it holds, as a message might quote them
   */
  record Span(int start, int end, String shown, List<String> values) {
  }

  /** What a hidden value is shown as. */
  static final String HIDDEN = "'" + Redaction.HIDDEN + "'";

  private HiddenSpans() {
  }

  /** The parts of {@code sql} to hide, in the order of the text, none overlapping. */
  static List<Span> of(String sql) {
    SqlNode node;
    try {
      node = FreshetSqlParser.parse(sql);
    } catch (SqlParseException | RuntimeException | StackOverflowError e) {
      return lexical(sql);
    }
    List<Span> spans = new ArrayList<>();
    parsed(new TextPositions(sql), node, spans);
    spans.sort(Comparator.comparingInt(Span::start));
    return spans;
  }

  private static void parsed(TextPositions text, SqlNode node, List<Span> spans) {
    if (node instanceof SqlExplain explain) {
      parsed(text, explain.getExplicandum(), spans);
    } else if (node instanceof SqlCreateSecret create) {
      spans.add(span(text, create.valueLiteral().getParserPosition(), HIDDEN,
          List.of(create.value())));
    } else if (node instanceof SqlWithOptions statement) {
      for (WithOption option : statement.optionEntries()) {
        if (option.literal().isPresent()) {
          Span span = hidden(text, option.key(), option.value().getParserPosition(),
              option.literal().get());
          if (span != null) {
            spans.add(span);
          }
        }
      }
    } else if (node instanceof SqlSetProperty set && set.value() != null) {
      Span span = hidden(text, set.key(), set.getOperandList().get(1).getParserPosition(),
          set.value());
      if (span != null) {
        spans.add(span);
      }
    }
  }

  /** The span of a value to hide, or null if {@code key}'s value {@code value} holds no secret. */
  private static Span hidden(TextPositions text, String key, SqlParserPos pos, String value) {
    if (SensitiveOptions.isSensitive(key)) {
      return span(text, pos, HIDDEN, List.of(value));
    }
    List<String> passwords = Redaction.urlPasswords(value);
    return passwords.isEmpty() ? null
        : span(text, pos, quoted(Redaction.url(value)), passwords);
  }

  private static Span span(TextPositions text, SqlParserPos pos, String shown,
      List<String> values) {
    return new Span(text.start(pos), text.end(pos), shown, values);
  }

  /** {@code value} as a SQL string literal. */
  static String quoted(String value) {
    return "'" + value.replace("'", "''") + "'";
  }

  /**
   * The spans of a text that does not parse, found word by word: the value after a sensitive
   * {@code key =}, whether quoted or not (a value the user forgot to quote is what the parser's
   * error quotes); a URL with a password after any {@code key =}; and the word after
   * {@code SECRET [IF NOT EXISTS] name [AS]}.
   */
  private static List<Span> lexical(String sql) {
    List<SqlWords.Word> words = SqlWords.of(sql);
    List<Span> spans = new ArrayList<>();
    for (int i = 0; i < words.size(); i++) {
      SqlWords.Word word = words.get(i);
      boolean value = word.isString() || (word.isName() && !word.isWord("SECRET"));
      if (!value) {
        continue;
      }
      String key = i >= 2 && words.get(i - 1).text().equals("=") ? keyBefore(words, i - 2)
          : null;
      if (key != null && SensitiveOptions.isSensitive(key)) {
        spans.add(hiddenWord(word));
      } else if (key != null && word.isString()
          && !Redaction.urlPasswords(word.stringValue()).isEmpty()) {
        spans.add(new Span(word.start(), word.end(), quoted(Redaction.url(word.stringValue())),
            Redaction.urlPasswords(word.stringValue())));
      } else if (i >= 2 && words.get(i - 1).isWord("AS") && followsSecret(words, i - 2)) {
        spans.add(hiddenWord(word));
      } else if (i >= 1 && word.isString() && followsSecret(words, i - 1)) {
        spans.add(hiddenWord(word));
      }
    }
    return spans;
  }

  private static Span hiddenWord(SqlWords.Word word) {
    return new Span(word.start(), word.end(), HIDDEN,
        List.of(word.isString() ? word.stringValue() : word.nameValue()));
  }

  /** The key that ends at word {@code last}: a string, or names joined by dots; else null. */
  private static String keyBefore(List<SqlWords.Word> words, int last) {
    SqlWords.Word word = words.get(last);
    if (word.isString()) {
      return word.stringValue();
    }
    if (!word.isName()) {
      return null;
    }
    StringBuilder key = new StringBuilder(word.nameValue());
    for (int i = last - 1; i >= 1 && words.get(i).text().equals(".")
        && words.get(i - 1).isName(); i -= 2) {
      key.insert(0, words.get(i - 1).nameValue() + ".");
    }
    return key.toString();
  }

  /** Whether the name at word {@code name} follows {@code SECRET [IF NOT EXISTS]}. */
  private static boolean followsSecret(List<SqlWords.Word> words, int name) {
    int i = name - 1;
    if (i >= 2 && words.get(i).isWord("EXISTS") && words.get(i - 1).isWord("NOT")
        && words.get(i - 2).isWord("IF")) {
      i -= 3;
    }
    return i >= 0 && words.get(i).isWord("SECRET") && words.get(name).isName();
  }
}
