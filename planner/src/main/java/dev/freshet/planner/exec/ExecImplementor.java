package dev.freshet.planner.exec;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.operators.AggregateCall;
import dev.freshet.executor.operators.BatchTimeOperator;
import dev.freshet.executor.operators.EventTimeKey;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.operators.RowCalc;
import dev.freshet.executor.operators.RowErrors;
import dev.freshet.executor.operators.SessionWindowSpec;
import dev.freshet.executor.operators.StatefulAggregateSpec;
import dev.freshet.executor.operators.StatefulOperator;
import dev.freshet.executor.source.Source;
import dev.freshet.executor.source.SupportsQueryReaders;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.StateStoreProviderFactory;
import dev.freshet.planner.catalog.ReferenceTable;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.ViewChangelog;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.Function;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexProgram;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What every planner of one {@link ExecPlanBuilder} shares, as Calcite's {@code RelImplementor}
 * is shared by the rels it implements: the query's settings (state stores, input tasks, row
 * errors, state TTL), the calc compiler with the batch's time, and the translation of the exec
 * plan's specs into the executor's.
 *
 * <p>The builder's {@code with*} methods change the settings; the planners read them when they
 * build, so a setting applies to the pipelines built from then on.
 */
final class ExecImplementor {
  final JavaTypeFactory typeFactory;
  /** What the calcs read as the current time: the batch's (see {@link #clocked}). */
  private final BatchTime batchTime;
  /** Whether a calc compiled so far reads the batch's time. */
  private boolean readsBatchTime;
  private final String queryId;
  private final StateStoreProviderFactory stateStores;
  final @Nullable Executor partitionExecutor;
  final int inputTasks;
  /** What the calcs do with a row whose expressions fail. */
  RowErrors rowErrors = RowErrors.failing();
  /** The state TTL of the stateful operators, 0 for none. */
  long stateTtlMs;
  /** Whether plans that can read vector batches get a columnar input. */
  boolean columnar = true;
  /** Finds the reference tables that stream-table joins read; none by default. */
  Function<String, Optional<ReferenceTable>> tables = name -> Optional.empty();

  ExecImplementor(JavaTypeFactory typeFactory, String queryId,
      StateStoreProviderFactory stateStores, @Nullable Executor partitionExecutor,
      int inputTasks) {
    this.typeFactory = requireNonNull(typeFactory, "typeFactory");
    this.batchTime = new BatchTime(typeFactory);
    this.queryId = requireNonNull(queryId, "queryId");
    this.stateStores = requireNonNull(stateStores, "stateStores");
    this.partitionExecutor = partitionExecutor;
    this.inputTasks = inputTasks;
  }

  /** Compiles {@code program}, noting whether it reads the batch's time. */
  RowCalc compile(RexProgram program) {
    if (BatchTime.reads(program)) {
      readsBatchTime = true;
    }
    return CalcCompiler.compile(program, typeFactory, batchTime);
  }

  /**
   * The head of a chain: {@code head} itself, or, when a calc of the plan reads the current time,
   * {@code head} behind a {@link BatchTimeOperator} that sets the batch's time first. Called once
   * the chain's calcs are compiled.
   */
  Operator clocked(Operator head) {
    return readsBatchTime ? new BatchTimeOperator(batchTime::startBatch, head) : head;
  }

  /** Gives each of {@code operators} the builder's state TTL; returns them. */
  <T extends StatefulOperator> List<T> expiring(List<T> operators) {
    for (StatefulOperator op : operators) {
      op.expireStateAfter(stateTtlMs);
    }
    return operators;
  }

  /** The program of a calc {@code node} reading {@code input}, checked against both. */
  RexProgram program(ExecOperator.Calc calc, ExecNode node, ExecNode input) {
    RexProgram program = RexProgramJson.read(calc.program(), typeFactory);
    if (program.getOutputRowType().getFieldCount() != node.output().size()
        || program.getInputRowType().getFieldCount() != input.output().size()) {
      throw new UnreadablePlanException("calc " + node.id() + " reads "
          + program.getInputRowType().getFieldCount() + " columns and emits "
          + program.getOutputRowType().getFieldCount() + ", but its plan gives it "
          + input.output().size() + " and " + node.output().size(), null);
    }
    return program;
  }

  /** The state store provider of partition {@code partition} of operator {@code operatorId}. */
  StateStoreProvider<Object, Object[]> stateStore(int operatorId, int partition) {
    return stateStores.create(new StateStoreId(queryId, operatorId, partition));
  }

  List<StateStoreProvider<Object, Object[]>> providers(ExecOperator.StatefulAggregate aggregate) {
    return providers(aggregate.operatorId(), aggregate.statePartitions());
  }

