package dev.freshet.engine.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading the secrets' key file, and sealing values with it. */
class SecretsKeyTest {
  @TempDir Path dir;

  private Path keyFile(String name, byte[] bytes) throws Exception {
    return Files.write(dir.resolve(name), bytes);
  }

  private static byte[] random(int length) {
    byte[] bytes = new byte[length];
    new SecureRandom().nextBytes(bytes);
    return bytes;
  }

  @Test void shouldReadARawOrABase64KeyAndOpenWhatItSealed() throws Exception {
    byte[] raw = random(32);
    SecretsKey rawKey = SecretsKey.read(keyFile("raw.key", raw), Optional.empty());
    SecretsKey textKey = SecretsKey.read(keyFile("text.key", (Base64.getEncoder()
        .encodeToString(raw) + "\n").getBytes(StandardCharsets.US_ASCII)), Optional.empty());

    byte[] sealed = rawKey.seal("PG_PASS", "hunter2".getBytes(StandardCharsets.UTF_8));

    assertEquals("hunter2", new String(textKey.open("PG_PASS", sealed), StandardCharsets.UTF_8));
    assertTrue(!new String(sealed, StandardCharsets.ISO_8859_1).contains("hunter2"));
  }

  @Test void shouldNotOpenWithAnotherKeyOrUnderAnotherName() throws Exception {
    SecretsKey key = SecretsKey.read(keyFile("a.key", random(32)), Optional.empty());
    SecretsKey other = SecretsKey.read(keyFile("b.key", random(32)), Optional.empty());
    byte[] sealed = key.seal("PG_PASS", new byte[] {1, 2, 3});

    assertThrows(GeneralSecurityException.class, () -> other.open("PG_PASS", sealed));
    assertThrows(GeneralSecurityException.class, () -> key.open("OTHER", sealed));
    assertArrayEquals(new byte[] {1, 2, 3}, key.open("PG_PASS", sealed));
  }

  @Test void shouldRefuseAKeyOfAnotherSizeSayingHowToMakeOne() throws Exception {
    Path file = keyFile("short.key", Base64.getEncoder().encode(random(16)));

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SecretsKey.read(file, Optional.empty()));

    assertEquals("The secrets key file " + file + " does not hold a key of 32 bytes, raw or"
        + " base64-encoded. Make one: (umask 077; openssl rand -base64 32 > secrets.key)",
        e.getMessage());
  }

  @Test void shouldRefuseAKeyFileThatCannotBeRead() {
    Path missing = dir.resolve("missing.key");

    UncheckedIOException e = assertThrows(UncheckedIOException.class,
        () -> SecretsKey.read(missing, Optional.empty()));

    assertTrue(e.getMessage().startsWith("Cannot read the secrets key file " + missing + " ("),
        e.getMessage());
  }

  @Test void shouldRefuseAKeyFileInsideTheDataDirectory() throws Exception {
    Path dataDir = Files.createDirectories(dir.resolve("data"));
    Path inside = Files.write(dataDir.resolve("secrets.key"), random(32));

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SecretsKey.read(inside, Optional.of(dataDir)));

    assertTrue(e.getMessage().startsWith("The secrets key file " + inside + " is inside the data"
        + " directory " + dataDir), e.getMessage());
  }
}
