package dev.freshet.pgwire.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The server's side of SCRAM-SHA-256 against RFC 7677's example exchange. */
class ScramSha256Test {
  private static final String CLIENT_FIRST = "n,,n=user,r=rOprNGfwEbeRWgbNEkqO";
  private static final String SERVER_NONCE = "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
  private static final String CLIENT_FINAL_WITHOUT_PROOF =
      "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
  private static final String PROOF = "dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";

  private static ScramSha256 rfc7677(String password) {
    return ScramSha256.of(password, Base64.getDecoder().decode("W22ZaJ0SNY7soEsUEjb6gQ=="),
        SERVER_NONCE);
  }

  @Test void shouldAnswerRfc7677sExchange() throws Exception {
    ScramSha256 scram = rfc7677("pencil");
    assertEquals("r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
        + "s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096", scram.serverFirst(CLIENT_FIRST));
    assertEquals(Optional.of("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="),
        scram.serverFinal(CLIENT_FINAL_WITHOUT_PROOF + ",p=" + PROOF));
  }

  @Test void shouldRefuseTheProofOfAnotherPassword() throws Exception {
    ScramSha256 scram = rfc7677("pencils");
    scram.serverFirst(CLIENT_FIRST);
    assertEquals(Optional.empty(), scram.serverFinal(CLIENT_FINAL_WITHOUT_PROOF + ",p=" + PROOF));
  }

  @Test void shouldRefuseAnExchangeThatDoesNotHoldTogether() throws Exception {
    ScramSha256 scram = rfc7677("pencil");
    assertThrows(ScramSha256.ScramException.class,
        () -> scram.serverFinal(CLIENT_FINAL_WITHOUT_PROOF + ",p=" + PROOF));
    scram.serverFirst(CLIENT_FIRST);
    // Another nonce than the exchange's.
    assertThrows(ScramSha256.ScramException.class,
        () -> scram.serverFinal("c=biws,r=other,p=" + PROOF));
    assertThrows(ScramSha256.ScramException.class,
        () -> rfc7677("pencil").serverFirst("p=tls-server-end-point,,n=,r=abc"));
    assertThrows(ScramSha256.ScramException.class,
        () -> rfc7677("pencil").serverFirst("garbage"));
  }

  @Test void shouldFailEveryProofForAnUnknownUser() throws Exception {
    ScramSha256 scram = ScramSha256.failing(new SecureRandom());
    String serverFirst = scram.serverFirst(CLIENT_FIRST);
    String nonce = serverFirst.substring(2, serverFirst.indexOf(','));
    assertEquals(Optional.empty(), scram.serverFinal("c=biws,r=" + nonce + ",p=" + PROOF));
  }
}