  List<StateStoreProvider<Object, Object[]>> providers(int operatorId, int partitions) {
    List<StateStoreProvider<Object, Object[]>> providers = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      providers.add(stateStore(operatorId, p));
    }
    return providers;
  }

  /** The executor's spec of {@code aggregate}, over a retracting input if {@code retracts}. */
  StatefulAggregateSpec spec(ExecOperator.StatefulAggregate aggregate, boolean retracts) {
    StatefulAggregateSpec spec = spec(aggregate);
    return retracts ? spec.withRetractingInput() : spec;
  }

  StatefulAggregateSpec spec(ExecOperator.StatefulAggregate aggregate) {
    ExecOperator.EventTimeKeySpec eventTime = aggregate.eventTimeKey();
    return new StatefulAggregateSpec(aggregate.operatorId(),
        ints(aggregate.groupSet()),
        calls(aggregate.partialCalls()), calls(aggregate.mergeCalls()), aggregate.outputMode(),
        aggregate.statePartitions(), eventTime == null ? null
            : new EventTimeKey(eventTime.keyIndex(), eventTime.offsetMs()),
        aggregate.newKeyFlag());
  }

  SessionWindowSpec sessionSpec(ExecOperator.SessionAggregate session) {
    return new SessionWindowSpec(session.operatorId(),
        ints(session.groupSet()), session.startKey(),
        session.endKey(), session.gapMs(), calls(session.partialCalls()),
        calls(session.mergeCalls()), session.outputMode(), session.statePartitions());
  }

  /** Checks that {@code nodes} start with a scan of {@code stream} as it is declared now. */
  void checkScan(List<ExecNode> nodes, StreamTable stream) {
    if (nodes.isEmpty() || !(nodes.get(0).operator() instanceof ExecOperator.Scan scan)) {
      throw new UnreadablePlanException("it does not start with a scan of a stream", null);
    }
    if (!scan.stream().equals(stream.name())) {
      throw new UnreadablePlanException("it reads stream " + scan.stream() + ", not "
          + stream.name(), null);
    }
    List<ExecColumn> declared = new ArrayList<>();
    for (RelDataTypeField field : stream.getRowType(typeFactory).getFieldList()) {
      declared.add(new ExecColumn(field.getName(), ExecPlanGenerator.typeName(field.getType()),
          null));
    }
    if (!declared.equals(nodes.get(0).output())) {
      throw new UnreadablePlanException("it reads stream " + stream.name() + " with columns "
          + nodes.get(0).output() + ", but the stream is declared with " + declared, null);
    }
  }

  /**
   * The source a pipeline reads {@code stream} from: a source with positions per query (a Kafka
   * topic) gets a reader for this query alone. Made last: a query reader opens connections,
   * which nothing above may leave open by failing.
   */
  static Source sourceOf(StreamTable stream) {
    return stream.source() instanceof SupportsQueryReaders shared
        ? shared.newQueryReader() : stream.source();
  }

  /** The stream the one scan of a plan reads. */
  static StreamTable streamOf(List<ExecNode> scans, List<StreamTable> streams) {
    if (scans.isEmpty()) {
      throw new UnreadablePlanException("it does not start with a scan of a stream", null);
    }
    String name = ((ExecOperator.Scan) scans.get(0).operator()).stream();
    for (StreamTable stream : streams) {
      if (stream.name().equals(name)) {
        return stream;
      }
    }
    throw new UnreadablePlanException("it reads stream " + name + ", which is not one of "
        + streams.stream().map(StreamTable::name).toList(), null);
  }

  /**
   * Whether {@code plan} reads one stream, and it is the retracting changes of a view
   * ({@link ViewChangelog}).
   */
  static boolean retracts(ExecPlan plan, List<StreamTable> streams) {
    if (plan.hasSeveralInputs() || plan.scans().isEmpty()) {
      return false;
    }
    String name = ((ExecOperator.Scan) plan.scans().get(0).operator()).stream();
    return streams.stream().anyMatch(s -> s.name().equals(name)
        && s instanceof ViewChangelog changes && changes.retracts());
  }

  /**
   * Checks that {@code node} reads {@code input} alone.
   *
   * @throws UnreadablePlanException if it does not
   */
  static void checkSingleInput(ExecNode node, ExecNode input) {
    if (node.inputIds().size() != 1 || node.inputIds().get(0) != input.id()) {
      throw new UnreadablePlanException("operator " + node.id() + " (" + node.kind()
          + ") reads nodes " + node.inputIds() + ", where one input, node " + input.id()
          + ", was expected", null);
    }
  }

  static List<AggregateCall> calls(List<ExecOperator.AggregateCallSpec> specs) {
    List<AggregateCall> calls = new ArrayList<>();
    for (ExecOperator.AggregateCallSpec call : specs) {
      calls.add(new AggregateCall(call.function(), call.arg(), call.resultKind(),
          call.distinct(), call.filterArg()));
    }
    return calls;
  }

  static int[] ints(List<Integer> values) {
    return values.stream().mapToInt(Integer::intValue).toArray();
  }
}
