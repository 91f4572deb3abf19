package dev.freshet.engine.view;

import dev.freshet.planner.catalog.ViewResult;
import java.sql.SQLException;

/**
 * A view's result that publishes whole versions ({@link ViewVersion}), one per batch, which a
 * statement pins when it starts ({@link ViewPins}).
 */
interface VersionedResult extends ViewResult {
  /**
   * The current version, retained: the caller releases it.
   *
   * @throws SQLException (42S02) if the view was dropped
   */
  ViewVersion pin() throws SQLException;
}
