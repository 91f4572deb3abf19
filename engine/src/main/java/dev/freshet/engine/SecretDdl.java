package dev.freshet.engine;

import dev.freshet.engine.query.ResultColumn;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.engine.security.Principal;
import dev.freshet.engine.security.SecretStore;
import dev.freshet.sql.parser.SqlCreateSecret;
import dev.freshet.sql.parser.SqlDropSecret;
import dev.freshet.sql.parser.SqlShowSecrets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.sql.SqlNode;

/**
 * Executes {@code CREATE SECRET}, {@code DROP SECRET} and {@code SHOW SECRETS} for a user.
 *
 * <pre>{@code
 * CREATE SECRET pg_pass AS 'hunter2'   -- any user; the secret is theirs
 * DROP SECRET pg_pass                  -- its owner or an administrator, once nothing uses it
 * SHOW SECRETS                         -- names, owners and users; never a value
 * }</pre>
 */
final class SecretDdl {
  private SecretDdl() {
  }

  /** The result of {@code node} if it is a statement about secrets; else empty. */
  static Optional<StatementResult> execute(Engine engine, Principal principal, SqlNode node)
      throws SQLException {
    SecretStore secrets = engine.secrets();
    if (node instanceof SqlCreateSecret create) {
      secrets.create(principal, create.name().getSimple(), create.value(), create.ifNotExists());
      return Optional.of(new StatementResult.UpdateCount(0));
    }
    if (node instanceof SqlDropSecret drop) {
      secrets.drop(principal, drop.name().getSimple(), drop.ifExists());
      return Optional.of(new StatementResult.UpdateCount(0));
    }
    if (node instanceof SqlShowSecrets) {
      List<Object[]> rows = new ArrayList<>();
      for (SecretStore.Listed secret : secrets.list(principal)) {
        rows.add(new Object[] {secret.name(), secret.owner(),
            secret.usedBy().isEmpty() ? null : String.join(", ", secret.usedBy())});
      }
      return Optional.of(new StatementResult.Rows(List.of(ResultColumn.varchar("SECRET_NAME", 128),
          ResultColumn.varchar("OWNER", 128), ResultColumn.varchar("USED_BY", 4096)), rows));
    }
    return Optional.empty();
  }
}
