package dev.freshet.engine.view;

import dev.freshet.planner.catalog.ViewResult;
import java.sql.SQLException;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.DataContext;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The versions of the views one statement reads, pinned when it starts and released when it
 * ends: every scan of a view in the statement (a self-join scans it twice) reads the same batch.
 *
 * <pre>{@code
 * try (ViewPins pins = ViewPins.pin(viewResults)) {
 *   parameters.put(ViewPins.VARIABLE, pins);
 *   ... run the statement ...
 * }
 * }</pre>
 */
public final class ViewPins implements AutoCloseable {
  /** The {@link DataContext} variable that holds a statement's pins. */
  public static final String VARIABLE = "freshet.viewPins";

  private final Map<VersionedResult, ViewVersion> versions = new IdentityHashMap<>();

  private ViewPins() {
  }

  /**
   * Pins the current version of each of {@code results} that publishes versions; other results
   * are left alone.
   *
   * @throws SQLException (42S02) if one of the views was dropped
   */
  public static ViewPins pin(Iterable<? extends ViewResult> results) throws SQLException {
    ViewPins pins = new ViewPins();
    try {
      for (ViewResult result : results) {
        if (result instanceof VersionedResult versioned
            && !pins.versions.containsKey(versioned)) {
          pins.versions.put(versioned, versioned.pin());
        }
      }
      return pins;
    } catch (SQLException | RuntimeException e) {
      pins.close();
      throw e;
    }
  }

  /** The pins of the statement that {@code root} belongs to, if it has any. */
  static Optional<ViewPins> of(DataContext root) {
    Object pins = root.get(VARIABLE);
    return pins instanceof ViewPins ? Optional.of((ViewPins) pins) : Optional.empty();
  }

  /** The version of {@code result} this statement reads, or null if it pinned none. */
  @Nullable ViewVersion version(VersionedResult result) {
    return versions.get(result);
  }

  @Override public void close() {
    versions.values().forEach(ViewVersion::release);
    versions.clear();
  }
}
