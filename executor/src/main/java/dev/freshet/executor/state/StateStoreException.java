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
}
