package dev.freshet.executor.state;

/**
 * Failure to load, update or commit a state store; the message names the store and the version.
 */
public class StateStoreException extends RuntimeException {
  public StateStoreException(String message) {
    super(message);
  }

  public StateStoreException(String message, Throwable cause) {
    super(message, cause);
  }

  /** A version that the provider cannot produce. */
  public static StateStoreException cannotLoad(StateStoreId id, long version, String why) {
    return new StateStoreException("Cannot load version " + version + " of " + id + ": " + why);
  }

  /** A version that the provider cannot produce, because of {@code cause}. */
  public static StateStoreException cannotLoad(StateStoreId id, long version, String why,
      Throwable cause) {
    return new StateStoreException("Cannot load version " + version + " of " + id + ": " + why,
        cause);
  }

  /** A version asked for reading that no commit has produced yet. */
  public static StateStoreException notCommitted(StateStoreId id, long version, long latest) {
    return new StateStoreException("Version " + version + " of " + id
        + " is not committed yet: the latest committed version is " + latest);
  }

  /** A version that the provider no longer keeps. */
  public static StateStoreException notRetained(StateStoreId id, long version, long oldest) {
    return new StateStoreException("Version " + version + " of " + id
        + " is no longer retained: the oldest version kept is " + oldest);
  }

  /** Changes that the provider no longer keeps. */
  public static StateStoreException changesNotRetained(StateStoreId id, long from, long oldest) {
    return new StateStoreException("The changes after version " + from + " of " + id
        + " are no longer retained: the oldest version whose later changes are kept is " + oldest);
  }
}
