package dev.freshet.jdbc.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** The errors the driver makes of HTTP statuses say what each may mean and what to change. */
class RemoteErrorsTest {
  /** Avatica's HTTP client reports a status it does not read this way. */
  private static RuntimeException status(int status) {
    return new RuntimeException("Failed to execute HTTP Request, got HTTP/" + status);
  }

  @Test void shouldNameBothCausesOfA403() {
    SQLException e = RemoteErrors.cannotConnect("http://db.example:8765", status(403));
    assertEquals("28000", e.getSQLState());
    assertEquals("Cannot connect to http://db.example:8765: HTTP 403 Forbidden. The user is"
        + " known but lacks the role the server requires; or the server has no authentication"
        + " and the URL names a host other than localhost, 127.0.0.1 or [::1] (which it"
        + " refuses, as a web page could point its own name at that machine)", e.getMessage());
  }
}
