package dev.freshet.engine.store;

import java.nio.charset.StandardCharsets;

/**
 * Catalog names as the names of the directories that hold their files in the data directory:
 * {@code streams/<name>/} and {@code checkpoints/<name>/}.
 *
 * <pre>{@code
 * DirectoryNames.of("CLICKS_2");   // "CLICKS_2"
 * DirectoryNames.of("A Bé");       // "A%20B%C3%A9"
 * DirectoryNames.of("..");         // "%2E%2E"
 * }</pre>
 */
public final class DirectoryNames {
  private DirectoryNames() {
  }

  /**
   * {@code name} as a file name that is the same on every file system: {@code A-Z}, {@code 0-9}
   * and {@code _} are kept, every other byte of the name's UTF-8 encoding is written
   * {@code %XX} (upper-case hex). Distinct names stay distinct, also on file systems that ignore
   * case, and no name is {@code .}, {@code ..} or holds a separator.
   */
  public static String of(String name) {
    StringBuilder sb = new StringBuilder(name.length());
    for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xFF;
      if (c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
        sb.append((char) c);
      } else {
        sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
      }
    }
    return sb.toString();
  }
}
