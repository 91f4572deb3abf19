package dev.freshet.planner;

import static java.util.Objects.requireNonNull;
import static org.apache.calcite.util.Static.RESOURCE;

import dev.freshet.common.errors.SqlState;
import dev.freshet.executor.operators.OutputMode;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.WatermarkSpec;
import dev.freshet.planner.errors.PlannerErrors;
import dev.freshet.planner.errors.PlanningException;
import dev.freshet.planner.rel.StatefulOperatorIds;
import dev.freshet.planner.rel.StreamTopN;
import dev.freshet.planner.rel.StreamingRels;
import dev.freshet.planner.rel.TimeWindow;
import dev.freshet.planner.rel.logical.LogicalEventTimeWatermark;
import dev.freshet.planner.rules.FreshetRules;
import dev.freshet.planner.rules.RowNumberFilter;
import dev.freshet.planner.rules.SessionWindows;
import dev.freshet.planner.rules.StreamStreamJoins;
import dev.freshet.planner.rules.StreamingAggregateRule;
import dev.freshet.sql.parser.EmitMode;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.plan.ConventionTraitDef;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.plan.volcano.VolcanoPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.metadata.RelColumnOrigin;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSelectKeyword;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.ConvertToChecked;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.sql2rel.StandardConvertletTable;
import org.apache.calcite.util.Pair;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Validates queries over a {@link Catalog} and plans them for streaming execution.
 *
 * <p>Planning runs in three phases: Calcite's validator and {@code SqlToRelConverter} produce a
 * logical plan; the output-mode checker rejects queries that cannot run in the requested mode;
 * {@link StreamingAggregateRule} turns the aggregate into the stateful chain; finally filters and
 * projections are merged into {@code Calc}s that the executor compiles.
 *
 * <pre>{@code
 * FreshetPlanner planner = new FreshetPlanner(catalog);
 * PlannedQuery q = planner.planQuery(sqlNode, EmitMode.UPDATE, 1);
 * }</pre>
 */
public final class FreshetPlanner {
  /** Name of the schema that holds the streams; it is the default schema of every session. */
  public static final String SCHEMA = "FRESHET";
  /**
   * The most windows a HOP may put one row in, unless a query is planned with another limit:
   * 10,000 admits a day sliding every 10 seconds (8,640) or an hour sliding every second, and
   * bounds the rows one input row becomes to what the window operator emits in well under a
   * millisecond.
   */
  public static final int DEFAULT_MAX_WINDOWS_PER_ROW = 10_000;

  private final Catalog catalog;
  private final JavaTypeFactory typeFactory = new JavaTypeFactoryImpl(FreshetTypeSystem.INSTANCE);
  private final CalciteSchema rootSchema;

  public FreshetPlanner(Catalog catalog) {
    this.catalog = requireNonNull(catalog, "catalog");
    this.rootSchema = CalciteSchema.createRootSchema(false, false);
    this.rootSchema.add(SCHEMA, catalog);
  }

  /** The type factory of every plan this planner makes. */
  public JavaTypeFactory typeFactory() {
    return typeFactory;
  }

  /** The catalog queries resolve names against. */
  public Catalog catalog() {
    return catalog;
  }

  /**
   * {@code root} as Freshet runs what SqlToRelConverter made of a query: with integer
   * arithmetic that fails on overflow (SQLSTATE 22003) rather than wraps, as
   * {@link FreshetConformance} asks (what Calcite's own prepare step does for such a
   * conformance, and SqlToRelConverter alone does not), and with ISO 8601 texts cast to a
   * TIMESTAMP read ({@link IsoTimestampText}).
   */
  public static RelRoot converted(RelRoot root) {
    RelNode checked = new ConvertToChecked(root.rel.getCluster().getRexBuilder())
        .visit(root.rel);
    return root.withRel(IsoTimestampText.read(checked));
  }

  /**
   * Plans a query for streaming execution.
   *
   * @param query a query, possibly {@code SELECT STREAM} (the keyword is taken out here)
   * @param emit the {@code EMIT} mode, or null for the default (UPDATE if the query aggregates,
   *     APPEND otherwise)
   * @param numPartitions number of state partitions
   */
  public PlannedQuery planQuery(SqlNode query, @Nullable EmitMode emit, int numPartitions)
      throws PlanningException {
    return planQuery(query, emit, numPartitions, DEFAULT_MAX_WINDOWS_PER_ROW);
  }

