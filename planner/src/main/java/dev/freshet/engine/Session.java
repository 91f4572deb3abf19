package dev.freshet.engine;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.runtime.BoundedExecution;
import dev.freshet.executor.runtime.MicroBatchExecution;
import dev.freshet.executor.runtime.StreamingPipeline;
import dev.freshet.executor.runtime.StreamingQuery;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.PlannedQuery;
import dev.freshet.planner.PlannerErrors;
import dev.freshet.planner.exec.ExecPlanBuilder;
import dev.freshet.sql.parser.EmitMode;
import dev.freshet.sql.parser.FreshetSqlParser;
import dev.freshet.sql.parser.SqlCreateStream;
import dev.freshet.sql.parser.SqlDropStream;
import dev.freshet.sql.parser.SqlEmit;
import dev.freshet.sql.parser.SqlSetProperty;
import dev.freshet.sql.parser.SqlShow;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.apache.calcite.DataContexts;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlDescribeTable;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A conversation with an {@link Engine}: executes SQL statements one at a time, with options of its
 * own (set by {@code SET 'key' = 'value'}).
 *
 * <pre>{@code
 * StatementResult r = session.execute(
 *     "SELECT STREAM user_id, COUNT(*) FROM clicks GROUP BY user_id EMIT UPDATE");
 * }</pre>
 */
public final class Session {
  /** Option: number of state partitions of continuous queries this session starts. */
  public static final String STATE_PARTITIONS = "state.partitions";

  private final Engine engine;
  private int statePartitions = 1;

  Session(Engine engine) {
    this.engine = requireNonNull(engine, "engine");
  }

  /** The engine this session runs on. */
  public Engine engine() {
    return engine;
  }

  /**
   * Parses and executes one statement.
   *
   * @throws SQLException with a SQLSTATE and a message that says how to fix the statement
   */
  public StatementResult execute(String sql) throws SQLException {
    SqlNode node = parse(sql);
    FreshetPlanner planner = engine.planner();
    if (node instanceof SqlCreateStream) {
      StreamDdl.create(planner, (SqlCreateStream) node);
      return new StatementResult.UpdateCount(0);
    }
    if (node instanceof SqlDropStream) {
      StreamDdl.drop(planner, (SqlDropStream) node);
      return new StatementResult.UpdateCount(0);
    }
    if (node instanceof SqlInsert) {
      return new StatementResult.UpdateCount(InsertExecutor.insert(planner, (SqlInsert) node));
    }
    if (node instanceof SqlExplain) {
      return explain((SqlExplain) node);
    }
    if (node instanceof SqlSetProperty) {
      set((SqlSetProperty) node);
      return new StatementResult.UpdateCount(0);
    }
    if (node instanceof SqlShow && ((SqlShow) node).kind() == SqlShow.Kind.STREAMS) {
      return showStreams();
    }
    if (node instanceof SqlDescribeTable) {
      return describe((SqlDescribeTable) node);
    }
    if (node instanceof SqlEmit) {
      SqlEmit emit = (SqlEmit) node;
      return push(emit.query(), emit.mode());
    }
    if (node.isA(SqlKind.QUERY)) {
      return FreshetPlanner.isStreamQuery(node) ? push(node, null) : bounded(node);
    }
    throw PlannerErrors.notSupported("Statement " + node.getKind() + " is not supported yet");
  }

  private static SqlNode parse(String sql) throws SQLException {
    try {
      return FreshetSqlParser.parse(sql);
    } catch (SqlParseException e) {
      SqlParserPos pos = e.getPos();
      String message = String.valueOf(e.getMessage());
      int newline = message.indexOf('\n');
      String first = newline < 0 ? message : message.substring(0, newline);
      // Calcite ends its first line with the position, which the error names already.
      first = first.replaceFirst(" at line \\d+, column \\d+\\.?$", ".");
      throw PlannerErrors.parseError(first, pos == null ? 0 : pos.getLineNum(),
          pos == null ? 0 : pos.getColumnNum(), e);
    }
  }

  private StatementResult push(SqlNode query, @Nullable EmitMode emit) throws SQLException {
    PlannedQuery plan = engine.planner().planQuery(query, emit, statePartitions);
    String id = UUID.randomUUID().toString();
    StreamingPipeline pipeline =
        new ExecPlanBuilder(engine.planner().typeFactory(), DataContexts.EMPTY, id).build(plan);
    PushQuery push = new PushQuery();
    MicroBatchExecution execution = new MicroBatchExecution(id, "push-" + id.substring(0, 8),
        pipeline, push.sink(), System::currentTimeMillis);
    push.attach(new RegisteredQuery(execution));
    engine.register(push.query());
    execution.start();
    return new StatementResult.Push(columns(plan.rowType()), push);
  }

