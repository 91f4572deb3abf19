package dev.freshet.planner.exec;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.JsonNode;
import dev.freshet.executor.operators.AggregateFunction;
import dev.freshet.executor.operators.OutputMode;
import dev.freshet.executor.operators.ValueKind;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What one {@link ExecNode} does, with every parameter the executor needs to run it: an
 * {@link ExecPlan} is complete, so that a restarted view runs the plan it was created with rather
 * than whatever the running planner makes of its SQL today (Flink's compiled plan, not Spark's
 * re-planning).
 *
 * <p>Column positions refer to the output of the node below ({@code $0} is its first column).
 * In JSON the operator is an object whose {@code kind} names the variant:
 *
 * <pre>{@code
 * {"kind" : "watermark", "eventTimeIndex" : 2, "delayMs" : 5000}
 * }</pre>
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
@JsonSubTypes({
    @JsonSubTypes.Type(value = ExecOperator.Scan.class, name = ExecOperator.Scan.KIND),
    @JsonSubTypes.Type(value = ExecOperator.Watermark.class, name = ExecOperator.Watermark.KIND),
    @JsonSubTypes.Type(value = ExecOperator.Window.class, name = ExecOperator.Window.KIND),
    @JsonSubTypes.Type(value = ExecOperator.Sort.class, name = ExecOperator.Sort.KIND),
    @JsonSubTypes.Type(value = ExecOperator.Calc.class, name = ExecOperator.Calc.KIND),
    @JsonSubTypes.Type(value = ExecOperator.Union.class, name = ExecOperator.Union.KIND),
    @JsonSubTypes.Type(value = ExecOperator.StreamJoin.class,
        name = ExecOperator.StreamJoin.KIND),
    @JsonSubTypes.Type(value = ExecOperator.StatefulAggregate.class,
        name = ExecOperator.StatefulAggregate.KIND),
    @JsonSubTypes.Type(value = ExecOperator.LookupJoin.class, name = ExecOperator.LookupJoin.KIND),
    @JsonSubTypes.Type(value = ExecOperator.Deduplicate.class,
        name = ExecOperator.Deduplicate.KIND),
    @JsonSubTypes.Type(value = ExecOperator.SessionAggregate.class,
        name = ExecOperator.SessionAggregate.KIND),
    @JsonSubTypes.Type(value = ExecOperator.TopN.class, name = ExecOperator.TopN.KIND)})
public sealed interface ExecOperator {
  /** The variant's name in JSON, e.g. {@code calc}. */
  @JsonIgnore String kind();

  /** Reads the rows of a stream. */
  record Scan(String stream) implements ExecOperator {
    static final String KIND = "scan";

    public Scan {
      requireNonNull(stream, "stream");
    }

    @Override public String kind() {
      return KIND;
    }
  }

  /**
   * Tracks the watermark on an event-time column, {@code delayMs} behind its largest value; once
   * the stream has had no row for {@code idleTimeoutMs} (when above 0), the processing time minus
   * {@code delayMs}. A plan without the field (0) is one of a stream without an idle timeout.
   */
  record Watermark(int eventTimeIndex, long delayMs,
      @JsonInclude(JsonInclude.Include.NON_DEFAULT) long idleTimeoutMs)
      implements ExecOperator {
    static final String KIND = "watermark";

    /** A watermark without an idle timeout. */
    public Watermark(int eventTimeIndex, long delayMs) {
      this(eventTimeIndex, delayMs, 0);
    }

    /** Reads the JSON of a plan, whose watermarks written before the idle timeout have none. */
    @JsonCreator static Watermark of(@JsonProperty("eventTimeIndex") int eventTimeIndex,
        @JsonProperty("delayMs") long delayMs,
        @JsonProperty("idleTimeoutMs") @Nullable Long idleTimeoutMs) {
      return new Watermark(eventTimeIndex, delayMs, idleTimeoutMs == null ? 0 : idleTimeoutMs);
    }

    @Override public String kind() {
      return KIND;
    }
  }

