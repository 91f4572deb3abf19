package dev.freshet.server;

import dev.freshet.server.FreshetServer.Authentication;
import java.nio.file.Path;

/**
 * Child process of {@link SecretRedactionTest#shouldNeverLogASecret}: with the loggers at their
 * most verbose, it runs {@link SecretSession}'s script against a server with Basic
 * authentication, a data directory and a web UI port, and prints what the server answered.
 *
 * <p>Arguments: the users file, the data directory.
 */
final class SecretLogProbe {
  private SecretLogProbe() {
  }

  public static void main(String[] args) throws Exception {
    try (SecretSession session = SecretSession.start();
         FreshetServer server = FreshetServer.builder().port(0).uiPort(0)
             .authentication(Authentication.BASIC, Path.of(args[0]))
             .dataDir(Path.of(args[1])).start()) {
      for (String output : session.run(server)) {
        System.out.println(output);
      }
    }
    System.out.println(SecretSession.DONE);
  }
}
