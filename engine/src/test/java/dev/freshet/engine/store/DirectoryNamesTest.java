package dev.freshet.engine.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The directory names of streams and view checkpoints, as data directories have them. */
class DirectoryNamesTest {
  @Test void shouldKeepUpperCaseLettersDigitsAndUnderscoreAndEscapeEveryOtherByte() {
    assertEquals("CLICKS_2", DirectoryNames.of("CLICKS_2"));
    assertEquals("%2E%2E", DirectoryNames.of(".."));
    assertEquals("%61%2F%5C", DirectoryNames.of("a/\\"));
    assertEquals("A%20B%C3%A9%F0%9F%98%80", DirectoryNames.of("A Bé😀"));
  }
}
