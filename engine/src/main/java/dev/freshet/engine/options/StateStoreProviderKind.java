package dev.freshet.engine.options;

import java.util.Locale;
import java.util.Optional;

/**
 * Where a continuous query keeps its state: the values of option
 * {@link SessionOption#STATE_STORE_PROVIDER}, and of the provider a checkpoint pins.
 *
 * <pre>{@code
 * StateStoreProviderKind.of("mvstore");   // Optional[MVSTORE]
 * StateStoreProviderKind.MVSTORE.text();  // "mvstore", as SET and checkpoints spell it
 * }</pre>
 */
public enum StateStoreProviderKind {
  /**
   * Versions in memory, with delta and snapshot files in the checkpoint when the engine has a
   * data directory.
   */
  MEMORY,
  /** H2's MVStore on disk, for state larger than the heap. */
  MVSTORE;

  /** The provider as {@code SET} and a checkpoint's {@code offsets/N} spell it. */
  public String text() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The provider spelled {@code text} (any case, spaces around ignored), if there is one. */
  public static Optional<StateStoreProviderKind> of(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    for (StateStoreProviderKind kind : values()) {
      if (kind.text().equals(t)) {
        return Optional.of(kind);
      }
    }
    return Optional.empty();
  }
}
