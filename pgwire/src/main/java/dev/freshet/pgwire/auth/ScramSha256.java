package dev.freshet.pgwire.auth;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.text.Normalizer;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The server's side of one SCRAM-SHA-256 exchange (RFC 5802, RFC 7677) as PostgreSQL runs it
 * inside SASL messages: the client's first message, the server's (nonce, salt, iterations), the
 * client's proof, and the server's signature. Channel binding is not offered, so a client's
 * {@code n,,} or {@code y,,} header is accepted and {@code p=} refused.
 *
 * <pre>{@code
 * ScramSha256 scram = ScramSha256.forPassword("secret", random);
 * String serverFirst = scram.serverFirst(clientFirst);     // "r=...,s=...,i=4096"
 * Optional<String> serverFinal = scram.serverFinal(clientFinal);   // "v=..." if the proof holds
 * }</pre>
 *
 * <p>The user name in the client's message is ignored, as PostgreSQL ignores it: the start-up
 * packet names the user. The password is normalized with Unicode NFKC, the bulk of SASLprep;
 * for ASCII passwords that is the identity. The JDK's PBKDF2 encodes the password as UTF-8.
 */
public final class ScramSha256 {
  /** The mechanism's name in AuthenticationSASL. */
  public static final String MECHANISM = "SCRAM-SHA-256";
  /** PBKDF2 iterations, PostgreSQL's default ({@code scram_iterations}). */
  static final int ITERATIONS = 4096;

  private final byte[] storedKey;
  private final byte[] serverKey;
  private final byte[] salt;
  private final String serverNonce;
  private String clientFirstBare;
  private String serverFirst;
  private String nonce;
  private String gs2Header;

  private ScramSha256(byte[] storedKey, byte[] serverKey, byte[] salt, String serverNonce) {
    this.storedKey = storedKey;
    this.serverKey = serverKey;
    this.salt = salt;
    this.serverNonce = serverNonce;
  }

  /** An exchange that proves {@code password}, with a fresh salt and nonce from {@code random}. */
  public static ScramSha256 forPassword(String password, SecureRandom random) {
    requireNonNull(password, "password");
    byte[] salt = new byte[16];
    random.nextBytes(salt);
    byte[] nonceBytes = new byte[18];
    random.nextBytes(nonceBytes);
    return of(password, salt, Base64.getEncoder().encodeToString(nonceBytes));
  }

  /** An exchange with a given salt and server nonce: RFC 7677's test vector needs them. */
  static ScramSha256 of(String password, byte[] salt, String serverNonce) {
    try {
      byte[] salted = pbkdf2(Normalizer.normalize(password, Normalizer.Form.NFKC), salt);
      byte[] clientKey = hmac(salted, "Client Key");
      byte[] storedKey = MessageDigest.getInstance("SHA-256").digest(clientKey);
      byte[] serverKey = hmac(salted, "Server Key");
      return new ScramSha256(storedKey, serverKey, salt, serverNonce);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("The JDK lacks SCRAM-SHA-256's algorithms", e);
    }
  }

  /**
   * An exchange for a user who does not exist: it runs like any other and fails at the proof,
   * so that a client cannot tell unknown users from wrong passwords.
   */
  public static ScramSha256 failing(SecureRandom random) {
    byte[] password = new byte[24];
    random.nextBytes(password);
    return forPassword(Base64.getEncoder().encodeToString(password), random);
  }

  /**
   * The server's first message for the client's first, e.g. {@code n,,n=,r=abc}.
   *
   * @throws ScramException if the message is not a SCRAM client-first message
   */
  public String serverFirst(String clientFirst) throws ScramException {
    String header;
    String bare;
    if (clientFirst.startsWith("n,,") || clientFirst.startsWith("y,,")) {
      header = clientFirst.substring(0, 3);
      bare = clientFirst.substring(3);
    } else if (clientFirst.startsWith("p=")) {
      throw new ScramException("Channel binding is not offered: connect without it"
          + " (pgjdbc: channelBinding=disable, libpq: channel_binding=disable)");
    } else {
      throw new ScramException("Malformed SCRAM client-first message");
    }
    String clientNonce = attribute(bare, 'r');
    if (clientNonce == null || clientNonce.isEmpty() || !bare.startsWith("n=")) {
      throw new ScramException("Malformed SCRAM client-first message: no user or nonce");
    }
    gs2Header = header;
    clientFirstBare = bare;
    nonce = clientNonce + serverNonce;
    serverFirst = "r=" + nonce + ",s=" + Base64.getEncoder().encodeToString(salt) + ",i="
        + ITERATIONS;
    return serverFirst;
  }

  /**
   * The server's final message ({@code v=signature}) if the client's final message proves the
   * password, else empty.
   *
   * @throws ScramException if the message is malformed or out of order
   */
  public Optional<String> serverFinal(String clientFinal) throws ScramException {
    if (serverFirst == null) {
      throw new ScramException("SCRAM client-final message before client-first");
    }
    int proofAt = clientFinal.lastIndexOf(",p=");
    if (proofAt < 0) {
      throw new ScramException("Malformed SCRAM client-final message: no proof");
    }
    String withoutProof = clientFinal.substring(0, proofAt);
    String binding = attribute(withoutProof, 'c');
    String finalNonce = attribute(withoutProof, 'r');
    String expectedBinding = Base64.getEncoder().encodeToString(
        gs2Header.getBytes(StandardCharsets.US_ASCII));
    if (!expectedBinding.equals(binding) || !nonce.equals(finalNonce)) {
      throw new ScramException("SCRAM client-final message does not match the exchange");
    }
    byte[] proof;
    try {
      proof = Base64.getDecoder().decode(clientFinal.substring(proofAt + 3));
    } catch (IllegalArgumentException e) {
      throw new ScramException("Malformed SCRAM proof");
    }
    String authMessage = clientFirstBare + "," + serverFirst + "," + withoutProof;
    try {
      byte[] clientSignature = hmac(storedKey, authMessage);
      if (proof.length != clientSignature.length) {
        return Optional.empty();
      }
      byte[] clientKey = new byte[proof.length];
      for (int i = 0; i < proof.length; i++) {
        clientKey[i] = (byte) (proof[i] ^ clientSignature[i]);
      }
      byte[] computed = MessageDigest.getInstance("SHA-256").digest(clientKey);
      if (!MessageDigest.isEqual(computed, storedKey)) {
        return Optional.empty();
      }
      return Optional.of("v=" + Base64.getEncoder().encodeToString(
          hmac(serverKey, authMessage)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("The JDK lacks SCRAM-SHA-256's algorithms", e);
    }
  }

  /** The value of attribute {@code name} in comma-separated {@code message}, or null. */
  private static String attribute(String message, char name) {
    for (String part : message.split(",")) {
      if (part.length() >= 2 && part.charAt(0) == name && part.charAt(1) == '=') {
        return part.substring(2);
      }
    }
    return null;
  }

  private static byte[] pbkdf2(String password, byte[] salt) throws GeneralSecurityException {
    PBEKeySpec spec = new PBEKeySpec(password.toCharArray(), salt, ITERATIONS, 256);
    try {
      return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec)
          .getEncoded();
    } finally {
      spec.clearPassword();
    }
  }

  private static byte[] hmac(byte[] key, String text) throws GeneralSecurityException {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
  }

  /** A malformed SCRAM message: the connection fails with 08P01. */
  public static final class ScramException extends Exception {
    private static final long serialVersionUID = 1L;

    ScramException(String message) {
      super(message);
    }
  }
}