  /**
   * Plans a query for streaming execution, refusing windows that put a row in more than
   * {@code maxWindowsPerRow} windows.
   *
   * @param query a query, possibly {@code SELECT STREAM} (the keyword is taken out here)
   * @param emit the {@code EMIT} mode, or null for the default (UPDATE if the query aggregates,
   *     APPEND otherwise)
   * @param numPartitions number of state partitions
   * @param maxWindowsPerRow the most windows a HOP may put one row in
   * @throws PlanningException (54000) if a HOP window exceeds {@code maxWindowsPerRow}, or the
   *     query cannot run as a stream
   */
  public PlannedQuery planQuery(SqlNode query, @Nullable EmitMode emit, int numPartitions,
      int maxWindowsPerRow) throws PlanningException {
    WindowedQuery windowedQuery = planWindowed(query, emit, maxWindowsPerRow);
    OutputMode mode = windowedQuery.outputMode();
    RelNode windowed = SessionWindows.plan(windowedQuery.rel(), mode, numPartitions);
    RelOptRule streamingAggregate = StreamingAggregateRule.Config.DEFAULT
        .withOutputMode(mode).withNumPartitions(numPartitions).toRule();
    RelNode logical = StatefulOperatorIds.assign(
        hep(windowed, streamingAggregate, CoreRules.PROJECT_REMOVE));
    RelNode physical = hep(logical, CoreRules.FILTER_TO_CALC, CoreRules.PROJECT_TO_CALC,
        CoreRules.CALC_MERGE, CoreRules.CALC_REMOVE);
    return new PlannedQuery(logical, physical, windowedQuery.rowType(), mode,
        windowedQuery.sources(), windowedQuery.aggregating());
  }

  /**
   * Plans a query as far as every engine shares: validated, normalized, its output mode checked,
   * watermarks above the scans and windows computed, but before Freshet's own stateful rules
   * (session merging, state-store restore and save), because another engine such as Spark plans
   * its own state.
   *
   * <pre>{@code
   * WindowedQuery q = planner.planWindowed(sqlNode, EmitMode.APPEND, 10_000);
   * q.rel();   // LogicalAggregate over LogicalTimeWindow over LogicalEventTimeWatermark ...
   * }</pre>
   *
   * @throws PlanningException as {@link #planQuery(SqlNode, EmitMode, int, int)}
   */
  public WindowedQuery planWindowed(SqlNode query, @Nullable EmitMode emit, int maxWindowsPerRow)
      throws PlanningException {
    rejectSortBelowTheTop(query);
    SqlNode node = SessionEnds.rewrite(withoutStreamKeyword(query));
    Converter converter = new Converter();
    // A view a continuous query reads is read as its changes, version by version.
    RelNode rel = ViewChangeScans.scanChanges(converter.toRel(node));
    if (!StreamingRels.isStreaming(rel) && readsStream(node) && aggregatesAnAggregation(node)) {
      // The conversion replaced the inner aggregation, whose value nothing reads, by a row.
      throw OutputModeChecker.chainedAggregation(
          emit == null ? OutputMode.UPDATE : OutputMode.valueOf(emit.name()), emit);
    }

    RelNode normalized = hep(hep(rel, CoreRules.AGGREGATE_PROJECT_MERGE,
        CoreRules.PROJECT_MERGE, CoreRules.PROJECT_REMOVE, CoreRules.FILTER_MERGE),
        FreshetRules.STREAM_DEDUPLICATE, FreshetRules.STREAM_TOP_N, CoreRules.PROJECT_MERGE,
        CoreRules.PROJECT_REMOVE);
    RowNumberFilter.rejectUnconverted(normalized);
    ViewChangeScans.check(normalized, emit);
    OutputMode mode = OutputModeChecker.check(normalized, emit);
    // A top-N emits by the query's mode, known only now.
    normalized = StreamTopN.inMode(normalized, mode);
    List<StreamTable> sources = streamsOf(normalized);

    // Event time and windows enter the plan after the checker, which reads the query as written.
    // A join's condition is split once whole (also what WHERE adds to it) and once the windows
    // are in the plan, whose ends carry event time: its equal keys, the range of event times
    // that lets its state go, and the rest.
    RelNode windowed = StreamStreamJoins.plan(hep(withWatermarks(normalized),
        CoreRules.FILTER_INTO_JOIN, FreshetRules.WINDOW_TABLE_FUNCTION,
        FreshetRules.GROUP_WINDOW));
    checkWindowsPerRow(windowed, maxWindowsPerRow);
    boolean aggregating = containsAggregate(normalized);
    return new WindowedQuery(windowed, rel.getRowType(), mode, sources, aggregating);
  }

