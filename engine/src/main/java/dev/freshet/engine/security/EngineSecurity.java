package dev.freshet.engine.security;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Optional;

/**
 * What the operator decided about an engine's security: where its connectors may reach, where
 * the key that encrypts its secrets is, where its audit log goes.
 *
 * <pre>{@code
 * new Engine("server", dataDir, budget, viewEngines, new EngineSecurity(
 *     ConnectorPolicy.restricted(List.of(Path.of("/srv/data"))),
 *     Optional.of(Path.of("/etc/freshet/secrets.key")), Optional.of(Path.of("audit.jsonl"))));
 * }</pre>
 *
 * @param connectors where connectors may reach
 * @param secretsKeyFile the file of the key that encrypts stored secrets, outside the data
 *     directory; without it secrets are stored unencrypted in a file only the server's user reads
 * @param auditLog the file that records, as JSON lines, who ran which DDL, GRANT, STOP and every
 *     refusal
 */
public record EngineSecurity(ConnectorPolicy connectors, Optional<Path> secretsKeyFile,
    Optional<Path> auditLog) {
  /** An embedded engine's: trusted connectors, secrets unencrypted, no audit log. */
  public static final EngineSecurity EMBEDDED = new EngineSecurity(ConnectorPolicy.unrestricted(),
      Optional.empty(), Optional.empty());

  public EngineSecurity {
    requireNonNull(connectors, "connectors");
    requireNonNull(secretsKeyFile, "secretsKeyFile");
    requireNonNull(auditLog, "auditLog");
  }
}
