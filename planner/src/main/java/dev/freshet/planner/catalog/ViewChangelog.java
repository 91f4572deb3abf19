package dev.freshet.planner.catalog;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.source.Source;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.rel.type.RelProtoDataType;

/**
 * The changes of a materialized view, as a continuous query that reads the view scans them: a
 * stream named after the view whose offsets are the view's versions. Over an UPDATE view a change
 * takes back the old row of a group and adds its new one, so the stream {@link #retracts()}: its
 * source's rows end with one more element, the
 * {@link dev.freshet.executor.operators.ChangelogInput} marker. Over an APPEND view the stream is
 * the view's new rows, which never retract.
 *
 * <pre>{@code
 * // CREATE MATERIALIZED VIEW w AS SELECT c, COUNT(*) FROM v GROUP BY c
 * ViewChangelog changes = viewTable.changelog().orElseThrow();
 * changes.name();        // "V", as the plan's scan names it
 * changes.retracts();    // true: v is an UPDATE view
 * }</pre>
 *
 * <p>Made anew for every query planned: its source belongs to the query that reads it.
 */
public final class ViewChangelog extends StreamTable {
  /** The last part of the qualified name under which a plan shows a view's changes. */
  public static final String TABLE_SUFFIX = "CHANGES";

  private final ViewTable view;
  private final boolean retracts;

  /**
   * Creates the changes of {@code view}.
   *
   * @param rowType the view's columns
   * @param source the view's versions: offset {@code n} is its batch {@code n - 1}
   * @param retracts whether a change may take a row back (UPDATE views)
   */
  public ViewChangelog(ViewTable view, RelProtoDataType rowType, Source source,
      boolean retracts) {
    super(view.name(), rowType, Optional.empty(), Map.of(CONNECTOR_OPTION, "view"), source);
    this.view = requireNonNull(view, "view");
    this.retracts = retracts;
  }

  /** The view whose changes these are. */
  public ViewTable view() {
    return view;
  }

  /** Whether a row may take back an earlier one, and each row ends with the marker. */
  public boolean retracts() {
    return retracts;
  }
}