  /**
   * Refuses an {@code ORDER BY} of a stream's rows below the top of the query (Spark: "Sorting
   * is not supported on streaming DataFrames/Datasets, unless it is on aggregated
   * DataFrame/Dataset in Complete output mode"), which the conversion to a plan would drop
   * silently, so that the output-mode checker never sees it: {@code SELECT COUNT(*) FROM
   * (SELECT * FROM s ORDER BY v)}.
   */
  private void rejectSortBelowTheTop(SqlNode query) throws PlanningException {
    SqlNode top = query instanceof SqlWith with ? with.body : query;
    boolean[] found = new boolean[1];
    query.accept(new SqlBasicVisitor<Void>() {
      @Override public Void visit(SqlCall call) {
        if (call instanceof SqlOrderBy order && order != top
            && !order.orderList.getList().isEmpty() && readsStream(order.query)) {
          found[0] = true;
        }
        return super.visit(call);
      }
    });
    if (found[0]) {
      throw PlannerErrors.outputModeNotSupported("ORDER BY is not supported on a stream, unless"
              + " it sorts the result of an aggregation in EMIT COMPLETE mode; a sort in a"
              + " subquery orders nothing that the query above it keeps",
          "Remove the ORDER BY from the subquery, or sort the result of the outer GROUP BY and"
              + " use EMIT COMPLETE");
    }
  }

  /**
   * Whether {@code node} has a query that aggregates (GROUP BY, or an aggregate function in its
   * select list) over a subquery in its FROM that aggregates a stream.
   */
  private boolean aggregatesAnAggregation(SqlNode node) {
    boolean[] found = new boolean[1];
    node.accept(new SqlBasicVisitor<Void>() {
      @Override public Void visit(SqlCall call) {
        if (call instanceof SqlSelect select && aggregates(select) && select.getFrom() != null) {
          select.getFrom().accept(new SqlBasicVisitor<Void>() {
            @Override public Void visit(SqlCall inner) {
              if (inner instanceof SqlSelect sub && aggregates(sub) && readsStream(sub)) {
                found[0] = true;
              }
              return super.visit(inner);
            }
          });
        }
        return super.visit(call);
      }
    });
    return found[0];
  }

  /** Whether {@code select} groups or calls an aggregate function in its select list. */
  private static boolean aggregates(SqlSelect select) {
    if (select.getGroup() != null && !select.getGroup().getList().isEmpty()) {
      return true;
    }
    boolean[] found = new boolean[1];
    select.getSelectList().accept(new SqlBasicVisitor<Void>() {
      @Override public Void visit(SqlCall call) {
        if (call.getOperator().isAggregator() && call.getKind() != SqlKind.OVER) {
          found[0] = true;
        }
        return super.visit(call);
      }
    });
    return found[0];
  }

  /** Whether {@code node} names a stream of the catalog anywhere. */
  private boolean readsStream(SqlNode node) {
    boolean[] found = new boolean[1];
    node.accept(new SqlBasicVisitor<Void>() {
      @Override public Void visit(SqlIdentifier id) {
        String name = id.names.get(id.names.size() - 1);
        if (catalog.stream(name).isPresent()
            || catalog.stream(name.toUpperCase(java.util.Locale.ROOT)).isPresent()) {
          found[0] = true;
        }
        return null;
      }
    });
    return found[0];
  }

