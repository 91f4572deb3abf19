package dev.freshet.planner.logical;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.security.SensitiveOptions;
import dev.freshet.common.security.UrlRedaction;
import dev.freshet.executor.source.ReferenceData;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A node of a continuous query's logical plan as another engine runs it (Spark's
 * {@code LogicalPlan}): the scans, watermark, filters, projections, time windows, aggregation,
 * deduplication and joins that {@code LogicalPlanConverter} makes of Freshet's windowed plan,
 * and {@link Unsupported} for an operator that no other engine runs yet. Columns are referred to
 * by position in the node's input ({@link Expression.ColumnRef}); a join's condition reads the
 * left input's columns, then the right's.
 *
 * <pre>{@code
 * Aggregate[groupKeys=[1], calls=[COUNT()]]
 *   Project[$0, $1]
 *     TimeWindow[eventTime=$1, size=10000 ms, slide=10000 ms]
 *       EventTimeWatermark[eventTime=$1, delay=5000 ms]
 *         StreamScan[CLICKS]
 * }</pre>
 */
public sealed interface LogicalPlan {
  /** The node's inputs, left first. */
  List<LogicalPlan> inputs();

  /** The plan as an indented tree, one node a line, as in the example above. */
  default String explain() {
    return PlanExplainer.explain(this);
  }

  /**
   * The rows of a stream.
   *
   * @param stream the stream's name ({@link LogicalStream#name()})
   * @param columns the stream's columns, in order
   */
  record StreamScan(String stream, List<LogicalField> columns) implements LogicalPlan {
    public StreamScan {
      requireNonNull(stream, "stream");
      columns = List.copyOf(columns);
    }

    @Override public List<LogicalPlan> inputs() {
      return List.of();
    }
  }

  /**
   * The rows of a reference table (Freshet's own or an external database's), as they are when
   * a batch runs.
   *
   * @param table the table's name
   * @param options its {@code WITH} options (an external table's connector, URL, credentials)
   * @param data where its rows are: the engine reads them through it
   * @param columns its declared columns, in order
   */
  record TableScan(String table, Map<String, String> options, ReferenceData data,
      List<LogicalField> columns) implements LogicalPlan {
    public TableScan {
      requireNonNull(table, "table");
      options = Map.copyOf(options);
      requireNonNull(data, "data");
      columns = List.copyOf(columns);
    }

    @Override public List<LogicalPlan> inputs() {
      return List.of();
    }

    /** The scan with its options' secrets (passwords, keys, URLs' credentials) hidden. */
    @Override public String toString() {
      Map<String, String> shown = new TreeMap<>();
      options.forEach((key, value) -> shown.put(key, SensitiveOptions.isSensitive(key)
          ? UrlRedaction.HIDDEN : UrlRedaction.url(value)));
      return "TableScan[table=" + table + ", options=" + shown + ", columns=" + columns + "]";
    }
  }

  /**
   * The stream's watermark over its input's event-time column (Spark's
   * {@code withWatermark}); rows pass unchanged.
   *
   * @param input the rows, a scan as the planner makes it
   * @param eventTimeIndex the TIMESTAMP column carrying event time
   * @param delayMs how late, in milliseconds, rows may arrive
   * @param idleTimeoutMs how long without rows before the watermark follows the clock; 0: never
   */
  record EventTimeWatermark(LogicalPlan input, int eventTimeIndex, long delayMs,
      long idleTimeoutMs) implements LogicalPlan {
    public EventTimeWatermark {
      requireNonNull(input, "input");
    }

    @Override public List<LogicalPlan> inputs() {
      return List.of(input);
    }
  }

  /**
   * The rows for which {@code condition} is TRUE.
   *
   * @param input the rows
   * @param condition a BOOLEAN expression over the input's columns
   */
  record Filter(LogicalPlan input, Expression condition) implements LogicalPlan {
    public Filter {
      requireNonNull(input, "input");
      requireNonNull(condition, "condition");
    }

    @Override public List<LogicalPlan> inputs() {
      return List.of(input);
    }
  }

  /**
   * One row per input row, of {@code projections} computed over it.
   *
   * @param input the rows
   * @param projections the columns, each an expression over the input's columns
   */
  record Project(LogicalPlan input, List<Expression> projections) implements LogicalPlan {
    public Project {
      requireNonNull(input, "input");
      projections = List.copyOf(projections);
    }

    @Override public List<LogicalPlan> inputs() {
      return List.of(input);
    }
  }

  /**
   * Each input row once per event-time window it falls in, with the window's start and end
   * appended (two TIMESTAMP columns): TUMBLE when the slide is the size, HOP otherwise. Windows
   * are aligned to the epoch and end-exclusive.
   *
   * @param input the rows
   * @param eventTimeIndex the TIMESTAMP column the windows are computed from
   * @param sizeMs the window's size in milliseconds
   * @param slideMs the distance between window starts in milliseconds
   */
  record TimeWindow(LogicalPlan input, int eventTimeIndex, long sizeMs, long slideMs)
      implements LogicalPlan {
    public TimeWindow {
      requireNonNull(input, "input");
    }

    /** Whether each row falls in exactly one window: TUMBLE. */
    public boolean tumbling() {
      return sizeMs == slideMs;
    }

    @Override public List<LogicalPlan> inputs() {
      return List.of(input);
    }
  }

  /** How an aggregate groups: by one key, or by several sets of its columns. */
  enum Grouping {
    /** {@code GROUP BY} columns: one grouping. */
    SIMPLE,
    /** {@code GROUP BY ROLLUP (...)}. */
    ROLLUP,
    /** {@code GROUP BY CUBE (...)}. */
    CUBE,
    /** {@code GROUP BY GROUPING SETS (...)}. */
    GROUPING_SETS
  }

