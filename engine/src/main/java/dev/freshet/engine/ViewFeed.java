package dev.freshet.engine;

import dev.freshet.engine.errors.Errors;
import dev.freshet.executor.runtime.ProgressTotals;
import dev.freshet.executor.runtime.QueryStatus;
import dev.freshet.executor.runtime.Sink;
import dev.freshet.executor.runtime.StreamingQuery;
import dev.freshet.executor.runtime.StreamingQueryProgress;
import dev.freshet.planner.catalog.ViewTable;
import dev.freshet.sql.parser.EmitMode;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlHint;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSelectKeyword;
import org.apache.calcite.sql.SqlTableRef;
import org.checkerframework.checker.nullness.qual.Nullable;
import dev.freshet.engine.view.PublishedResult;
import dev.freshet.engine.view.StateViewResult;
import dev.freshet.engine.push.PushPolicy;
import dev.freshet.engine.push.PushQuery;
import dev.freshet.engine.options.SessionOptions;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.engine.query.ResultColumn;

/**
 * {@code SELECT STREAM * FROM view}: the view's rows at its last committed version, then every
 * later change, as a push result with two more columns, {@code _BATCH_ID} (the view's version)
 * and {@code _ROW_KIND} ({@code INSERT}, {@code UPDATE}, {@code DELETE}).
 *
 * <pre>{@code
 * SELECT STREAM * FROM per_user;                                              -- snapshot, then changes
 * SELECT STREAM * FROM per_user /*+ OPTIONS('since_version'='42') *}{@code /;  -- changes after 42
 * }</pre>
 *
 * <p>Reading the view's table and registering for its changes happen so that no batch is missed
 * or seen twice ({@link PublishedResult#subscribe}). Closing the result ends the subscription; the
 * view's query runs on.
 */
final class ViewFeed implements StreamingQuery {
  /** The hint option naming the version after which a resumed subscription starts. */
  static final String SINCE_VERSION = "since_version";

  private final String id = UUID.randomUUID().toString();
  private final String name;
  private final Sink sink;
  private volatile @Nullable AutoCloseable subscription;
  private volatile long lastBatchId = -1;
  private volatile QueryStatus status = QueryStatus.ACTIVE;

  private ViewFeed(String name, Sink sink) {
    this.name = name;
    this.sink = sink;
  }

  /**
   * The view and the version a statement subscribes to, if it is
   * {@code SELECT STREAM * FROM view [hint]} and nothing more; empty for any other statement.
   *
   * @throws SQLException if the hint's option is not a version number
   */
  static Optional<Map.Entry<ViewTable, Long>> match(Engine engine, SqlNode query)
      throws SQLException {
    if (!(query instanceof SqlSelect)) {
      return Optional.empty();
    }
    SqlSelect select = (SqlSelect) query;
    if (select.getModifierNode(SqlSelectKeyword.STREAM) == null
        || select.getSelectList().size() != 1
        || !(select.getSelectList().get(0) instanceof SqlIdentifier)
        || !((SqlIdentifier) select.getSelectList().get(0)).isStar()
        || select.getWhere() != null || select.getGroup() != null || select.getHaving() != null
        || select.getOrderList() != null || select.getFetch() != null
        || select.getOffset() != null || !select.getWindowList().isEmpty()) {
      return Optional.empty();
    }
    SqlNode from = select.getFrom();
    SqlNodeList hints = null;
    if (from instanceof SqlTableRef) {
      hints = (SqlNodeList) ((SqlTableRef) from).getOperandList().get(1);
      from = ((SqlTableRef) from).getOperandList().get(0);
    }
    if (!(from instanceof SqlIdentifier)) {
      return Optional.empty();
    }
    Optional<ViewTable> view = engine.catalog().view(StreamDdl.simpleName((SqlIdentifier) from));
    if (view.isEmpty()) {
      return Optional.empty();
    }
    long since = -1;
    if (hints != null) {
      for (SqlNode node : hints) {
        SqlHint hint = (SqlHint) node;
        for (Map.Entry<String, String> option : hint.getOptionKVPairs().entrySet()) {
          if (!hint.getName().equalsIgnoreCase("OPTIONS")
              || !option.getKey().toLowerCase(Locale.ROOT).equals(SINCE_VERSION)) {
            throw Errors.invalidDefinition("Unknown hint " + hint.getName() + "('"
                + option.getKey() + "'). A subscription to a view takes OPTIONS('"
                + SINCE_VERSION + "'='<version>')");
          }
          since = version(option.getValue());
        }
      }
    }
    return Optional.of(Map.entry(view.get(), since));
  }