  /** Assigns each row to its windows: the row's columns, then window start and end. */
  record Window(int eventTimeIndex, long sizeMs, long slideMs) implements ExecOperator {
    static final String KIND = "window";

    @Override public String kind() {
      return KIND;
    }
  }

  /** Sorts a batch's rows, then skips {@code offset} of them and keeps {@code fetch} (-1: all). */
  record Sort(List<SortField> keys, long offset, long fetch) implements ExecOperator {
    static final String KIND = "sort";

    public Sort {
      keys = List.copyOf(keys);
    }

    @Override public String kind() {
      return KIND;
    }
  }

  /** One sort key of a {@link Sort}. */
  record SortField(int index, boolean descending, boolean nullsFirst) {
  }

  /**
   * A filter and projections, as {@link RexProgramJson} writes them: the input row type, the
   * expressions over it and the output row type, in Calcite's JSON form of expressions.
   */
  record Calc(JsonNode program) implements ExecOperator {
    static final String KIND = "calc";

    public Calc {
      requireNonNull(program, "program");
    }

    @Override public String kind() {
      return KIND;
    }
  }

  /**
   * {@code UNION ALL}: the rows of every input, as they come ({@link ExecNode#inputIds() inputs}
   * of the same columns).
   */
  record Union() implements ExecOperator {
    static final String KIND = "union";

    @Override public String kind() {
      return KIND;
    }
  }

  /**
   * A join of two streams that keeps both inputs' rows in the state stores of operator
   * {@code operatorId} (the left side's in partition 0, the right side's in 1), Spark's
   * symmetric hash join. Its output is the left input's columns, then the right input's.
   *
   * @param operatorId the stateful operator id: the state directory {@code state/<id>/}
   * @param joinType {@code INNER}, {@code LEFT_OUTER}, {@code RIGHT_OUTER} or {@code FULL_OUTER}
   * @param leftKeys the left input's columns that must equal the right's {@code rightKeys}
   * @param rightKeys the right input's key columns
   * @param leftEventTime the left input's event-time column, or -1
   * @param rightEventTime the right input's event-time column, or -1
   * @param timeRange the bounds of the left event time minus the right's, or null
   * @param residual a calc (as {@link Calc#program()}) over the joined row whose condition a
   *     pair must meet besides its keys and range, or null
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record StreamJoin(int operatorId, String joinType, List<Integer> leftKeys,
      List<Integer> rightKeys, int leftEventTime, int rightEventTime,
      @Nullable TimeRangeSpec timeRange, @Nullable JsonNode residual)
      implements ExecOperator {
    static final String KIND = "stream-join";

    public StreamJoin {
      requireNonNull(joinType, "joinType");
      leftKeys = List.copyOf(leftKeys);
      rightKeys = List.copyOf(rightKeys);
      if (leftKeys.size() != rightKeys.size()) {
        throw new IllegalArgumentException("join keys " + leftKeys + " and " + rightKeys);
      }
    }

    @Override public String kind() {
      return KIND;
    }
  }

  /**
   * The range of a {@link StreamJoin}: {@code leftTime - rightTime} within
   * {@code [lowerMs, upperMs]}, a bound absent as {@code Long.MIN_VALUE} or
   * {@code Long.MAX_VALUE}.
   */
  record TimeRangeSpec(long lowerMs, boolean lowerInclusive, long upperMs,
      boolean upperInclusive) {
  }

