package dev.freshet.engine.security;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.security.SensitiveOptions;
import dev.freshet.engine.errors.SecretErrors;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The engine's secrets: values such as passwords, stored once under a name by
 * {@code CREATE SECRET name AS 'value'} and used by {@code WITH} options written
 * {@code SECRET name}, and never shown again.
 *
 * <pre>{@code
 * secrets.create(alice, "PG_PASS", "hunter2", false);
 * secrets.value(alice, "PG_PASS");            // "hunter2", for the connector being opened
 * secrets.value(bob, "PG_PASS");              // 42501: only the owner or an administrator
 * secrets.drop(alice, "PG_PASS", false);      // 2BP01 while a sink uses it
 * }</pre>
 *
 * <p>A secret belongs to its creator ({@link Principal#key()}); only its owner or an
 * administrator may use it in a statement or drop it. An anonymous secret is one that a
 * {@code WITH} clause gave as a string for a sensitive key ({@link SensitiveOptions}): it is
 * named {@code object$key}, belongs to the statement's user, and goes when its object is
 * dropped. A secret that a stream, table or sink uses cannot be dropped.
 *
 * <p>The values are kept in the engine's database ({@link SecretRows}), in a file only the
 * server's user reads; with a {@link SecretsKey} each is encrypted with it. A value's bytes are
 * a format byte ({@code 0} plain UTF-8, {@code 1} sealed by the key), then the value. Opening
 * the store checks that every value opens with the key given, and encrypts values stored before
 * there was a key.
 */
public final class SecretStore {
  private static final byte PLAIN = 0;
  private static final byte SEALED = 1;
  /** What no name the user gives contains, and every anonymous secret's name does. */
  private static final String ANONYMOUS_SEPARATOR = "$";

  private final SecretRows table;
  private final Optional<SecretsKey> key;
  /** The secrets each stream, table and sink uses, by the object's name; guarded by this. */
  private final Map<String, Set<String>> uses = new HashMap<>();

  private SecretStore(SecretRows table, Optional<SecretsKey> key) {
    this.table = requireNonNull(table, "table");
    this.key = requireNonNull(key, "key");
  }

  /**
   * Opens the secrets in {@code table}, checking that each opens with {@code key} and
   * encrypting those stored without one.
   *
   * @param where the database, for messages
   * @throws IllegalStateException if some are encrypted and no key is given, or another key
   *     sealed them; the message says which file to give
   * @throws SQLException if the database fails
   */
  public static SecretStore open(SecretRows table, Optional<SecretsKey> key, String where)
      throws SQLException {
    SecretStore store = new SecretStore(table, key);
    for (SecretRows.Row row : table.all()) {
      byte[] value = store.plain(row, where);
      if (key.isPresent() && (row.value().length == 0 || row.value()[0] == PLAIN)) {
        table.put(new SecretRows.Row(row.name(), row.owner(), row.object(),
            store.stored(row.name(), value)));
      }
      Arrays.fill(value, (byte) 0);
    }
    return store;
  }

  /**
   * Stores {@code value} as secret {@code name} of {@code owner}.
   *
   * @throws SQLException 42S01 if the name is taken (unless {@code ifNotExists}); 42000 if it
   *     contains {@code $}
   */
  public synchronized void create(Principal owner, String name, String value,
      boolean ifNotExists) throws SQLException {
    if (name.contains(ANONYMOUS_SEPARATOR)) {
      throw SecretErrors.reservedName(name);
    }
    boolean created = table.insert(new SecretRows.Row(name, owner.key(), Optional.empty(),
        stored(name, value.getBytes(StandardCharsets.UTF_8))));
    if (!created && !ifNotExists) {
      throw SecretErrors.exists(name);
    }
  }

  /**
   * Drops secret {@code name}.
   *
   * @throws SQLException 42704 if there is none (unless {@code ifExists}); 42501 if
   *     {@code principal} neither owns it nor administers; 2BP01 if an object uses it
   */
  public synchronized void drop(Principal principal, String name, boolean ifExists)
      throws SQLException {
    Optional<SecretRows.Row> row = table.get(name);
    if (row.isEmpty()) {
      if (ifExists) {
        return;
      }
      throw SecretErrors.notFound(name);
    }
    checkOwner(principal, row.get(), "drop");
    List<String> users = usersOf(name);
    if (!users.isEmpty()) {
      throw SecretErrors.inUse(name, users);
    }
    table.delete(name);
  }

  /**
   * The value of secret {@code name}, for a statement of {@code principal} that uses it.
   *
   * @throws SQLException 42704 if there is none; 42501 if {@code principal} neither owns it nor
   *     administers
   */
  public synchronized String value(Principal principal, String name) throws SQLException {
    SecretRows.Row row = table.get(name).orElseThrow(() -> SecretErrors.notFound(name));
    checkOwner(principal, row, "use");
    return new String(plain(row, "the engine's database"), StandardCharsets.UTF_8);
  }

  /**
   * Stores {@code value} as the anonymous secret {@code name} of {@code object}, owned by
   * {@code owner}, replacing one an earlier attempt left.
   */
  public synchronized void keepAnonymous(Principal owner, String object, String name,
      String value) throws SQLException {
    table.put(new SecretRows.Row(name, owner.key(), Optional.of(object),
        stored(name, value.getBytes(StandardCharsets.UTF_8))));
  }

  /**
   * Records that {@code object} uses the secrets {@code names}, which then cannot be dropped
   * until it is.
   *
   * @throws SQLException 42704 if one of them was dropped meanwhile
   */
  public synchronized void use(String object, Collection<String> names) throws SQLException {
    for (String name : names) {
      if (table.get(name).isEmpty()) {
        throw SecretErrors.notFound(name);
      }
    }
    if (names.isEmpty()) {
      uses.remove(object);
    } else {
      uses.put(object, Set.copyOf(names));
    }
  }

  /** Forgets what {@code object} used, and drops its anonymous secrets: it was dropped. */
  public synchronized void dropped(String object) throws SQLException {
    uses.remove(object);
    table.deleteOf(object);
  }

  /**
   * One secret as {@code SHOW SECRETS} lists it.
   *
   * @param name its name
   * @param owner its owner's user key
   * @param usedBy the streams, tables and sinks that use it, sorted
   */
  public record Listed(String name, String owner, List<String> usedBy) {
  }

  /** The secrets {@code principal} may see, by name: its own, or all for an administrator. */
  public synchronized List<Listed> list(Principal principal) throws SQLException {
    List<Listed> listed = new ArrayList<>();
    for (SecretRows.Row row : table.all()) {
      if (principal.admin() || row.owner().equals(principal.key())) {
        listed.add(new Listed(row.name(), row.owner(), usersOf(row.name())));
      }
    }
    return listed;
  }

  /** The name of the anonymous secret of option {@code key} of {@code object}. */
  public static String anonymousName(String object, String key) {
    return object + ANONYMOUS_SEPARATOR + key;
  }

  private List<String> usersOf(String name) {
    Set<String> users = new TreeSet<>();
    uses.forEach((object, names) -> {
      if (names.contains(name)) {
        users.add(object);
      }
    });
    return new ArrayList<>(users);
  }

  private static void checkOwner(Principal principal, SecretRows.Row row, String action)
      throws SQLException {
    if (!principal.admin() && !row.owner().equals(principal.key())) {
      throw SecretErrors.notOwner(row.name(), action, principal.name());
    }
  }

  /** {@code value} as stored: sealed by the key if there is one. */
  private byte[] stored(String name, byte[] value) {
    byte[] payload = key.isPresent() ? key.get().seal(name, value) : value;
    byte[] stored = new byte[payload.length + 1];
    stored[0] = key.isPresent() ? SEALED : PLAIN;
    System.arraycopy(payload, 0, stored, 1, payload.length);
    return stored;
  }

  /** The value of {@code row}, opened with the key if it was sealed. */
  private byte[] plain(SecretRows.Row row, String where) {
    byte[] stored = row.value();
    if (stored.length == 0) {
      return stored;
    }
    byte[] payload = Arrays.copyOfRange(stored, 1, stored.length);
    if (stored[0] == PLAIN) {
      return payload;
    }
    if (stored[0] != SEALED) {
      throw new IllegalStateException("Secret " + row.name() + " in " + where + " is stored in"
          + " format " + stored[0] + ", which this version of Freshet cannot read");
    }
    if (key.isEmpty()) {
      throw new IllegalStateException("The secrets in " + where + " are encrypted, and no key"
          + " was given. Start with the key file they were encrypted with (--secrets-key-file)");
    }
    try {
      return key.get().open(row.name(), payload);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("The secrets in " + where + " cannot be decrypted with"
          + " the key in " + key.get().file() + ": it is not the key they were encrypted with."
          + " Start with that key's file (--secrets-key-file)", e);
    }
  }
}