  private static long version(String value) throws SQLException {
    try {
      long v = Long.parseLong(value.trim());
      if (v >= 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // Reported below with what is allowed.
    }
    throw Errors.invalidDefinition("'" + SINCE_VERSION + "' must be a view version (a"
        + " _BATCH_ID a subscription returned, 0 or more), not '" + value + "'");
  }

  /**
   * Fails unless {@code emit}, a subscription's EMIT clause (null if none), is one a subscription
   * can have.
   */
  static void checkEmit(ViewTable view, @Nullable EmitMode emit) throws SQLException {
    if (emit != null && emit != EmitMode.UPDATE) {
      throw Errors.notSupported("A subscription to materialized view " + view.name()
          + " emits the view's changes (EMIT UPDATE), not EMIT " + emit + ". Leave EMIT out, or"
          + " query the view's stream instead");
    }
  }

  /** The columns of a subscription to {@code view}: the view's, _BATCH_ID and _ROW_KIND. */
  static List<ResultColumn> columns(Engine engine, ViewTable view) {
    List<ResultColumn> columns = new ArrayList<>();
    for (RelDataTypeField field : view.getRowType(engine.planner().typeFactory()).getFieldList()) {
      columns.add(ResultColumn.of(field));
    }
    // As every push result's: the markers of push.batch.markers fit too.
    columns.add(ResultColumn.bigint(PushQuery.BATCH_ID).asNotNull());
    columns.add(ResultColumn.varchar(PushQuery.ROW_KIND, 9).asNotNull());
    return columns;
  }

  /** Subscribes to {@code view} and returns the push result. */
  static StatementResult.Push open(Engine engine, SessionOptions options, ViewTable view,
      long sinceBatch) throws SQLException {
    List<ResultColumn> columns = columns(engine, view);
    int visible = columns.size() - 2;
    // An upserted view's unread changes coalesce per group, as an UPDATE push query's do: the
    // change rows carry the group key, whether the row is new and its kind (a DELETE when HAVING
    // stops admitting a group of a view read from state); see ViewChanges.
    // Replaced and appended results keep their changes in order, up to the buffer bound.
    boolean upserts = view.result() instanceof StateViewResult;
    PushPolicy policy = upserts
        ? new PushPolicy.Upsert(new int[] {visible + 2}, visible + 3, visible + 1)
        : new PushPolicy.Changes(options.pushBufferRows());
    PushQuery push = new PushQuery(policy, visible, options.pushBatchMarkers(),
        engine.resources().scheduler());
    ViewFeed feed = new ViewFeed("feed-" + view.name(), push.sink());
    push.attach(feed);
    feed.subscription = ((PublishedResult) view.result()).subscribe(sinceBatch,
        (batchId, rows) -> {
          feed.lastBatchId = batchId;
          feed.sink.addBatch(batchId, rows);
        });
    return new StatementResult.Push(columns, push);
  }

  @Override public String id() {
    return id;
  }

  @Override public String name() {
    return name;
  }

  @Override public QueryStatus status() {
    return status;
  }

  @Override public long lastBatchId() {
    return lastBatchId;
  }

  @Override public Optional<Throwable> exception() {
    return Optional.empty();
  }

  @Override public boolean processAllAvailable(Duration timeout) {
    // Every committed batch reaches the feed as it commits.
    return status == QueryStatus.ACTIVE;
  }

  @Override public List<StreamingQueryProgress> recentProgress() {
    return List.of();
  }

  @Override public ProgressTotals progressTotals() {
    return ProgressTotals.NONE;
  }

  @Override public synchronized void stop() {
    AutoCloseable s = subscription;
    subscription = null;
    if (s == null) {
      return;
    }
    try {
      s.close();
    } catch (Exception e) {
      throw new IllegalStateException("Cannot end the subscription " + name, e);
    }
    status = QueryStatus.STOPPED;
    sink.queryTerminated(null);
  }
}