  /**
   * Refuses a window that puts each row in more than {@code limit} windows: the window operator
   * emits a row once per window, so {@code HOP(ts, INTERVAL '0.001' SECOND, INTERVAL '100' DAY)}
   * would turn one row into 8.64 billion, exhausting the heap of every query in the engine.
   */
  private static void checkWindowsPerRow(RelNode rel, int limit) throws PlanningException {
    if (rel instanceof TimeWindow window) {
      // ceil(size / slide): a row is in every window that starts within size before it.
      long windows = (window.sizeMs() + window.slideMs() - 1) / window.slideMs();
      if (windows > limit) {
        throw PlannerErrors.tooManyWindowsPerRow(window.sizeMs(), window.slideMs(), windows,
            limit);
      }
    }
    for (RelNode input : rel.getInputs()) {
      checkWindowsPerRow(input, limit);
    }
  }

  /**
   * Puts an {@link LogicalEventTimeWatermark} above each scan of a stream that declares a
   * watermark, where it sees every row before anything filters them.
   */
  private static RelNode withWatermarks(RelNode rel) {
    return rel.accept(new RelHomogeneousShuttle() {
      @Override public RelNode visit(TableScan scan) {
        Optional<StreamTable> stream = StreamingRels.streamOf(scan);
        if (stream.isEmpty() || stream.get().watermark().isEmpty()) {
          return scan;
        }
        WatermarkSpec watermark = stream.get().watermark().get();
        int column = scan.getRowType().getFieldNames().indexOf(watermark.column());
        return LogicalEventTimeWatermark.create(scan, column, watermark.delayMs(),
            watermark.idleTimeoutMs());
      }
    });
  }

