package dev.freshet.engine.security;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.push.PushQuery;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Who owns each stream, table, view and sink, and what others were granted on it: the engine's
 * answer to "may this user do that", with PostgreSQL's rules. An object's owner (its creator) and
 * administrators may do everything with it; others need {@code GRANT SELECT} to read it and
 * {@code GRANT INSERT} to add rows, to them or to {@code PUBLIC}; only the owner or an
 * administrator may drop it, stop its query, or grant on it.
 *
 * <pre>{@code
 * access.created("TOTALS", alice);
 * access.check(bob, "TOTALS", Privilege.SELECT);        // 42501
 * access.grant(alice, "TOTALS", Set.of(Privilege.SELECT), "BOB");
 * access.check(bob, "TOTALS", Privilege.SELECT);        // passes
 * }</pre>
 *
 * <p>Checks read concurrent maps and take no lock; changes are serialized and written through to
 * the {@link PrivilegeRows} before they take effect, so that a grant the caller was told of
 * survives a crash. Revoking {@code SELECT} ends the push results the grantee has open on the
 * object with the refusal ({@link #watch}).
 */
public final class AccessControl {
  private final PrivilegeRows store;
  /** The kind of each object, for messages: {@code stream}, {@code materialized view}, ... */
  private final Function<String, String> kinds;
  /** Object name to its owner's {@link Principal#key}. */
  private final Map<String, String> owners = new ConcurrentHashMap<>();
  /** Every grant, {@code OWNER} rows excepted, by what it grants. */
  private final Map<GrantKey, Grant> grants = new ConcurrentHashMap<>();
  /** The open push results, by query id: who reads what, to end them if a grant goes. */
  private final Map<String, Watch> watches = new ConcurrentHashMap<>();

  private record GrantKey(String object, String grantee, String privilege) {
  }

  private record Watch(Principal user, Set<String> reads, PushQuery push) {
  }

  /**
   * Creates the engine's access control, loading what {@code store} holds.
   *
   * @param kinds the kind of an object by name, for messages ({@code stream}, {@code table},
   *     {@code materialized view}, {@code sink})
   */
  public AccessControl(PrivilegeRows store, Function<String, String> kinds)
      throws SQLException {
    this.store = requireNonNull(store, "store");
    this.kinds = requireNonNull(kinds, "kinds");
    owners.putAll(store.owners());
    for (Grant grant : store.grants()) {
      grants.put(key(grant), grant);
    }
  }

  /**
   * Records {@code owner} as the owner of the object just created, unless an owner is recorded
   * (a restarted engine declaring its catalog again).
   */
  public synchronized void created(String object, Principal owner) throws SQLException {
    if (!owners.containsKey(object)) {
      store.owner(object, owner.key());
      owners.put(object, owner.key());
    }
  }

  /** Forgets the owner of and the grants on an object that was dropped. */
  public synchronized void dropped(String object) throws SQLException {
    store.dropped(object);
    owners.remove(object);
    grants.keySet().removeIf(k -> k.object().equals(object));
  }

  /**
   * The owner of {@code object}, as matched ({@link Principal#key}); an object created before
   * owners were recorded belongs to the process's administrator.
   */
  public String owner(String object) {
    return owners.getOrDefault(object, Principal.LOCAL.key());
  }

  /** Whether an owner of {@code object} is recorded. */
  public boolean recorded(String object) {
    return owners.containsKey(object);
  }

  /** Whether {@code user} owns {@code object} or administers the engine. */
  public boolean owns(Principal user, String object) {
    return user.admin() || owner(object).equals(user.key());
  }

  /** Whether {@code user} may do {@code privilege} with {@code object}. */
  public boolean has(Principal user, String object, Privilege privilege) {
    return owns(user, object)
        || grants.containsKey(new GrantKey(object, user.key(), privilege.name()))
        || grants.containsKey(new GrantKey(object, Grant.PUBLIC, privilege.name()));
  }

  /** Whether {@code object} shows in {@code user}'s listings: owned, or any privilege on it. */
  public boolean canSee(Principal user, String object) {
    for (Privilege privilege : Privilege.values()) {
      if (has(user, object, privilege)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Passes if {@code user} may do {@code privilege} with {@code object}.
   *
   * @throws SQLException 42501 naming the object, the privilege and who can grant it
   */
  public void check(Principal user, String object, Privilege privilege) throws SQLException {
    if (!has(user, object, privilege)) {
      throw PrivilegeErrors.denied(user, kinds.apply(object), object, privilege, owner(object));
    }
  }

  /**
   * Passes if {@code user} owns {@code object} or administers the engine.
   *
   * @param action what the statement does, e.g. {@code DROP}
   * @throws SQLException 42501 naming the object and its owner
   */
  public void checkOwner(Principal user, String object, String action) throws SQLException {
    if (!owns(user, object)) {
      throw PrivilegeErrors.notOwner(user, action, kinds.apply(object), object, owner(object));
    }
  }

  /** Whether {@code user} may create objects with a connector that reaches outside. */
  public boolean mayCreateConnector(Principal user) {
    return user.admin()
        || grants.containsKey(new GrantKey("", user.key(), Grant.CREATE_CONNECTOR))
        || grants.containsKey(new GrantKey("", Grant.PUBLIC, Grant.CREATE_CONNECTOR));
  }

  /**
   * Passes if {@code user} may create {@code what} (e.g. {@code a stream}) with
   * {@code connector}, which reaches outside the server.
   *
   * @throws SQLException 42501 naming the connector and the grant that would allow it
   */
  public void checkCreateConnector(Principal user, String what, String connector)
      throws SQLException {
    if (!mayCreateConnector(user)) {
      throw PrivilegeErrors.connectorDenied(user, what, connector);
    }
  }

  /**
   * Grants {@code privileges} on {@code object} to {@code grantee} (a {@link Principal#key} or
   * {@link Grant#PUBLIC}), as {@code by}, who must own it or administer.
   */
  public synchronized void grant(Principal by, String object, Set<Privilege> privileges,
      String grantee) throws SQLException {
    checkOwner(by, object, "GRANT on");
    for (Privilege privilege : privileges) {
      apply(new Grant(object, grantee, privilege.name(), by.key()), true);
    }
  }

  /**
   * Revokes {@code privileges} on {@code object} from {@code grantee}, as {@code by}, who must
   * own it or administer; push results that lose their read end with 42501.
   */
  public synchronized void revoke(Principal by, String object, Set<Privilege> privileges,
      String grantee) throws SQLException {
    checkOwner(by, object, "REVOKE on");
    for (Privilege privilege : privileges) {
      apply(new Grant(object, grantee, privilege.name(), by.key()), false);
    }
    if (privileges.contains(Privilege.SELECT)) {
      endReadsLost(object);
    }
  }

  /** Grants the right to create objects with external connectors; administrators only. */
  public void grantCreateConnector(Principal by, String grantee) throws SQLException {
    changeCreateConnector(by, grantee, true);
  }

  /** Revokes the right to create objects with external connectors; administrators only. */
  public void revokeCreateConnector(Principal by, String grantee) throws SQLException {
    changeCreateConnector(by, grantee, false);
  }

  private synchronized void changeCreateConnector(Principal by, String grantee, boolean grant)
      throws SQLException {
    if (!by.admin()) {
      throw PrivilegeErrors.adminOnly(by, (grant ? "GRANT" : "REVOKE") + " CREATE CONNECTOR");
    }
    apply(new Grant(null, grantee, Grant.CREATE_CONNECTOR, by.key()), grant);
  }

  /**
   * The grants {@code viewer} may see, with one {@code OWNER} row per object: on the objects
   * it can see ({@link #canSee}), or on {@code object} only; sorted by object, grantee and
   * privilege. The {@code CREATE CONNECTOR} grants show to administrators and their grantees.
   */
  public List<Grant> grants(Principal viewer, Optional<String> object,
      List<String> objects) {
    List<Grant> rows = new ArrayList<>();
    for (String name : objects) {
      if (object.isPresent() && !object.get().equals(name) || !canSee(viewer, name)) {
        continue;
      }
      String owner = owner(name);
      rows.add(new Grant(name, owner, Grant.OWNER, owner));
    }
    for (Grant grant : grants.values()) {
      boolean onObject = grant.object() != null && objects.contains(grant.object())
          && object.map(grant.object()::equals).orElse(true) && canSee(viewer, grant.object());
      boolean connector = grant.object() == null && object.isEmpty()
          && (viewer.admin() || grant.grantee().equals(viewer.key())
          || grant.grantee().equals(Grant.PUBLIC));
      if (onObject || connector) {
        rows.add(grant);
      }
    }
    rows.sort(Comparator.comparing((Grant g) -> g.object() == null ? "" : g.object())
        .thenComparing(Grant::grantee).thenComparing(Grant::privilege));
    return rows;
  }

  /**
   * Watches a push result {@code user} opened over {@code reads}: if {@code user} loses
   * {@code SELECT} on one of them, the result ends with 42501. Forgotten once it is closed.
   */
  public void watch(String queryId, Principal user, Set<String> reads, PushQuery push) {
    watches.values().removeIf(w -> w.push().isClosed());
    watches.put(queryId, new Watch(user, Set.copyOf(reads), push));
  }

  /** Who opened the push query {@code queryId}, while its result is open. */
  public Optional<Principal> pushOwner(String queryId) {
    Watch watch = watches.get(queryId);
    return watch == null || watch.push().isClosed() ? Optional.empty()
        : Optional.of(watch.user());
  }

  private void endReadsLost(String object) {
    for (Map.Entry<String, Watch> entry : watches.entrySet()) {
      Watch watch = entry.getValue();
      if (watch.push().isClosed()) {
        watches.remove(entry.getKey(), watch);
      } else if (watch.reads().contains(object) && !has(watch.user(), object, Privilege.SELECT)) {
        watch.push().revoke(PrivilegeErrors.denied(watch.user(), kinds.apply(object), object,
            Privilege.SELECT, owner(object)));
        watches.remove(entry.getKey(), watch);
      }
    }
  }

  /** Records {@code grant}, or forgets it, durably and then in memory; under the monitor. */
  private void apply(Grant grant, boolean granted) throws SQLException {
    if (granted) {
      store.grant(grant);
      grants.put(key(grant), grant);
    } else {
      store.revoke(grant);
      grants.remove(key(grant));
    }
  }

  private static GrantKey key(Grant grant) {
    return new GrantKey(grant.object() == null ? "" : grant.object(), grant.grantee(),
        grant.privilege());
  }
}
