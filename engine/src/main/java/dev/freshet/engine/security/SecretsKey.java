package dev.freshet.engine.security;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import java.util.Set;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The key that encrypts the stored secrets, with AES-256 in GCM mode, read from the file the
 * operator gives ({@code freshet serve --secrets-key-file FILE}): 32 random bytes, raw or
 * base64-encoded. Make one with
 *
 * <pre>
 * (umask 077; openssl rand -base64 32 &gt; /etc/freshet/secrets.key)
 * (umask 077; head -c 32 /dev/urandom &gt; /etc/freshet/secrets.key)
 * </pre>
 *
 * <p>It must be kept outside the data directory, which a backup or a copy of the data would
 * otherwise carry with the secrets it opens. Each value is sealed with a fresh 96-bit nonce and
 * the secret's name as associated data, so a value moved to another name does not open.
 *
 * <pre>{@code
 * SecretsKey key = SecretsKey.read(Path.of("/etc/freshet/secrets.key"), Optional.of(dataDir));
 * byte[] sealed = key.seal("PG_PASS", "hunter2".getBytes(UTF_8));
 * key.open("PG_PASS", sealed);   // hunter2
 * }</pre>
 */
public final class SecretsKey {
  private static final Logger LOG = LoggerFactory.getLogger(SecretsKey.class);
  /** AES-256's key length. */
  static final int KEY_BYTES = 32;
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final String CIPHER = "AES/GCM/NoPadding";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final SecretKey key;
  private final Path file;

  private SecretsKey(byte[] key, Path file) {
    this.key = new SecretKeySpec(key, "AES");
    this.file = file;
  }

  /**
   * Reads the key in {@code file}.
   *
   * @param dataDir the engine's data directory, which must not hold the file
   * @throws UncheckedIOException if the file cannot be read
   * @throws IllegalArgumentException if it is inside the data directory, or holds no 32-byte
   *     key; the message says how to make one
   */
  public static SecretsKey read(Path file, Optional<Path> dataDir) {
    requireNonNull(file, "file");
    Path absolute = file.toAbsolutePath().normalize();
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(absolute);
    } catch (IOException e) {
      String message = "Cannot read the secrets key file " + absolute + " (" + e
          + "). Give a readable file of 32 random bytes: " + HOW_TO_MAKE;
      throw new UncheckedIOException(message, new IOException(message, e));
    }
    if (dataDir.isPresent() && inside(absolute, dataDir.get())) {
      Arrays.fill(bytes, (byte) 0);
      throw new IllegalArgumentException("The secrets key file " + absolute + " is inside the"
          + " data directory " + dataDir.get() + ", where a backup or a copy of the data would"
          + " carry it with the secrets it opens. Move it out, e.g. to /etc/freshet/secrets.key");
    }
    byte[] key = decode(bytes);
    Arrays.fill(bytes, (byte) 0);
    if (key == null) {
      throw new IllegalArgumentException("The secrets key file " + absolute + " does not hold a"
          + " key of 32 bytes, raw or base64-encoded. Make one: " + HOW_TO_MAKE);
    }
    warnIfOthersRead(absolute);
    SecretsKey secretsKey = new SecretsKey(key, absolute);
    Arrays.fill(key, (byte) 0);
    return secretsKey;
  }

  /** How to make a key file, for messages. */
  static final String HOW_TO_MAKE = "(umask 077; openssl rand -base64 32 > secrets.key)";

  /** The key: the 32 bytes themselves, or their base64 text with blanks around it; else null. */
  private static byte[] decode(byte[] bytes) {
    if (bytes.length == KEY_BYTES) {
      return bytes.clone();
    }
    String text = new String(bytes, StandardCharsets.US_ASCII).strip();
    try {
      byte[] decoded = Base64.getDecoder().decode(text);
      return decoded.length == KEY_BYTES ? decoded : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static boolean inside(Path file, Path dataDir) {
    Path directory = dataDir.toAbsolutePath().normalize();
    try {
      // Links resolved: a link in the data directory to a key elsewhere is still a copy's risk.
      return file.toRealPath().startsWith(directory.toRealPath()) || file.startsWith(directory);
    } catch (IOException e) {
      return file.startsWith(directory);
    }
  }

  private static void warnIfOthersRead(Path file) {
    PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class,
        LinkOption.NOFOLLOW_LINKS);
    if (view == null) {
      return;
    }
    try {
      Set<PosixFilePermission> permissions = view.readAttributes().permissions();
      if (permissions.contains(PosixFilePermission.GROUP_READ)
          || permissions.contains(PosixFilePermission.OTHERS_READ)) {
        LOG.warn("The secrets key file {} is readable by other users than its owner: chmod 600"
            + " {}", file, file);
      }
    } catch (IOException e) {
      // Read a moment ago: the warning is only advice.
    }
  }

  /** The file the key was read from. */
  public Path file() {
    return file;
  }

  /** {@code plaintext} encrypted: nonce, then ciphertext and tag. */
  byte[] seal(String name, byte[] plaintext) {
    byte[] nonce = new byte[NONCE_BYTES];
    RANDOM.nextBytes(nonce);
    try {
      Cipher cipher = Cipher.getInstance(CIPHER);
      cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(name.getBytes(StandardCharsets.UTF_8));
      byte[] sealed = cipher.doFinal(plaintext);
      return ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed).array();
    } catch (GeneralSecurityException e) {
      // AES/GCM is in every Java runtime; nothing a caller could do differently.
      throw new IllegalStateException("Cannot encrypt with AES/GCM: " + e, e);
    }
  }

  /**
   * What {@link #seal} sealed under {@code name}.
   *
   * @throws GeneralSecurityException if it was sealed with another key or under another name,
   *     or changed since
   */
  byte[] open(String name, byte[] sealed) throws GeneralSecurityException {
    if (sealed.length < NONCE_BYTES) {
      throw new GeneralSecurityException("a sealed value is longer than its nonce");
    }
    Cipher cipher = Cipher.getInstance(CIPHER);
    cipher.init(Cipher.DECRYPT_MODE, key,
        new GCMParameterSpec(TAG_BITS, sealed, 0, NONCE_BYTES));
    cipher.updateAAD(name.getBytes(StandardCharsets.UTF_8));
    return cipher.doFinal(sealed, NONCE_BYTES, sealed.length - NONCE_BYTES);
  }

  @Override public String toString() {
    return "SecretsKey[" + file + "]";
  }
}
