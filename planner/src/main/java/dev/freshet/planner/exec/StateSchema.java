package dev.freshet.planner.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

/**
 * The state store of a stateful {@link ExecNode}: where its state lives and how its keys and
 * values are laid out. A restarted query can read the state its checkpoint holds only if the
 * running code plans the same schema (Spark's {@code StateSchemaCompatibilityChecker}).
 *
 * @param operatorId the stateful operator id the planner assigned; the state directory
 *     {@code state/<operatorId>/} of the checkpoint
 * @param name the state's stable name, e.g. {@code aggregate}
 * @param key the columns of a state key, in order
 * @param value the columns of a state value, in order
 */
public record StateSchema(int operatorId, String name, List<ExecColumn> key,
    List<ExecColumn> value) {
  /** The stable name of a streaming aggregation's state. */
  public static final String AGGREGATE_STATE = "aggregate";
  /** The stable name of a stream-stream join's state. */
  public static final String JOIN_STATE = "symmetric-hash-join";
  /** The stable name of a deduplication's state. */
  public static final String DEDUPLICATE_STATE = "deduplicate";
  /** The stable name of an aggregation by session window's state. */
  public static final String SESSION_STATE = "session-window";
  /** The stable name of a top-N's state. */
  public static final String TOP_N_STATE = "top-n";

  public StateSchema {
    if (operatorId < 0) {
      throw new IllegalArgumentException("operatorId must not be negative: " + operatorId);
    }
    requireNonNull(name, "name");
    key = List.copyOf(key);
    value = List.copyOf(value);
  }

  /**
   * The state {@code aggregate} keeps, as this code lays it out: its grouping columns as key and,
   * as value, one accumulator per merge call, named and typed as the aggregate's output column.
   *
   * @param aggregate the operator
   * @param input the columns of the rows it reads
   * @param output the columns of the rows it emits: keys, then one per merge call
   * @throws IllegalArgumentException if a grouping column or an aggregate has no such column
   */
  public static StateSchema of(ExecOperator.StatefulAggregate aggregate, List<ExecColumn> input,
      List<ExecColumn> output) {
    List<ExecColumn> key = new ArrayList<>();
    for (int column : aggregate.groupSet()) {
      if (column < 0 || column >= input.size()) {
        throw new IllegalArgumentException("grouping column $" + column + " is not one of the "
            + input.size() + " input columns");
      }
      ExecColumn c = input.get(column);
      key.add(new ExecColumn(c.name(), c.type(), null));
    }
    List<ExecColumn> value = new ArrayList<>();
    List<ExecOperator.AggregateCallSpec> calls = aggregate.mergeCalls();
    if (output.size() < key.size() + calls.size()) {
      throw new IllegalArgumentException(calls.size() + " aggregates over " + key.size()
          + " grouping columns, but only " + output.size() + " output columns");
    }
    for (int i = 0; i < calls.size(); i++) {
      ExecOperator.AggregateCallSpec call = calls.get(i);
      ExecColumn column = output.get(key.size() + i);
      value.add(new ExecColumn(column.name(), column.type(),
          call.function() + (call.distinct() ? " DISTINCT" : "")));
    }
    return new StateSchema(aggregate.operatorId(), AGGREGATE_STATE, key, value);
  }

  /**
   * The state {@code join} keeps: its key columns (the left input's names and types) as key,
   * and as value the rows of both inputs, the left's columns then the right's.
   *
   * @throws IllegalArgumentException if a key is not a column of its input
   */
  public static StateSchema of(ExecOperator.StreamJoin join, List<ExecColumn> left,
      List<ExecColumn> right) {
    List<ExecColumn> key = new ArrayList<>();
    for (int column : join.leftKeys()) {
      if (column < 0 || column >= left.size()) {
        throw new IllegalArgumentException("join key $" + column + " is not one of the "
            + left.size() + " left input columns");
      }
      key.add(new ExecColumn(left.get(column).name(), left.get(column).type(), null));
    }
    for (int column : join.rightKeys()) {
      if (column < 0 || column >= right.size()) {
        throw new IllegalArgumentException("join key $" + column + " is not one of the "
            + right.size() + " right input columns");
      }
    }
    List<ExecColumn> value = new ArrayList<>();
    for (ExecColumn c : left) {
      value.add(new ExecColumn(c.name(), c.type(), null));
    }
    for (ExecColumn c : right) {
      value.add(new ExecColumn(c.name(), c.type(), null));
    }
    return new StateSchema(join.operatorId(), JOIN_STATE, key, value);
  }

  /**
   * The state {@code dedup} keeps: its key columns as key and, as value, the time at which the
   * key expires ({@code expiresAt}, NULL for a key kept forever).
   *
   * @throws IllegalArgumentException if a key is not a column of its input
   */
  public static StateSchema of(ExecOperator.Deduplicate dedup, List<ExecColumn> input) {
    List<ExecColumn> key = new ArrayList<>();
    for (int column : dedup.keys()) {
      if (column < 0 || column >= input.size()) {
        throw new IllegalArgumentException("deduplication key $" + column + " is not one of the "
            + input.size() + " input columns");
      }
      key.add(new ExecColumn(input.get(column).name(), input.get(column).type(), null));
    }
    return new StateSchema(dedup.operatorId(), DEDUPLICATE_STATE, key,
        List.of(new ExecColumn("expiresAt", "TIMESTAMP(3)", null)));
  }

  /**
   * The state {@code session} keeps: the grouping columns but the session's bounds as key and,
   * as value, the key's sessions, each its start, its end and one accumulator per merge call.
   *
   * @param session the operator
   * @param input the columns of the rows it reads
   * @param output the columns of the rows it emits: grouping columns, then one per merge call
   * @throws IllegalArgumentException if a grouping column or an aggregate has no such column
   */
  public static StateSchema of(ExecOperator.SessionAggregate session, List<ExecColumn> input,
      List<ExecColumn> output) {
    List<Integer> groups = session.groupSet();
    List<ExecColumn> key = new ArrayList<>();
    List<ExecColumn> value = new ArrayList<>();
    value.add(new ExecColumn("session_start", "BIGINT NOT NULL", null));
    value.add(new ExecColumn("session_end", "BIGINT NOT NULL", null));
    for (int i = 0; i < groups.size(); i++) {
      int column = groups.get(i);
      if (column < 0 || column >= input.size()) {
        throw new IllegalArgumentException("grouping column $" + column + " is not one of the "
            + input.size() + " input columns");
      }
      if (i != session.startKey() && i != session.endKey()) {
        key.add(new ExecColumn(input.get(column).name(), input.get(column).type(), null));
      }
    }
    List<ExecOperator.AggregateCallSpec> calls = session.mergeCalls();
    if (output.size() < groups.size() + calls.size()) {
      throw new IllegalArgumentException(calls.size() + " aggregates over " + groups.size()
          + " grouping columns, but only " + output.size() + " output columns");
    }
    for (int i = 0; i < calls.size(); i++) {
      ExecOperator.AggregateCallSpec call = calls.get(i);
      ExecColumn column = output.get(groups.size() + i);
      value.add(new ExecColumn(column.name(), column.type(),
          call.function() + (call.distinct() ? " DISTINCT" : "")));
    }
    return new StateSchema(session.operatorId(), SESSION_STATE, key, value);
  }

  /**
   * The state {@code topN} keeps: its key columns and the rank as key and, as value, the input
   * row at that rank.
   *
   * @throws IllegalArgumentException if a key is not a column of its input
   */
  public static StateSchema of(ExecOperator.TopN topN, List<ExecColumn> input) {
    List<ExecColumn> key = new ArrayList<>();
    for (int column : topN.keys()) {
      if (column < 0 || column >= input.size()) {
        throw new IllegalArgumentException("top-N key $" + column + " is not one of the "
            + input.size() + " input columns");
      }
      key.add(new ExecColumn(input.get(column).name(), input.get(column).type(), null));
    }
    key.add(new ExecColumn("rank", "BIGINT", null));
    List<ExecColumn> value = new ArrayList<>();
    for (ExecColumn column : input) {
      value.add(new ExecColumn(column.name(), column.type(), null));
    }
    return new StateSchema(topN.operatorId(), TOP_N_STATE, key, value);
  }
}