  /**
   * Whether {@code query} is a {@code SELECT STREAM}: a select with the keyword, or an
   * {@code ORDER BY}, {@code WITH} or set operation ({@code UNION}, {@code EXCEPT},
   * {@code INTERSECT}) one of whose selects has it.
   */
  public static boolean isStreamQuery(SqlNode query) {
    if (query instanceof SqlSelect) {
      return ((SqlSelect) query).getModifierNode(SqlSelectKeyword.STREAM) != null;
    }
    if (query instanceof SqlOrderBy) {
      return isStreamQuery(((SqlOrderBy) query).query);
    }
    if (query instanceof SqlWith) {
      return isStreamQuery(((SqlWith) query).body);
    }
    if (query.isA(SqlKind.SET_QUERY)) {
      for (SqlNode operand : ((SqlCall) query).getOperandList()) {
        if (isStreamQuery(operand)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Validates an {@code INSERT INTO stream VALUES ...} and converts it to a relational plan whose
   * root's input produces the rows (with casts to the stream's column types).
   */
  public RelNode planInsert(SqlInsert insert) throws PlanningException {
    return new Converter().toRel(insert);
  }

  /**
   * The types of the parameter markers ({@code ?}) of a query or an {@code INSERT}, in order, as
   * Calcite's validator infers them from where each stands: {@code user_id = ?} takes the type
   * of {@code user_id}, {@code INSERT INTO s VALUES (?, ?)} the types of the stream's columns.
   *
   * <pre>{@code
   * planner.parameterRowType(parse("SELECT * FROM clicks WHERE user_id = ?"));   // (VARCHAR ?0)
   * }</pre>
   *
   * @param statement a freshly parsed query (possibly {@code SELECT STREAM}) or INSERT; validation
   *     rewrites it
   * @throws PlanningException if the statement is not valid, or a marker stands where its type
   *     cannot be inferred
   */
  public RelDataType parameterRowType(SqlNode statement) throws PlanningException {
    SqlNode node = statement instanceof SqlInsert ? statement : withoutStreamKeyword(statement);
    Converter converter = new Converter();
    try {
      SqlNode validated = converter.validator.validate(node);
      return converter.validator.getParameterRowType(validated);
    } catch (CalciteContextException e) {
      throw converter.validationError(e);
    }
  }

  /** Derives the Calcite type of a column declaration. */
  public RelDataType columnType(org.apache.calcite.sql.SqlDataTypeSpec spec, boolean nullable) {
    RelDataType type = spec.deriveType(new Converter().validator);
    return typeFactory.createTypeWithNullability(type, nullable);
  }

  /** Looks a stream up by identifier; the error names the stream and how to create one. */
  public StreamTable stream(SqlIdentifier name) throws PlanningException {
    String simple = name.names.get(name.names.size() - 1);
    Optional<StreamTable> table = catalog.stream(simple);
    if (table.isEmpty()) {
      throw PlannerErrors.streamNotFound(simple);
    }
    return table.get();
  }

  /**
   * The streams that a plan reads, each once, in the order of their first scan (left to right).
   * {@link OutputModeChecker} has rejected plans that read no stream.
   */
  private static List<StreamTable> streamsOf(RelNode rel) {
    Set<StreamTable> streams = new LinkedHashSet<>();
    for (RelOptTable table : RelOptUtil.findAllTables(rel)) {
      StreamTable stream = table.unwrap(StreamTable.class);
      if (stream != null) {
        streams.add(stream);
      }
    }
    if (streams.isEmpty()) {
      throw new IllegalStateException("the output-mode checker passed a plan that reads no"
          + " stream:\n" + RelOptUtil.toString(rel));
    }
    return List.copyOf(streams);
  }

  private static boolean containsAggregate(RelNode rel) {
    if (rel instanceof Aggregate) {
      return true;
    }
    for (RelNode input : rel.getInputs()) {
      if (containsAggregate(input)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether grouping column {@code key} (a column of the aggregate's input) carries event time:
   * the watermark column itself, or a window start or end computed from it.
   */
  static boolean isWatermarkKey(Aggregate aggregate, int key) {
    return isWatermarkColumn(aggregate.getInput(), key);
  }

  /**
   * Whether {@code column} of {@code rel} is, or is computed from, a stream's watermark column,
   * e.g. {@code ts} or {@code TUMBLE(ts, INTERVAL '1' MINUTE)}. Calcite's column origins follow
   * projections and filters, marking origins through expressions as derived; they stop at table
   * functions.
   */
  static boolean isWatermarkColumn(RelNode rel, int column) {
    RelMetadataQuery mq = rel.getCluster().getMetadataQuery();
    Set<RelColumnOrigin> origins = mq.getColumnOrigins(rel, column);
    if (origins == null) {
      return false;
    }
    for (RelColumnOrigin origin : origins) {
      StreamTable stream = origin.getOriginTable().unwrap(StreamTable.class);
      if (stream != null) {
        Optional<WatermarkSpec> watermark = stream.watermark();
        String name = origin.getOriginTable().getRowType().getFieldNames()
            .get(origin.getOriginColumnOrdinal());
        if (watermark.isPresent() && watermark.get().column().equals(name)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Takes the {@code STREAM} keyword out of every select of {@code query}, wherever it is written
   * (in an {@code ORDER BY}, a branch of a {@code UNION}, a subquery).
   */
  private static SqlNode withoutStreamKeyword(SqlNode query) {
    // The validator would require a StreamableTable and a monotonic GROUP BY key for STREAM;
    // Freshet decides streaming execution itself, so the keyword has done its job once seen.
    query.accept(new SqlBasicVisitor<Void>() {
      @Override public Void visit(SqlCall call) {
        if (call instanceof SqlSelect) {
          removeStreamKeyword((SqlSelect) call);
        }
        return super.visit(call);
      }
    });
    return query;
  }

  private static void removeStreamKeyword(SqlSelect select) {
    SqlNode stream = select.getModifierNode(SqlSelectKeyword.STREAM);
    if (stream == null) {
      return;
    }
    SqlNodeList keywords = new SqlNodeList(select.getParserPosition());
    for (SqlNode keyword : (SqlNodeList) requireNonNull(select.getOperandList().get(0))) {
      if (keyword != stream) {
        keywords.add(keyword);
      }
    }
    select.setOperand(0, keywords);
  }

  private static RelNode hep(RelNode rel, RelOptRule... rules) {
    HepProgramBuilder program = new HepProgramBuilder();
    for (RelOptRule rule : rules) {
      program.addRuleInstance(rule);
    }
    HepPlanner planner = new HepPlanner(program.build());
    planner.setRoot(rel);
    return planner.findBestExp();
  }

  /** One validation and conversion; validators and clusters are not reusable across queries. */
  private final class Converter {
    // Case-insensitive, so that the window functions' lower-case window_start and window_end can
    // be written unquoted like every other column.
    final CalciteCatalogReader catalogReader = new CalciteCatalogReader(rootSchema,
        List.of(SCHEMA), typeFactory, CalciteConnectionConfig.DEFAULT.set(
            org.apache.calcite.config.CalciteConnectionProperty.CASE_SENSITIVE, "false"));
    final FreshetValidator validator = new FreshetValidator(catalogReader, typeFactory,
        SqlValidator.Config.DEFAULT.withIdentifierExpansion(true)
            .withConformance(FreshetConformance.INSTANCE));

    RelNode toRel(SqlNode node) throws PlanningException {
      SqlNode validated;
      try {
        validated = validator.validate(node);
      } catch (CalciteContextException e) {
        throw validationError(e);
      }
      VolcanoPlanner planner = new VolcanoPlanner();
      planner.addRelTraitDef(ConventionTraitDef.INSTANCE);
      RelOptCluster cluster = RelOptCluster.create(planner, new RexBuilder(typeFactory));
      SqlToRelConverter converter = new SqlToRelConverter(null, validator, catalogReader,
          cluster, StandardConvertletTable.INSTANCE,
          SqlToRelConverter.config().withTrimUnusedFields(true).withExpand(false));
      RelRoot root = converter.convertQuery(validated, false, true);
      root = converted(root);
      RelNode rel = converter.trimUnusedFields(true, root.rel);
      if (RelOptUtil.findAllTables(rel).isEmpty()
          && !RelOptUtil.findAllTables(root.rel).isEmpty()) {
        // The trimmer's builder replaces what it proves empty (WHERE 1 = 0 over an aggregation,
        // how BI tools ask for a query's columns) by an empty VALUES, and the query would then
        // read no stream. Untrimmed, it reads its stream and finds no row.
        rel = root.rel;
      }
      return withQueryNames(root, root.withRel(rel).project());
    }

    /**
     * {@code rel} with the column names the query gives ({@code AS w}): RelRoot's project keeps
     * a plan whose columns are already in order as it is, even where a rewrite named them
     * {@code $f0} (a window start computed in the aggregate), and every result, view and
     * metadata call takes the names from here.
     */
    private RelNode withQueryNames(RelRoot root, RelNode rel) {
      List<String> names = Pair.right(root.fields);
      if (SqlKind.DML.contains(root.kind) || rel.getRowType().getFieldNames().equals(names)) {
        return rel;
      }
      // Directly, not through a RelBuilder, which keeps an identity projection's input as is.
      return LogicalProject.create(rel, List.of(),
          rel.getCluster().getRexBuilder().identityProjects(rel.getRowType()), names,
          Set.of());
    }

    private PlanningException validationError(CalciteContextException e) {
      SqlState state = validator.state(e);
      String message = e.getMessage() + validator.hint(e);
      if (state == SqlState.OBJECT_NOT_FOUND) {
        message += ". See SHOW STREAMS for the streams that exist, or create one with"
            + " CREATE STREAM name (...) WITH (connector = 'memory')";
      } else if (state == SqlState.COLUMN_NOT_FOUND) {
        message += ". DESCRIBE the stream to see its columns";
      } else if (message.endsWith(RESOURCE.absentOverClause().ex().getMessage())) {
        // LAST_VALUE(v) without OVER: Calcite has it as a window function only.
        message += ". LAST_VALUE, FIRST_VALUE, ROW_NUMBER, RANK, LAG and LEAD need OVER (...),"
            + " and a continuous query runs only ROW_NUMBER() OVER (PARTITION BY ... ORDER BY"
            + " ...) filtered to the first row: aggregate instead, e.g. SELECT k, MAX(v) FROM s"
            + " GROUP BY k";
      }
      return PlannerErrors.validationError(message, state, e);
    }
  }
}
