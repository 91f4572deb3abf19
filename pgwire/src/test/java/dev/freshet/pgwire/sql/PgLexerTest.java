package dev.freshet.pgwire.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.pgwire.sql.PgToken.Kind;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class PgLexerTest {
  /** The tokens as "KIND:text" strings, blanks left out unless {@code blanks}. */
  private static List<String> lex(String sql) {
    List<PgToken> tokens = PgLexer.tokenize(sql);
    assertEquals(sql, tokens.stream().map(PgToken::text).collect(Collectors.joining()),
        "the tokens read back as the input");
    return tokens.stream().map(t -> t.kind() + ":" + t.text()).collect(Collectors.toList());
  }

  @Test
  void everyKind() {
    assertEquals(List.of("WORD:SELECT", "WHITESPACE: ", "QUOTED:\"A \"\"b\"\"\"", "OPERATOR:,",
        "STRING:'it''s'", "OPERATOR:,", "ESCAPE_STRING:E'a\\'b\\\\'", "OPERATOR:,",
        "NUMBER:1.5", "OPERATOR:,", "NUMBER:2e-3", "OPERATOR:,", "PARAMETER:$12",
        "OPERATOR:::", "WORD:int4", "OPERATOR:,", "DOLLAR_QUOTED:$f$ a'b $$ $f$",
        "WHITESPACE:\n", "COMMENT:-- line", "WHITESPACE:\n", "COMMENT:/* block */",
        "WORD:FROM", "WHITESPACE: ", "WORD:t$1", "OPERATOR:;"),
        lex("SELECT \"A \"\"b\"\"\",'it''s',E'a\\'b\\\\',1.5,2e-3,$12::int4,$f$ a'b $$ $f$\n"
            + "-- line\n/* block */FROM t$1;"));
  }

  @Test
  void prefixedStrings() {
    assertEquals(List.of("STRING:X'1F'", "WHITESPACE: ", "STRING:b'101'", "WHITESPACE: ",
        "STRING:N'x'", "WHITESPACE: ", "ESCAPE_STRING:e'\\n'", "WHITESPACE: ", "WORD:xy",
        "STRING:'z'"), lex("X'1F' b'101' N'x' e'\\n' xy'z'"));
  }

  @Test
  void escapeStringBackslashesDoNotEndIt() {
    assertEquals(List.of("ESCAPE_STRING:E'\\''", "WHITESPACE: ", "WORD:x"), lex("E'\\'' x"));
    // in a plain string a backslash is a character, as with standard_conforming_strings
    assertEquals(List.of("STRING:'\\'", "WHITESPACE: ", "WORD:x"), lex("'\\' x"));
  }

  @Test
  void commentsNestAsInPostgres() {
    assertEquals(List.of("COMMENT:/* a /* b */ c */", "WHITESPACE: ", "NUMBER:1"),
        lex("/* a /* b */ c */ 1"));
    assertEquals(List.of("NUMBER:1", "COMMENT:-- x /* y", "WHITESPACE:\n", "NUMBER:2"),
        lex("1-- x /* y\n2"));
  }

  @Test
  void unterminatedRunsToTheEnd() {
    assertEquals(List.of("WORD:a", "WHITESPACE: ", "STRING:'b ''c"), lex("a 'b ''c"));
    assertEquals(List.of("QUOTED:\"b"), lex("\"b"));
    assertEquals(List.of("ESCAPE_STRING:E'x\\'"), lex("E'x\\'"));
    assertEquals(List.of("COMMENT:/* a /* b */ c"), lex("/* a /* b */ c"));
    assertEquals(List.of("COMMENT:-- c"), lex("-- c"));
    assertEquals(List.of("DOLLAR_QUOTED:$q$ x $$"), lex("$q$ x $$"));
  }

  @Test
  void dollarQuotes() {
    assertEquals(List.of("DOLLAR_QUOTED:$$it's$$", "WHITESPACE: ", "WORD:a$$b"),
        lex("$$it's$$ a$$b"));
    assertEquals(List.of("OPERATOR:$", "WHITESPACE: ", "NUMBER:1"), lex("$ 1"));
    assertEquals("it's", PgLexer.dollarQuotedValue("$$it's$$"));
    assertEquals(" x ", PgLexer.dollarQuotedValue("$t$ x $t$"));
  }

  @Test
  void operatorsTakeTheLongestMatchAsPostgresDoes() {
    assertEquals(List.of("WORD:a", "OPERATOR:!~*", "STRING:'x'", "WHITESPACE: ", "OPERATOR:<>",
        "WHITESPACE: ", "OPERATOR:||", "OPERATOR:(", "OPERATOR:*", "OPERATOR:)",
        "OPERATOR:>=", "WHITESPACE: ", "OPERATOR:@>"), lex("a!~*'x' <> ||(*)>= @>"));
    // a trailing + or - is not part of an operator without ~!@#%^&|`?
    assertEquals(List.of("WORD:a", "OPERATOR:=", "OPERATOR:-", "NUMBER:1"), lex("a=-1"));
    assertEquals(List.of("WORD:a", "OPERATOR:@-", "NUMBER:1"), lex("a@-1"));
    // a comment start ends an operator
    assertEquals(List.of("NUMBER:1", "OPERATOR:*", "COMMENT:/* c */", "NUMBER:2"),
        lex("1*/* c */2"));
    assertEquals(List.of("WORD:x", "OPERATOR:::", "WORD:t", "OPERATOR:[", "OPERATOR:]"),
        lex("x::t[]"));
  }

  @Test
  void tokenHelpers() {
    PgToken quoted = new PgToken(Kind.QUOTED, "\"public\"");
    assertEquals(true, quoted.nameIs("public") && quoted.isName());
    assertEquals(true, PgToken.word("Public").nameIs("public"));
    assertEquals(true, PgToken.word("sElEcT").isWord("SELECT"));
    assertEquals(true, PgToken.operator("::").is("::"));
    assertEquals(true, new PgToken(Kind.COMMENT, "--").isBlank());
    assertEquals(true, new PgToken(Kind.DOLLAR_QUOTED, "$$$$").isString());
    assertEquals(false, PgToken.word("x").isString());
  }
}
