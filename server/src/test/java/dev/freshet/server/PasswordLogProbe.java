package dev.freshet.server;

import dev.freshet.server.FreshetServer.Authentication;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Child process of {@link RemoteAuthenticationTest#shouldNeverLogThePassword}: with every logger at
 * its most verbose, it runs servers with Basic and Digest authentication and connects to them
 * with the right password, a wrong one and none, through Freshet's and Avatica's drivers.
 */
final class PasswordLogProbe {
  static final String DONE = "probe done";

  private PasswordLogProbe() {
  }

  public static void main(String[] args) throws Exception {
    Path users = Path.of(args[0]);
    String user = RemoteAuthenticationTest.USER;
    String password = RemoteAuthenticationTest.PASSWORD;
    for (Authentication authentication : new Authentication[] {Authentication.BASIC,
        Authentication.DIGEST}) {
      try (FreshetServer server = FreshetServer.builder().port(0)
          .authentication(authentication, users).start()) {
        String url = "jdbc:freshet:remote:url=" + server.url() + ";authentication="
            + authentication;
        try (Connection c = DriverManager.getConnection(url + ";user=" + user + ";password="
            + password); Statement s = c.createStatement()) {
          s.execute("CREATE STREAM clicks (user_id VARCHAR)");
          s.executeUpdate("INSERT INTO clicks VALUES ('a')");
          s.executeQuery("SELECT * FROM clicks").close();
        }
        try (Connection c = DriverManager.getConnection("jdbc:avatica:remote:url="
            + server.url() + ";serialization=PROTOBUF;authentication=" + authentication
            + ";avatica_user=" + user + ";avatica_password=" + password)) {
          c.createStatement().executeQuery("SELECT * FROM clicks").close();
        }
        refused(() -> DriverManager.getConnection(url, user, "x" + password));
        refused(() -> DriverManager.getConnection(url));
      }
    }
    System.out.println(DONE);
  }

  /** A connection attempt that must fail; what it throws is printed, as an application might. */
  private interface Attempt {
    Connection connect() throws SQLException;
  }

  private static void refused(Attempt attempt) {
    try {
      attempt.connect().close();
      throw new IllegalStateException("connected without the right password");
    } catch (SQLException e) {
      e.printStackTrace(System.out);
    }
  }
}
