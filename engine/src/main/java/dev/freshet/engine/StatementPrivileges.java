package dev.freshet.engine;

import dev.freshet.engine.security.PrivilegeErrors;
import dev.freshet.engine.security.AccessControl;
import dev.freshet.engine.security.ObjectReferences;
import dev.freshet.engine.security.Principal;
import dev.freshet.engine.security.Privilege;
import dev.freshet.sql.parser.SqlCreateSink;
import dev.freshet.sql.parser.SqlCreateStream;
import dev.freshet.sql.parser.SqlCreateTable;
import dev.freshet.sql.parser.SqlDropSink;
import dev.freshet.sql.parser.SqlDropStream;
import dev.freshet.sql.parser.SqlWithOptions;
import dev.freshet.sql.parser.WithOption;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.sql.SqlDescribeTable;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.ddl.SqlCreateMaterializedView;
import org.apache.calcite.sql.ddl.SqlDropMaterializedView;
import org.apache.calcite.sql.ddl.SqlDropTable;

/**
 * Whether a session's user may run a statement, decided before anything of it runs: reading
 * needs {@code SELECT} on every object read (a view's owner needs it on what the view reads),
 * writing needs {@code INSERT}, dropping needs ownership, and a connector that reaches outside
 * the server needs the administrator role or {@code CREATE CONNECTOR}. Administrators pass.
 *
 * <pre>{@code
 * StatementPrivileges.check(engine, alice, parse("SELECT * FROM totals"));   // 42501 or passes
 * }</pre>
 *
 * <p>{@code STOP QUERY}, {@code GRANT} and {@code REVOKE} check ownership where they find their
 * object; listings ({@code SHOW}, {@code sys}, metadata) show each user what it may see.
 */
final class StatementPrivileges {
  private StatementPrivileges() {
  }

  /**
   * Passes if {@code user} may run {@code node}.
   *
   * @throws SQLException 42501 naming the object and the privilege missing
   */
  static void check(Engine engine, Principal user, SqlNode node) throws SQLException {
    if (user.admin()) {
      return;
    }
    AccessControl access = engine.access();
    // Every name is resolved against one listing of the catalog, taken once per statement.
    List<String> objects = engine.objectNames();
    if (node instanceof SqlCreateStream create) {
      StreamConnector connector = StreamConnector.of(StreamDdl.simpleName(create.name()),
          literalOptions(create));
      if (connector.external()) {
        access.checkCreateConnector(user, "a stream", connector.text());
      }
      return;
    }
    if (node instanceof SqlCreateTable create) {
      Optional<String> connector = Optional.ofNullable(literalOptions(create).get("connector"));
      if (connector.isPresent()) {
        access.checkCreateConnector(user, "a table", connector.get());
      }
      return;
    }
    if (node instanceof SqlCreateSink create) {
      access.checkCreateConnector(user, "a sink", literalOptions(create)
          .getOrDefault("connector", "(none)"));
      reads(access, user, ObjectReferences.of(create), objects);
      return;
    }
    if (node instanceof SqlCreateMaterializedView create) {
      reads(access, user, ObjectReferences.of(create.query), objects);
      return;
    }
    Optional<SqlIdentifier> dropped = dropped(node);
    if (dropped.isPresent()) {
      String written = StreamDdl.simpleName(dropped.get());
      for (String name : ObjectReferences.matching(written, objects)) {
        access.checkOwner(user, name, "DROP");
      }
      if (access.recorded(written)) {
        // Recorded, but not declared again at start: still its owner's to drop.
        access.checkOwner(user, written, "DROP");
      }
      return;
    }
    if (node instanceof SqlDescribeTable describe) {
      String described = StreamDdl.simpleName(describe.getTable());
      for (String name : ObjectReferences.matching(described, objects)) {
        if (!access.canSee(user, name)) {
          throw PrivilegeErrors.denied(user, engine.objectKind(name), name, Privilege.SELECT,
              access.owner(name));
        }
      }
      return;
    }
    if (node instanceof SqlExplain explain) {
      SqlNode explained = explain.getExplicandum();
      reads(access, user, ObjectReferences.of(explained instanceof SqlCreateMaterializedView view
          ? view.query : explained), objects);
      return;
    }
    ObjectReferences refs = ObjectReferences.of(node);
    if (refs.written() != null) {
      for (String name : ObjectReferences.matching(refs.written(), objects)) {
        access.check(user, name, Privilege.INSERT);
      }
    }
    reads(access, user, refs, objects);
  }

  /** The objects a push or pull query over {@code node} reads, as the catalog names them. */
  static java.util.Set<String> reads(Engine engine, SqlNode node) {
    List<String> objects = engine.objectNames();
    java.util.Set<String> names = new java.util.TreeSet<>();
    for (String read : ObjectReferences.of(node).reads()) {
      names.addAll(ObjectReferences.matching(read, objects));
    }
    return names;
  }

  /**
   * Passes if {@code user} may read everything {@code refs} reads: what a prepared plain query
   * checks at each execution, from the references found when it was prepared.
   *
   * @throws SQLException 42501 naming the first object it may not read
   */
  static void checkReads(Engine engine, Principal user, ObjectReferences refs)
      throws SQLException {
    if (!user.admin()) {
      reads(engine.access(), user, refs, engine.objectNames());
    }
  }

  private static void reads(AccessControl access, Principal user, ObjectReferences refs,
      List<String> objects) throws SQLException {
    for (String read : refs.reads()) {
      for (String name : ObjectReferences.matching(read, objects)) {
        access.check(user, name, Privilege.SELECT);
      }
    }
  }

  /** The name a {@code CREATE} statement creates, as the catalog will hold it. */
  static Optional<String> createdName(SqlNode node) {
    SqlIdentifier name = node instanceof SqlCreateStream create ? create.name()
        : node instanceof SqlCreateTable create ? create.name()
        : node instanceof SqlCreateSink create ? create.name()
        : node instanceof SqlCreateMaterializedView create ? create.name : null;
    return Optional.ofNullable(name).map(StreamDdl::simpleName);
  }

  /** The name a {@code DROP} statement drops, as written. */
  static Optional<String> droppedName(SqlNode node) {
    return dropped(node).map(StreamDdl::simpleName);
  }

  private static Optional<SqlIdentifier> dropped(SqlNode node) {
    if (node instanceof SqlDropStream drop) {
      return Optional.of(drop.name());
    }
    if (node instanceof SqlDropSink drop) {
      return Optional.of(drop.name());
    }
    if (node instanceof SqlDropMaterializedView drop) {
      return Optional.of(drop.name);
    }
    if (node instanceof SqlDropTable drop) {
      return Optional.of(drop.name);
    }
    return Optional.empty();
  }

  /**
   * The options written as strings, keys in lower case: what says which connector a statement
   * uses ({@code SECRET name} values are the secrets' business, not read here).
   */
  private static Map<String, String> literalOptions(SqlWithOptions statement) {
    Map<String, String> options = new java.util.LinkedHashMap<>();
    for (WithOption option : statement.optionEntries()) {
      option.literal().ifPresent(v -> options.put(option.key().toLowerCase(Locale.ROOT), v));
    }
    return options;
  }
}