  /**
   * A streaming aggregation: per batch, a partial aggregate of the input rows by
   * {@code groupSet}, merged into the state store of operator {@code operatorId}, emitting in
   * {@code outputMode}.
   *
   * @param operatorId the stateful operator id: the state directory {@code state/<id>/}
   * @param groupSet the grouping columns of the input, ascending
   * @param partialCalls the aggregates over input rows
   * @param mergeCalls the aggregates that merge partial rows into the state, one per partial call
   * @param outputMode what each batch emits
   * @param statePartitions the number of state partitions
   * @param eventTimeKey the grouping column that carries event time, or null
   * @param newKeyFlag whether rows end with a BOOLEAN that is true for a key new in the batch
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record StatefulAggregate(int operatorId, List<Integer> groupSet,
      List<AggregateCallSpec> partialCalls, List<AggregateCallSpec> mergeCalls,
      OutputMode outputMode, int statePartitions, @Nullable EventTimeKeySpec eventTimeKey,
      boolean newKeyFlag) implements ExecOperator {
    static final String KIND = "stateful-aggregate";

    public StatefulAggregate {
      groupSet = List.copyOf(groupSet);
      partialCalls = List.copyOf(partialCalls);
      mergeCalls = List.copyOf(mergeCalls);
      requireNonNull(outputMode, "outputMode");
    }

    @Override public String kind() {
      return KIND;
    }
  }

  /**
   * One aggregate of a {@link StatefulAggregate}.
   *
   * @param function the function
   * @param arg the input column, or -1 for {@code COUNT(*)}
   * @param resultKind how its result and accumulator are held
   * @param distinct whether only distinct values count
   * @param filterArg the BOOLEAN input column a row must be TRUE in to count, or -1
   */
  record AggregateCallSpec(AggregateFunction function, int arg, ValueKind resultKind,
      boolean distinct, int filterArg) {
    public AggregateCallSpec {
      requireNonNull(function, "function");
      requireNonNull(resultKind, "resultKind");
    }
  }

  /**
   * The grouping column that carries event time.
   *
   * @param keyIndex its position among the grouping columns
   * @param offsetMs added to a value to get its event time (the window size for a window start)
   */
  record EventTimeKeySpec(int keyIndex, long offsetMs) {
  }

  /**
   * Joins each stream row with the rows of reference table {@code table} as they are when the
   * batch starts (a stream-static join): the node's output is the stream's columns and the
   * table side's (the table's first if {@code tableFirst}).
   *
   * @param table the table's name in the catalog
   * @param tableColumns the table's columns as declared when the plan was made
   * @param tableProgram the filter and projections of the table's rows before the join
   *     ({@link RexProgramJson}), or null to join the rows as they are
   * @param streamKeys the stream row's key columns
   * @param tableKeys the table side's key columns, one per stream key
   * @param residual a program over the joined row whose condition a match must pass, or null
   * @param outer whether a stream row matching nothing is emitted with NULLs (LEFT OUTER)
   * @param tableFirst whether the joined row has the table's columns first
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record LookupJoin(String table, List<ExecColumn> tableColumns, @Nullable JsonNode tableProgram,
      List<Integer> streamKeys, List<Integer> tableKeys, @Nullable JsonNode residual,
      boolean outer, boolean tableFirst) implements ExecOperator {
    static final String KIND = "lookup-join";

    public LookupJoin {
      requireNonNull(table, "table");
      tableColumns = List.copyOf(tableColumns);
      streamKeys = List.copyOf(streamKeys);
      tableKeys = List.copyOf(tableKeys);
    }

    @Override public String kind() {
      return KIND;
    }
  }

  /**
   * Keeps the first row of each key and drops the key's later rows, keeping the keys in the state
   * store of operator {@code operatorId}: {@code ROW_NUMBER() OVER (PARTITION BY keys ORDER BY
   * orderIndex) = 1} of a stream.
   *
   * <pre>{@code
   * {"kind" : "deduplicate", "operatorId" : 0, "keys" : [0], "orderIndex" : 2,
   *  "nullsFirst" : false, "eventTimeIndex" : 2, "expiryIndex" : 2, "expiryDelayMs" : 5000}
   * }</pre>
   *
   * @param operatorId the stateful operator id: the state directory {@code state/<id>/}
   * @param keys the input columns that identify a duplicate
   * @param orderIndex the column whose least value wins among a batch's rows, or -1 (arrival)
   * @param nullsFirst whether its NULLs come first
   * @param eventTimeIndex the watermark column, whose late rows are dropped, or -1
   * @param expiryIndex the column that, plus {@code expiryDelayMs}, tells when a key expires, or
   *     -1 to keep keys forever
   * @param expiryDelayMs added to the expiry column's value
   */
  record Deduplicate(int operatorId, List<Integer> keys, int orderIndex, boolean nullsFirst,
      int eventTimeIndex, int expiryIndex, long expiryDelayMs) implements ExecOperator {
    static final String KIND = "deduplicate";

    public Deduplicate {
      keys = List.copyOf(keys);
    }

    @Override public String kind() {
      return KIND;
    }
  }