  /**
   * One row per group of the input: the group key's columns, then one column per call.
   *
   * @param input the rows
   * @param groupKeys the input's columns that form the key, ascending
   * @param grouping whether one key or several grouping sets
   * @param keyTypes the result's key columns' types, one per group key
   * @param calls the aggregate functions
   */
  record Aggregate(LogicalPlan input, List<Integer> groupKeys, Grouping grouping,
      List<LogicalType> keyTypes, List<AggregateCall> calls) implements LogicalPlan {
    public Aggregate {
      requireNonNull(input, "input");
      groupKeys = List.copyOf(groupKeys);
      requireNonNull(grouping, "grouping");
      keyTypes = List.copyOf(keyTypes);
      calls = List.copyOf(calls);
      if (keyTypes.size() != groupKeys.size()) {
        throw new IllegalArgumentException(groupKeys.size() + " keys, " + keyTypes.size()
            + " key types");
      }
    }

    @Override public List<LogicalPlan> inputs() {
      return List.of(input);
    }
  }

  /** What an aggregate function computes. */
  enum AggregateKind {
    COUNT, SUM,
    /** SUM that is 0, not NULL, over no rows (the planner's COUNT-derived sums). */
    SUM0, MIN, MAX, AVG,
    /** Any other function: {@link AggregateCall#name()} says which. */
    OTHER
  }

  /**
   * One aggregate function of an {@link Aggregate}.
   *
   * <pre>{@code
   * // SUM(v) FILTER (WHERE v > 0): argument $1, filter column $2
   * new AggregateCall(AggregateKind.SUM, "SUM", false, List.of(1), 2, bigint);
   * }</pre>
   *
   * @param kind what it computes
   * @param name the function's name as the query wrote it, e.g. {@code COUNT}
   * @param distinct whether over distinct values
   * @param args the input's columns it takes
   * @param filterArg the input's BOOLEAN column of {@code FILTER (WHERE ...)}, or -1
   * @param type its result's type
   */
  record AggregateCall(AggregateKind kind, String name, boolean distinct, List<Integer> args,
      int filterArg, LogicalType type) {
    public AggregateCall {
      requireNonNull(kind, "kind");
      requireNonNull(name, "name");
      args = List.copyOf(args);
      requireNonNull(type, "type");
    }
  }

  /**
   * The input's first row of each key, the later ones dropped: {@code ROW_NUMBER() OVER
   * (PARTITION BY keys [ORDER BY col]) = 1} (Spark's {@code dropDuplicates}, or
   * {@code dropDuplicatesWithinWatermark} when ordered by the event time that expires the keys).
   *
   * @param input the rows
   * @param keys the key columns, in {@code PARTITION BY} order
   * @param orderIndex the {@code ORDER BY} column, or -1 for arrival order
   * @param expiryIndex the column that tells when a key's state goes, or -1 to keep keys forever
   */
  record Deduplicate(LogicalPlan input, List<Integer> keys, int orderIndex, int expiryIndex)
      implements LogicalPlan {
    public Deduplicate {
      requireNonNull(input, "input");
      keys = List.copyOf(keys);
    }

    @Override public List<LogicalPlan> inputs() {
      return List.of(input);
    }
  }

  /** Which rows a join keeps. */
  enum JoinType {
    INNER, LEFT, RIGHT, FULL, SEMI, ANTI
  }

  /**
   * A join of two streams, both kept in state (Spark's stream-stream join): the left's columns,
   * then the right's.
   *
   * @param left the left stream's rows
   * @param right the right stream's rows
   * @param joinType which rows it keeps
   * @param leftKeys the left's columns that the condition equates with {@code rightKeys}
   * @param rightKeys the right's columns, in the same order
   * @param condition the whole condition, over the joined row
   */
  record StreamStreamJoin(LogicalPlan left, LogicalPlan right, JoinType joinType,
      List<Integer> leftKeys, List<Integer> rightKeys, Expression condition)
      implements LogicalPlan {
    public StreamStreamJoin {
      requireNonNull(left, "left");
      requireNonNull(right, "right");
      requireNonNull(joinType, "joinType");
      leftKeys = List.copyOf(leftKeys);
      rightKeys = List.copyOf(rightKeys);
      requireNonNull(condition, "condition");
    }

    @Override public List<LogicalPlan> inputs() {
      return List.of(left, right);
    }
  }

  /**
   * A join of a stream with a reference table as it is when each batch runs (Spark's
   * stream-static join): the left's columns, then the right's.
   *
   * @param left the left input's rows
   * @param right the right input's rows
   * @param joinType which rows it keeps
   * @param streamOnLeft whether the left input is the stream (the right then the table)
   * @param condition the whole condition, over the joined row
   */
  record StreamTableJoin(LogicalPlan left, LogicalPlan right, JoinType joinType,
      boolean streamOnLeft, Expression condition) implements LogicalPlan {
    public StreamTableJoin {
      requireNonNull(left, "left");
      requireNonNull(right, "right");
      requireNonNull(joinType, "joinType");
      requireNonNull(condition, "condition");
    }

    @Override public List<LogicalPlan> inputs() {
      return List.of(left, right);
    }
  }

  /**
   * An operator that this plan does not express (a SESSION window, a top-N, ORDER BY, a set
   * operation, VALUES, ...): another engine refuses the query, saying what the query wrote.
   *
   * @param description what the query wrote that became it, as a sentence's subject, e.g.
   *     {@code A SESSION window}
   */
  record Unsupported(String description) implements LogicalPlan {
    public Unsupported {
      requireNonNull(description, "description");
    }

    @Override public List<LogicalPlan> inputs() {
      return List.of();
    }
  }
}
