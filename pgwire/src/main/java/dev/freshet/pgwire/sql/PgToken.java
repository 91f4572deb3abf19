package dev.freshet.pgwire.sql;

/**
 * One token of PostgreSQL statement text, as {@link PgLexer} reads it, with its text exactly as
 * written: the texts of a statement's tokens, concatenated, give the statement back.
 *
 * <pre>{@code
 * PgLexer.tokenize("SELECT $1::text");
 * // WORD SELECT, WHITESPACE " ", PARAMETER $1, OPERATOR ::, WORD text
 * }</pre>
 *
 * @param kind what the token is
 * @param text its text as written (a rewriter may make tokens with any text)
 */
public record PgToken(Kind kind, String text) {
  /** What a token is. */
  public enum Kind {
    /** A key word or an unquoted name: {@code select}, {@code a$1}. */
    WORD,
    /** A quoted name: {@code "My Table"}, quotes included. */
    QUOTED,
    /** A string literal {@code 'it''s'}, or one with a prefix: {@code X'1F'}, {@code N'x'}. */
    STRING,
    /** An escape string {@code E'a\'b'}, read with C-like backslash escapes. */
    ESCAPE_STRING,
    /** A number: {@code 42}, {@code 1.5}, {@code 1e-3}. */
    NUMBER,
    /** A positional parameter: {@code $1}. */
    PARAMETER,
    /** An operator ({@code ::}, {@code <>}, {@code !~*}) or punctuation ({@code (}, {@code ,}). */
    OPERATOR,
    /** White space. */
    WHITESPACE,
    /** A line comment {@code -- ...} (without its newline) or a nested block comment. */
    COMMENT,
    /** A dollar-quoted string: {@code $$it's$$}, {@code $fn$...$fn$}. */
    DOLLAR_QUOTED
  }

  /** A word token with {@code text}. */
  public static PgToken word(String text) {
    return new PgToken(Kind.WORD, text);
  }

  /** An operator (or punctuation) token with {@code text}. */
  public static PgToken operator(String text) {
    return new PgToken(Kind.OPERATOR, text);
  }

  /** A white space token with {@code text}. */
  public static PgToken whitespace(String text) {
    return new PgToken(Kind.WHITESPACE, text);
  }

  /** Whether this is white space or a comment: text that means nothing between tokens. */
  public boolean isBlank() {
    return kind == Kind.WHITESPACE || kind == Kind.COMMENT;
  }

  /** Whether this is a name, unquoted or quoted. */
  public boolean isName() {
    return kind == Kind.WORD || kind == Kind.QUOTED;
  }

  /** Whether this is a string literal of any form: plain, prefixed, escape or dollar-quoted. */
  public boolean isString() {
    return kind == Kind.STRING || kind == Kind.ESCAPE_STRING || kind == Kind.DOLLAR_QUOTED;
  }

  /** Whether this is the word {@code word}, in any case. */
  public boolean isWord(String word) {
    return kind == Kind.WORD && text.equalsIgnoreCase(word);
  }

  /** Whether this is the operator or punctuation {@code symbol}. */
  public boolean is(String symbol) {
    return kind == Kind.OPERATOR && text.equals(symbol);
  }

  /** Whether this is the name {@code lower} (lower case), unquoted in any case or quoted. */
  public boolean nameIs(String lower) {
    return kind == Kind.WORD && text.equalsIgnoreCase(lower)
        || kind == Kind.QUOTED && text.equals("\"" + lower + "\"");
  }
}