  /**
   * An aggregation by session window: per batch, each row's session {@code [t, t + gapMs)} is
   * merged into the sessions of its key kept in the state store of operator {@code operatorId},
   * sessions that overlap or touch merging; emits in {@code outputMode} (APPEND: a session once
   * the watermark passes its end; COMPLETE: every session). Its rows are the grouping columns,
   * the session's bounds at {@code startKey} and {@code endKey}, then the aggregates.
   *
   * <pre>{@code
   * {"kind" : "session-aggregate", "operatorId" : 0, "groupSet" : [0, 3], "startKey" : 1,
   *  "endKey" : -1, "gapMs" : 5000, ...}
   * }</pre>
   *
   * @param operatorId the stateful operator id: the state directory {@code state/<id>/}
   * @param groupSet the grouping columns of the input, ascending, the session's bounds among them
   * @param startKey position in {@code groupSet} of the session's start, or -1
   * @param endKey position in {@code groupSet} of the session's end, or -1
   * @param gapMs the session gap
   * @param partialCalls the aggregates over input rows
   * @param mergeCalls the aggregates that merge partial values, one per partial call
   * @param outputMode APPEND or COMPLETE
   * @param statePartitions the number of state partitions
   */
  record SessionAggregate(int operatorId, List<Integer> groupSet, int startKey, int endKey,
      long gapMs, List<AggregateCallSpec> partialCalls, List<AggregateCallSpec> mergeCalls,
      OutputMode outputMode, int statePartitions) implements ExecOperator {
    static final String KIND = "session-aggregate";

    public SessionAggregate {
      groupSet = List.copyOf(groupSet);
      partialCalls = List.copyOf(partialCalls);
      mergeCalls = List.copyOf(mergeCalls);
      requireNonNull(outputMode, "outputMode");
    }

    @Override public String kind() {
      return KIND;
    }
  }

  /**
   * Keeps the {@code limit} best rows of each group in the state store of operator
   * {@code operatorId} and emits them with their rank: {@code ROW_NUMBER() OVER (PARTITION BY
   * keys ORDER BY order) <= limit} of a stream. Rows are the input's, then the rank, then (with
   * {@code newKeyFlag}) whether the rank is new.
   *
   * <pre>{@code
   * {"kind" : "top-n", "operatorId" : 0, "keys" : [0],
   *  "order" : [{"index" : 1, "descending" : true, "nullsFirst" : false}], "limit" : 3,
   *  "outputMode" : "UPDATE", "newKeyFlag" : true}
   * }</pre>
   *
   * @param operatorId the stateful operator id: the state directory {@code state/<id>/}
   * @param keys the input columns that make a group
   * @param order the ORDER BY columns of the ranking
   * @param limit the most rows kept per group
   * @param outputMode UPDATE (the ranks a batch changed) or COMPLETE (every rank)
   * @param newKeyFlag whether rows end with the new-rank flag
   */
  record TopN(int operatorId, List<Integer> keys, List<SortField> order, long limit,
      OutputMode outputMode, boolean newKeyFlag) implements ExecOperator {
    static final String KIND = "top-n";

    public TopN {
      keys = List.copyOf(keys);
      order = List.copyOf(order);
      requireNonNull(outputMode, "outputMode");
    }

    @Override public String kind() {
      return KIND;
    }
  }
}
