package dev.freshet.server;

import dev.freshet.engine.security.Principal;
import dev.freshet.pgwire.auth.PgAuthenticator;
import dev.freshet.pgwire.auth.PgUser;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Optional;
import org.eclipse.jetty.security.PropertyUserStore;
import org.eclipse.jetty.server.UserIdentity;
import org.eclipse.jetty.util.security.Credential;
import org.eclipse.jetty.util.security.Password;

/**
 * The users of the server's users file (Jetty's {@code user: password[,role...]}) as the
 * PostgreSQL endpoint authenticates them: a password written in plain text (or Jetty's
 * reversible {@code OBF:}) proves itself by SCRAM-SHA-256; a hashed one ({@code MD5:},
 * {@code CRYPT:}) only as a cleartext password, which Jetty's credential checks, over TLS.
 *
 * <pre>{@code
 * PgAuthenticator users = PgUsersFile.authenticator(Path.of("users.properties"), "**", "admin");
 * }</pre>
 *
 * <p>The same rules as the JDBC port: only users with {@code role} connect ({@code **}: any user
 * of the file), and users with {@code adminRole} administer the engine.
 */
final class PgUsersFile {
  private PgUsersFile() {
  }

  /**
   * The users of {@code usersFile}.
   *
   * @throws IllegalArgumentException if the file cannot be read
   */
  static PgAuthenticator authenticator(Path usersFile, String role, String adminRole) {
    PropertyUserStore store = new PropertyUserStore();
    store.setConfigPath(usersFile);
    try {
      store.start();
    } catch (Exception e) {
      throw new IllegalArgumentException("Cannot read the users file " + usersFile
          + "; it holds lines 'user: password[,role]'", e);
    }
    return PgAuthenticator.users(name -> {
      UserIdentity identity = store.getUserIdentity(name);
      if (identity == null || !(FreshetServer.ANY_AUTHENTICATED_USER.equals(role)
          || identity.isUserInRole(role, null))) {
        return Optional.empty();
      }
      Iterator<Credential> credentials = identity.getSubject()
          .getPrivateCredentials(Credential.class).iterator();
      if (!credentials.hasNext()) {
        return Optional.empty();
      }
      Credential credential = credentials.next();
      Principal principal = Principal.user(name, identity.isUserInRole(adminRole, null));
      // Jetty's Password holds the password itself (OBF: is undone when it is read).
      return Optional.of(credential instanceof Password password
          ? PgUser.plain(principal, password.toString())
          : PgUser.checked(principal, credential::check));
    });
  }
}
