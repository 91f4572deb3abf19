package dev.freshet.engine;

import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.options.SessionOptions;
import dev.freshet.engine.push.PushPolicy;
import dev.freshet.engine.push.PushQuery;
import dev.freshet.engine.push.UpsertKeys;
import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.engine.query.ResultColumn;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.executor.limits.QueryResources;
import dev.freshet.executor.operators.OutputMode;
import dev.freshet.executor.runtime.MicroBatchExecution;
import dev.freshet.executor.runtime.StreamingPipeline;
import dev.freshet.executor.state.providers.StateStoreProviders;
import dev.freshet.planner.PlannedQuery;
import dev.freshet.planner.catalog.ReferenceTable;
import dev.freshet.planner.catalog.ViewTable;
import dev.freshet.planner.exec.ExecPlanBuilder;
import dev.freshet.planner.rel.StreamTopN;
import dev.freshet.sql.parser.EmitMode;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Starts a push query ({@code SELECT STREAM ...}): its result is a {@link PushQuery} the client
 * reads while the query runs, in memory and unchecked, until the client closes it or
 * {@code STOP QUERY} stops it. A push query that reads a view's changes as they are
 * subscribes to the view instead ({@link ViewFeed}).
 *
 * <pre>{@code
 * SELECT STREAM user_id, COUNT(*) AS n FROM clicks GROUP BY user_id EMIT UPDATE
 * }</pre>
 */
final class PushQuerySetup {
  private PushQuerySetup() {
  }

  static StatementResult start(StatementContext context, SqlNode query, @Nullable EmitMode emit)
      throws SQLException {
    Engine engine = context.engine();
    SessionOptions options = context.options();
    Optional<Map.Entry<ViewTable, Long>> feed = ViewFeed.match(engine, query);
    if (feed.isPresent()) {
      ViewFeed.checkEmit(feed.get().getKey(), emit);
      StatementResult.Push opened = ViewFeed.open(engine, options, feed.get().getKey(),
          feed.get().getValue());
      engine.access().watch(opened.query().query().id(), context.principal(),
          Set.of(feed.get().getKey().name()), opened.query());
      return opened;
    }
    PlannedQuery plan = Errors.fromPlanner(
        () -> engine.planner().planQuery(query, emit, options.statePartitions(),
            options.maxWindowsPerRow()));
    // An aggregation's UPDATE or COMPLETE rows carry their group key (and in UPDATE mode whether
    // the group is new) as hidden columns, a top-N's rows their group and rank: what the
    // PushQuery needs to coalesce rows per key and to tell INSERT from UPDATE and DELETE. Other
    // results only ever insert.
    PushPolicy policy = new PushPolicy.Append(options.pushBufferRows());
    PlannedQuery run = plan;
    if ((plan.aggregating() || StreamTopN.in(plan.physical()))
        && plan.outputMode() != OutputMode.APPEND) {
      UpsertKeys.Hidden hidden = UpsertKeys.appendPushColumns(plan);
      run = hidden.plan();
      policy = plan.outputMode() == OutputMode.UPDATE
          ? new PushPolicy.Upsert(hidden.keyColumns(), hidden.newKeyColumn())
          : new PushPolicy.Table(hidden.keyColumns());
    }
    String id = UUID.randomUUID().toString();
    PlannedQuery toRun = run;
    StreamingPipeline pipeline = Errors.fromPlanner(() ->
        new ExecPlanBuilder(engine.planner().typeFactory(), id,
            StateStoreProviders.inMemory(), engine.resources().partitionExecutor(),
            engine.resources().inputTasks()).withRowErrors(options.onError().newRowErrors())
            .withTables(engine.catalog()).withStateTtl(options.stateTtlMs()).build(toRun));
    boolean markers = options.pushBatchMarkers();
    PushQuery push = new PushQuery(policy, plan.rowType().getFieldCount(), markers,
        engine.resources().scheduler());
    String name = "push-" + id.substring(0, 8);
    MicroBatchExecution execution = MicroBatchExecution.builder(id, name, pipeline, push.sink())
        .trigger(options.trigger())
        .resources(new QueryResources(name, options.queryMemoryBudget(), engine.memoryPool()))
        .restartStrategy(options.restartStrategy()).build();
    ContinuousQuery continuous = new ContinuousQuery(execution, context.sql(),
        plan.outputMode(), null, engine.queryRegistry()::unregister, push);
    push.attach(continuous);
    engine.queryRegistry().readsTables(id, ReferenceTable.readBy(plan.logical()));
    engine.access().watch(id, context.principal(), StatementPrivileges.reads(engine, query),
        push);
    engine.queryRegistry().registerPush(continuous);
    continuous.start();
    return new StatementResult.Push(columns(plan.rowType(), markers), push);
  }

  /** The columns of a push query's result: its own, then the two trailing ones. */
  static List<ResultColumn> columns(RelDataType rowType, boolean markers) {
    List<ResultColumn> columns = new ArrayList<>();
    for (RelDataTypeField field : rowType.getFieldList()) {
      ResultColumn column = ResultColumn.of(field);
      // A batch marker has NULL in every data column.
      columns.add(markers && !column.nullable() ? column.asNullable() : column);
    }
    columns.add(ResultColumn.bigint(PushQuery.BATCH_ID).asNotNull());
    columns.add(ResultColumn.varchar(PushQuery.ROW_KIND, 9).asNotNull());
    return columns;
  }
}