  private StatementResult bounded(SqlNode query) throws SQLException {
    PlannedQuery plan = engine.planner().planQuery(query, null, 1);
    StreamingPipeline pipeline = new ExecPlanBuilder(engine.planner().typeFactory(),
        DataContexts.EMPTY, "bounded-" + UUID.randomUUID()).build(plan);
    List<Object[]> rows = BoundedExecution.run(pipeline, System.currentTimeMillis());
    return new StatementResult.Rows(columns(plan.rowType()), rows);
  }

  private StatementResult explain(SqlExplain explain) throws SQLException {
    SqlNode explicandum = explain.getExplicandum();
    EmitMode mode = null;
    if (explicandum instanceof SqlEmit) {
      mode = ((SqlEmit) explicandum).mode();
      explicandum = ((SqlEmit) explicandum).query();
    }
    PlannedQuery plan = engine.planner().planQuery(explicandum, mode, statePartitions);
    String text = RelOptUtil.toString(plan.logical());
    return new StatementResult.Rows(List.of(ResultColumn.varchar("PLAN", 4096)),
        List.<Object[]>of(new Object[] {text}));
  }

  private void set(SqlSetProperty set) throws SQLException {
    String key = set.key().toLowerCase(Locale.ROOT);
    if (!key.equals(STATE_PARTITIONS)) {
      throw PlannerErrors.invalidDefinition("Unknown option '" + set.key() + "'. Options: "
          + STATE_PARTITIONS);
    }
    String value = set.value();
    int partitions;
    try {
      partitions = value == null ? 1 : Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      partitions = 0;
    }
    if (partitions < 1 || partitions > 1024) {
      throw PlannerErrors.invalidDefinition("Option '" + STATE_PARTITIONS + "' must be an integer"
          + " from 1 to 1024, not '" + value + "'");
    }
    statePartitions = partitions;
  }

  private StatementResult showStreams() {
    List<Object[]> rows = new ArrayList<>();
    for (String name : engine.catalog().streamNames()) {
      rows.add(new Object[] {name});
    }
    return new StatementResult.Rows(List.of(ResultColumn.varchar("STREAM_NAME", 128)), rows);
  }

  private StatementResult describe(SqlDescribeTable describe) throws SQLException {
    var stream = engine.planner().stream(describe.getTable());
    RelDataType rowType = stream.getRowType(engine.planner().typeFactory());
    List<Object[]> rows = new ArrayList<>();
    for (RelDataTypeField field : rowType.getFieldList()) {
      rows.add(new Object[] {field.getName(), field.getType().getFullTypeString(),
          stream.watermark().filter(w -> w.column().equals(field.getName()))
              .map(w -> "WATERMARK " + w.delayMs() + " ms").orElse(null)});
    }
    return new StatementResult.Rows(List.of(ResultColumn.varchar("COLUMN_NAME", 128),
        ResultColumn.varchar("TYPE", 64), ResultColumn.varchar("WATERMARK", 64)), rows);
  }

  private static List<ResultColumn> columns(RelDataType rowType) {
    List<ResultColumn> columns = new ArrayList<>();
    for (RelDataTypeField field : rowType.getFieldList()) {
      columns.add(ResultColumn.of(field));
    }
    return columns;
  }

  /** Removes the query from the engine's registry when it is stopped. */
  private final class RegisteredQuery implements StreamingQuery {
    private final MicroBatchExecution delegate;

    RegisteredQuery(MicroBatchExecution delegate) {
      this.delegate = delegate;
    }

    @Override public String id() {
      return delegate.id();
    }

    @Override public String name() {
      return delegate.name();
    }

    @Override public dev.freshet.executor.runtime.QueryStatus status() {
      return delegate.status();
    }

    @Override public long lastBatchId() {
      return delegate.lastBatchId();
    }

    @Override public java.util.Optional<Throwable> exception() {
      return delegate.exception();
    }

    @Override public boolean processAllAvailable(java.time.Duration timeout)
        throws InterruptedException {
      return delegate.processAllAvailable(timeout);
    }

    @Override public List<dev.freshet.executor.runtime.StreamingQueryProgress> recentProgress() {
      return delegate.recentProgress();
    }

    @Override public void stop() {
      delegate.stop();
      engine.unregister(this);
    }
  }
}
