package dev.freshet.jdbc.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** How a jdbc:freshet:remote: URL becomes Avatica's properties, and what messages may show. */
class RemoteConnectionPropertiesTest {
  @Test void shouldTurnUserAndPasswordIntoBasicCredentialsThatStayOnTheClient() throws Exception {
    RemoteConnectionProperties p = RemoteConnectionProperties.parse(
        "url=http://db:8765;user=alice;password=secret", new Properties());
    Properties avatica = p.properties();
    assertEquals("alice", avatica.getProperty("avatica_user"));
    assertEquals("secret", avatica.getProperty("avatica_password"));
    assertEquals("BASIC", avatica.getProperty("authentication"));
    assertEquals("PROTOBUF", avatica.getProperty("serialization"));
    // Sent to the server, so that it answers fetches without PROGRESS rows.
    assertEquals("true", avatica.getProperty("freshet_long_poll"));
    // Avatica forwards keys it does not know to the server in clear.
    assertNull(avatica.getProperty("user"));
    assertNull(avatica.getProperty("password"));
    assertEquals("http://db:8765", p.serverUrl());
  }

  @Test void shouldTakeCredentialsFromThePropertiesAndKeepAnExplicitAuthentication()
      throws Exception {
    Properties info = new Properties();
    info.setProperty("user", "bob");
    info.setProperty("password", "pw");
    Properties avatica = RemoteConnectionProperties.parse(
        "url=http://db:8765;authentication=digest", info).properties();
    assertEquals("bob", avatica.getProperty("avatica_user"));
    assertEquals("DIGEST", avatica.getProperty("authentication"));
  }

  @Test void shouldLeaveAuthenticationUnsetWithoutUser() throws Exception {
    assertNull(RemoteConnectionProperties.parse("url=http://db:8765", new Properties())
        .properties().getProperty("authentication"));
  }

  @Test void shouldShowNoSecretInTheConnectionsUrl() throws Exception {
    RemoteConnectionProperties p = RemoteConnectionProperties.parse("url=http://u:pw1@db:8765;"
        + "user=alice;password=pw2;truststore=/t.p12;truststore_password=pw3", new Properties());
    String shown = p.redactedUrl();
    for (String secret : new String[] {"pw1", "pw2", "pw3"}) {
      assertFalse(shown.contains(secret), shown);
    }
    assertEquals("http://db:8765", p.serverUrl());
  }

  @Test void shouldRefuseAUrlWithoutServerAndAMalformedOneWithoutQuotingIt() {
    SQLException missing = assertThrows(SQLException.class,
        () -> DriverManager.getConnection("jdbc:freshet:remote:user=alice"));
    assertEquals("08001", missing.getSQLState());
    assertEquals("jdbc:freshet:remote: needs the server's address, e.g."
        + " jdbc:freshet:remote:url=http://localhost:8765", missing.getMessage());

    SQLException malformed = assertThrows(SQLException.class, () -> DriverManager.getConnection(
        "jdbc:freshet:remote:url=http://db:8765;password='secret"));
    assertEquals("08001", malformed.getSQLState());
    assertFalse(malformed.getMessage().contains("secret"), malformed.getMessage());
  }

  @Test void shouldSayThatNoServerListensOnAClosedPort() throws Exception {
    int port;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection(
        "jdbc:freshet:remote:url=http://127.0.0.1:" + port));
    assertEquals("08001", e.getSQLState());
    assertEquals("Cannot connect to http://127.0.0.1:" + port + ": nothing accepts connections"
        + " there. Start the server with: freshet serve", e.getMessage());
  }
}
