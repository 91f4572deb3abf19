package dev.freshet.engine;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.CatalogErrors;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.query.ResultColumn;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.engine.security.AccessControl;
import dev.freshet.engine.security.Grant;
import dev.freshet.engine.security.ObjectReferences;
import dev.freshet.engine.security.Principal;
import dev.freshet.engine.security.Privilege;
import dev.freshet.sql.parser.SqlGrant;
import dev.freshet.sql.parser.SqlShowGrants;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code GRANT}, {@code REVOKE} and {@code SHOW GRANTS}, run against the engine's
 * {@link AccessControl}.
 *
 * <pre>{@code
 * Grants.execute(engine, alice, (SqlGrant) parse("GRANT SELECT ON totals TO bob"));
 * Grants.show(engine, bob, (SqlShowGrants) parse("SHOW GRANTS ON totals"));
 * }</pre>
 */
final class Grants {
  /** The columns of {@code SHOW GRANTS} and {@code sys.privileges}. */
  static final List<ResultColumn> COLUMNS = List.of(ResultColumn.varchar("OBJECT_NAME", 128),
      ResultColumn.varchar("OBJECT_TYPE", 32), ResultColumn.varchar("GRANTEE", 128),
      ResultColumn.varchar("PRIVILEGE", 32), ResultColumn.varchar("GRANTOR", 128));

  private Grants() {
  }

  /**
   * Runs a {@code GRANT} or {@code REVOKE} as {@code user}.
   *
   * @throws SQLException 42501 unless {@code user} owns the object or administers (for
   *     {@code CREATE CONNECTOR}: administers); 42S02 if no object has the name; 42809 if the
   *     statement names another kind than the object's
   */
  static void execute(Engine engine, Principal user, SqlGrant grant) throws SQLException {
    AccessControl access = engine.access();
    String grantee = grant.grantee() == null ? Grant.PUBLIC
        : Principal.key(grant.grantee().getSimple());
    if (grant.isCreateConnector()) {
      if (grant.isGrant()) {
        access.grantCreateConnector(user, grantee);
      } else {
        access.revokeCreateConnector(user, grantee);
      }
      return;
    }
    String object = object(engine, grant);
    Set<Privilege> privileges = EnumSet.noneOf(Privilege.class);
    for (String privilege : grant.privileges()) {
      if (privilege.equals("ALL")) {
        privileges.addAll(EnumSet.allOf(Privilege.class));
      } else {
        privileges.add(Privilege.valueOf(privilege));
      }
    }
    if (grant.isGrant()) {
      access.grant(user, object, privileges, grantee);
    } else {
      access.revoke(user, object, privileges, grantee);
    }
  }

  /** The object a grant names, as the catalog names it, checked against the kind it says. */
  private static String object(Engine engine, SqlGrant grant) throws SQLException {
    String written = StreamDdl.simpleName(grant.object());
    List<String> names = ObjectReferences.matching(written, engine.objectNames());
    String name = names.contains(written) ? written : names.isEmpty() ? null : names.get(0);
    if (name == null) {
      throw CatalogErrors.objectNotFound(written);
    }
    String kind = engine.objectKind(name);
    String said = switch (grant.kind()) {
      case ANY -> kind;
      case STREAM -> "stream";
      case TABLE -> "table";
      case MATERIALIZED_VIEW -> "materialized view";
    };
    if (!said.equals(kind)) {
      throw Errors.of(SqlState.WRONG_OBJECT_TYPE, name + " is a " + kind + ", not a " + said
          + ". Write GRANT ... ON " + (kind.equals("sink") ? "" : kind.toUpperCase(
              java.util.Locale.ROOT) + " ") + name + ", or leave the kind out");
    }
    return name;
  }

  /** {@code SHOW GRANTS [ON name]}: the grants {@code user} may see. */
  static StatementResult show(Engine engine, Principal user, SqlShowGrants show)
      throws SQLException {
    Optional<String> object = Optional.empty();
    if (show.object() != null) {
      String written = StreamDdl.simpleName(show.object());
      List<String> names = ObjectReferences.matching(written, engine.objectNames());
      if (names.isEmpty()) {
        throw CatalogErrors.objectNotFound(written);
      }
      object = Optional.of(names.contains(written) ? written : names.get(0));
    }
    return new StatementResult.Rows(COLUMNS, rows(engine, user, object));
  }

  /** The rows of {@code SHOW GRANTS} and {@code sys.privileges} that {@code user} may see. */
  static List<Object[]> rows(Engine engine, Principal user, Optional<String> object) {
    List<Object[]> rows = new ArrayList<>();
    for (Grant grant : engine.access().grants(user, object, engine.objectNames())) {
      rows.add(new Object[] {grant.object(), grant.object() == null ? null
          : engine.objectKind(grant.object()).toUpperCase(java.util.Locale.ROOT),
          grant.grantee(), grant.privilege(), grant.grantor()});
    }
    return rows;
  }
}
