package dev.freshet.engine.query;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import dev.freshet.executor.limits.MemoryAccount;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.FreshetTypeSystem;
import dev.freshet.planner.FreshetValidator;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.ViewTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TimeZone;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableInterpretable;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.plan.ConventionTraitDef;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.plan.volcano.VolcanoPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelCollationTraitDef;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.TimeFrames;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.runtime.Bindable;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql2rel.RelDecorrelator;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.sql2rel.StandardConvertletTable;
import org.apache.calcite.tools.Programs;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.Pair;
import org.checkerframework.checker.nullness.qual.Nullable;
import dev.freshet.engine.view.ViewPins;
import dev.freshet.planner.catalog.ViewResult;

/**
 * Runs plain {@code SELECT}s with Calcite's own enumerable engine: any query Calcite can run
 * (filters, joins, subqueries, aggregates, DISTINCT, UNION, ORDER BY, LIMIT) over materialized
 * views, system tables, {@code INFORMATION_SCHEMA}, and the rows streams hold.
 *
 * <pre>{@code
 * PullQueryExecutor.Prepared q = pullQueries.prepare(FreshetSqlParser.parse(
 *     "SELECT c.user_id, c.amount, v.n FROM clicks c JOIN clicks_per_user v"
 *     + " ON c.user_id = v.user_id ORDER BY c.amount DESC LIMIT 5"));
 * StatementResult.Rows rows = q.execute(10_000_000);
 * }</pre>
 *
 * <p>Preparation follows Calcite's own ({@code PlannerImpl}, {@code CalcitePrepareImpl}):
 * validation, conversion, decorrelation, {@link Programs#standard()} on a Volcano planner with the
 * default rules, then {@link EnumerableInterpretable#toBindable} compiles the plan; a view's scan
 * with filters, which Calcite plans as an interpreted {@code BindableTableScan} (as EXPLAIN shows
 * it), is compiled as code with the rest ({@link CompiledFilterScan}). Views,
 * system tables and streams are {@link org.apache.calcite.schema.ScannableTable}s; a stream is a
 * {@link HeldStream} of the rows it holds ({@link BatchCatalog}), while the streaming planner
 * sees the same stream as an unbounded source.
 *
 * <p>A statement reads a consistent snapshot: each stream up to the offset it had when the
 * statement started (every scan of the stream, in a self-join or a subquery, reads the same
 * rows), and every view at the version it published last when the statement started
 * ({@link ViewPins}), so a self-join sees one batch of the view, and a join of two views sees,
 * for each, the last batch published when the statement started. Rows come out in Calcite's internal representation (TIMESTAMP as {@code Long}), as
 * {@link ResultColumn#valueClass()} says.
 *
 * <p>A query is compiled once: {@link #prepare} hands out the same {@link Prepared} for the same
 * SQL while the catalog is unchanged ({@link QueryPlanCache}), and each
 * {@link Prepared#execute()} binds the compiled plan to a new snapshot and clock.
 */
public final class PullQueryExecutor {
  /** How many prepared queries {@link #prepare} keeps for the next statement with their SQL. */
  static final int CACHED_QUERIES = 100;

  private final Catalog catalog;
  private final CalciteSchema rootSchema;
  private final QueryPlanCache<Prepared> cache = new QueryPlanCache<>(CACHED_QUERIES);
  /** How many plans were compiled to code, for tests of the cache: each costs tens of ms. */
  private final AtomicLong plansCompiled = new AtomicLong();

  /**
   * Creates the executor of an engine.
   *
   * @param catalog the engine's streams and views, the default schema
   * @param system the {@code SYS} schema
   * @param information the {@code INFORMATION_SCHEMA} schema
   */
  public PullQueryExecutor(Catalog catalog, SystemSchema system, InformationSchema information) {
    this.catalog = requireNonNull(catalog, "catalog");
    // Not caching: a stream or view created a moment ago must resolve in the next statement.
    this.rootSchema = CalciteSchema.createRootSchema(false, false);
    this.rootSchema.add(FreshetPlanner.SCHEMA, new BatchCatalog(catalog));
    this.rootSchema.add(SystemSchema.NAME, requireNonNull(system, "system"));
    this.rootSchema.add(InformationSchema.NAME, requireNonNull(information, "information"));
  }

  /**
   * How many query plans this executor has compiled to code since it was created: a query run
   * again with the same text (a prepared statement's markers kept, see
   * {@link DynamicParameters}) is compiled once.
   */
  public long plansCompiled() {
    return plansCompiled.get();
  }

  /**
   * Validates and converts a query, or finds it prepared already; does not run it. A query with
   * parameter markers is cached by its text with the markers, so one plan serves every value
   * ({@link Prepared#execute(int, Map)}).
   *
   * @throws SQLException if the query is not valid, with the SQLSTATE of the problem
   */
  public Prepared prepare(SqlNode query) throws SQLException {
    // The key is taken before validation, which rewrites the tree, and the version before
    // planning: a plan made while a DDL statement ran is kept for the version it may predate.
    String sql = query.toString();
    long version = catalog.version();
    Prepared cached = cache.get(sql, version);
    if (cached != null) {
      return cached;
    }
    Prepared prepared = prepareAfresh(query);
    // A plan reads no rows: each execution reads the streams and views as they are then.
    cache.put(sql, version, prepared);
    return prepared;
  }

  /**
   * Calcite's plan of {@code query}, as {@code EXPLAIN PLAN FOR} shows it, or empty if the query
   * reads a stream, which the streaming planner plans. Validation rewrites {@code query}.
   *
   * <pre>{@code
   * executor.explain(FreshetSqlParser.parse("SELECT * FROM totals"));
   * // Optional[EnumerableTableScan(table=[[FRESHET, TOTALS]])\n]
   * }</pre>
   *
   * @throws SQLException if the query is not valid, or Calcite cannot plan it (0A000)
   */
  public Optional<String> explain(SqlNode query) throws SQLException {
    // Afresh, not from the cache: a cached query lets go of its plan once compiled.
    Prepared prepared = prepareAfresh(query);
    if (!prepared.streams().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(plan(prepared));
  }

  /**
   * Calcite's plan of {@code query}, as {@code EXPLAIN PLAN FOR} shows it, whatever it reads:
   * for a plain query over streams that Freshet's executor does not run. Validation rewrites
   * {@code query}.
   *
   * @throws SQLException if the query is not valid, or Calcite cannot plan it (0A000)
   */
  public String explainBatch(SqlNode query) throws SQLException {
    return plan(prepareAfresh(query));
  }

  private static String plan(Prepared prepared) throws SQLException {
    RelRoot root = requireNonNull(prepared.root);
    try {
      return RelOptUtil.toString(optimize(root));
    } catch (RuntimeException e) {
      throw cannotPlan(root, e);
    }
  }

  /**
   * The plan Calcite runs for {@code root}, as Calcite's Prepare makes it: the root's sort order
   * is a required trait, and the final projection (which may drop a sort column) goes on top of
   * the optimized plan.
   */
  private static EnumerableRel optimize(RelRoot root) {
    RelTraitSet desired = root.rel.getTraitSet().replace(EnumerableConvention.INSTANCE)
        .replace(root.collation).simplify();
    EnumerableRel best = (EnumerableRel) Programs.standard().run(
        root.rel.getCluster().getPlanner(), root.rel, desired, List.of(), List.of());
    if (!root.isRefTrivial()) {
      RexBuilder rexBuilder = best.getCluster().getRexBuilder();
      List<RexNode> projects = new ArrayList<>();
      for (int field : Pair.left(root.fields)) {
        projects.add(rexBuilder.makeInputRef(best, field));
      }
      best = EnumerableCalc.create(best, RexProgram.create(best.getRowType(), projects, null,
          root.validatedRowType, rexBuilder));
    }
    return best;
  }

  private static SQLException cannotPlan(RelRoot root, RuntimeException e) {
    // Calcite plans and compiles any valid query it supports; what is left is a gap.
    return Errors.notSupported("Calcite cannot run this plain query. Plan:\n"
        + RelOptUtil.toString(root.rel), e);
  }

  private Prepared prepareAfresh(SqlNode query) throws SQLException {
    JavaTypeFactory typeFactory = new JavaTypeFactoryImpl(FreshetTypeSystem.INSTANCE);
    CalciteCatalogReader catalogReader = new CalciteCatalogReader(rootSchema,
        List.of(FreshetPlanner.SCHEMA), typeFactory, CalciteConnectionConfig.DEFAULT);
    FreshetValidator validator = FreshetValidator.of(catalogReader, typeFactory);
    SqlNode validated;
    try {
      validated = validator.validate(query);
    } catch (CalciteContextException e) {
      throw validationError(e, validator.state(e), validator.hint(e));
    }
    VolcanoPlanner planner = new VolcanoPlanner();
    planner.addRelTraitDef(ConventionTraitDef.INSTANCE);
    planner.addRelTraitDef(RelCollationTraitDef.INSTANCE);
    RelOptUtil.registerDefaultRules(planner, false, false);
    RelOptCluster cluster = RelOptCluster.create(planner, new RexBuilder(typeFactory));
    SqlToRelConverter.Config config = SqlToRelConverter.config().withTrimUnusedFields(false);
    SqlToRelConverter converter = new SqlToRelConverter(null, validator, catalogReader, cluster,
        StandardConvertletTable.INSTANCE, config);
    RelRoot root = FreshetPlanner.converted(converter.convertQuery(validated, false, true));
    root = root.withRel(converter.flattenTypes(root.rel, true));
    RelBuilder relBuilder = config.getRelBuilderFactory().create(cluster, null);
    root = root.withRel(RelDecorrelator.decorrelateQuery(root.rel, relBuilder));

    Set<StreamTable> streams = new LinkedHashSet<>();
    Set<ViewTable> views = new LinkedHashSet<>();
    Set<String> systemTables = new LinkedHashSet<>();
    for (RelOptTable table : RelOptUtil.findAllTables(root.rel)) {
      StreamTable stream = table.unwrap(StreamTable.class);
      if (stream != null) {
        streams.add(stream);
      }
      ViewTable view = table.unwrap(ViewTable.class);
      if (view != null) {
        views.add(view);
      }
      if (table.unwrap(SystemSchema.SystemTable.class) != null) {
        systemTables.add(String.join(".", table.getQualifiedName()));
      }
    }
    List<RelDataType> parameterTypes = List.copyOf(
        validator.getParameterRowType(validated).getFieldList().stream()
            .map(field -> field.getType()).toList());
    return new Prepared(root, catalogReader, typeFactory, List.copyOf(streams),
        List.copyOf(views), List.copyOf(systemTables), parameterTypes);
  }

  /**
   * A validated query, ready to run. Thread-safe: it is compiled by its
   * first {@link #execute()}, and every execution binds that code to values of its own.
   */
  public final class Prepared {
    private final JavaTypeFactory typeFactory;
    private final List<StreamTable> streams;
    private final List<ViewTable> views;
    private final List<String> systemTables;
    private final RelDataType rowType;
    private final List<RelDataType> parameterTypes;
    /** The validated plan and its names, until {@link #compiled()} compiles them. */
    private @Nullable RelRoot root;
    private @Nullable CalciteCatalogReader catalogReader;
    /** The compiled plan, once compiled. */
    private @Nullable Compiled compiled;

    private Prepared(RelRoot root, CalciteCatalogReader catalogReader,
        JavaTypeFactory typeFactory, List<StreamTable> streams, List<ViewTable> views,
        List<String> systemTables, List<RelDataType> parameterTypes) {
      this.root = root;
      this.parameterTypes = parameterTypes;
      this.catalogReader = catalogReader;
      this.typeFactory = typeFactory;
      this.streams = streams;
      this.views = views;
      this.systemTables = systemTables;
      this.rowType = root.validatedRowType;
    }

    /**
     * The type of each parameter marker ({@code ?}) of the query, in order, as the validator
     * inferred it; empty if it has none.
     */
    public List<RelDataType> parameterTypes() {
      return parameterTypes;
    }

    /** The streams the query reads. */
    public List<StreamTable> streams() {
      return streams;
    }

    /** The materialized views the query reads. */
    public List<ViewTable> views() {
      return views;
    }

    /** The system tables the query reads, by qualified name, e.g. {@code SYS.QUERIES}. */
    public List<String> systemTables() {
      return systemTables;
    }

    /** The streams, views and system tables the query reads, for messages. */
    private String tableNames() {
      List<String> names = new ArrayList<>();
      streams.forEach(s -> names.add("stream " + s.name()));
      views.forEach(v -> names.add("view " + v.name()));
      names.addAll(systemTables);
      return names.isEmpty() ? "no table" : String.join(", ", names);
    }

    /** The columns that {@link #execute()} returns; known without running the query. */
    public List<ResultColumn> resultColumns() {
      return columns(rowType);
    }

    /**
     * Plans and compiles the query, if no execution did yet.
     *
     * @throws SQLException 0A000 if Calcite cannot run it
     */
    public void compile() throws SQLException {
      compiled();
    }

    /**
     * Runs the query over the rows the streams hold now and the views' current snapshots; plans
     * and compiles it the first time.
     *
     * @param maxRows the most rows the result may hold
     * @throws SQLException 54000 if it would hold more, checked as rows come so that a join that
     *     multiplies rows stops there
     */
    public StatementResult.Rows execute(int maxRows) throws SQLException {
      return execute(maxRows, Map.of());
    }

    /**
     * {@link #execute(int)} with values for the query's parameter markers.
     *
     * @param markerValues by {@code "?0"}, {@code "?1"}, ..., in Calcite's internal
     *     representation of each marker's type ({@link DynamicParameters#values})
     */
    public StatementResult.Rows execute(int maxRows, Map<String, Object> markerValues)
        throws SQLException {
      try (PlainQueryRun run = PlainQueryRun.unlimited("(prepared query)")) {
        return execute(maxRows, markerValues, run);
      }
    }

    /**
     * {@link #execute(int, Map)} as {@code run}: the rows it reads from streams and the rows of
     * its result count against the run's budget, and cancelling the run ends it.
     *
     * @throws SQLException 53200 if the rows would pass the run's budget or the engine's,
     *     57014 if the run was cancelled, 54000 if the result would hold more than
     *     {@code maxRows}
     */
    public StatementResult.Rows execute(int maxRows, Map<String, Object> markerValues,
        PlainQueryRun run) throws SQLException {
      Compiled code = compiled();
      // Calcite hands a one-column result out as bare values, not arrays.
      boolean scalar = rowType.getFieldCount() == 1;
      List<Object[]> rows = new ArrayList<>();
      Map<String, Object> parameters = new HashMap<>(code.parameters());
      parameters.putAll(markerValues);
      // The streams' offsets first, all at once: the statement's snapshot of them.
      parameters.put(HeldStream.OFFSETS_VARIABLE, HeldStream.snapshot(streams));
      parameters.put(HeldStream.RUN_VARIABLE, run);
      parameters.put(DataContext.Variable.CANCEL_FLAG.camelName, run.calciteCancelFlag());
      MemoryAccount resultAccount = run.resources().newAccount();
      long bytesPerRow = PlainQueryRun.bytesPerRow(rowType.getFieldCount());
      List<ViewResult> viewResults = new ArrayList<>();
      views.forEach(v -> viewResults.add(v.result()));
      try (ViewPins pins = ViewPins.pin(viewResults)) {
        parameters.put(ViewPins.VARIABLE, pins);
        Enumerable<?> enumerable = code.bindable().bind(new StatementContext(parameters));
        for (Object row : enumerable) {
          if (rows.size() == maxRows) {
            throw Errors.resultTooLarge(maxRows);
          }
          rows.add(scalar ? new Object[] {row} : (Object[]) row);
          if (rows.size() % PlainQueryRun.CHECK_INTERVAL == 0) {
            run.resources().throwIfCancelled();
            resultAccount.set(rows.size() * bytesPerRow);
          }
        }
        run.resources().throwIfCancelled();
      } catch (RuntimeException e) {
        Optional<SQLException> limit = run.failure(e);
        if (limit.isPresent()) {
          throw limit.get();
        }
        // The plan ran and a value broke it, e.g. a division by zero.
        throw Errors.of(SqlState.DATA_EXCEPTION, "Cannot compute the result of the query over "
            + tableNames() + ": " + e, e);
      }
      return new StatementResult.Rows(columns(rowType), rows);
    }

    /**
     * The compiled plan: compiled by the first caller, who then lets go of the planner's state,
     * which is far larger than the code.
     */
    private synchronized Compiled compiled() throws SQLException {
      if (compiled == null) {
        compiled = compile(requireNonNull(root), requireNonNull(catalogReader));
        plansCompiled.incrementAndGet();
        root = null;
        catalogReader = null;
      }
      return compiled;
    }

    private Compiled compile(RelRoot root, CalciteCatalogReader catalogReader)
        throws SQLException {
      // Values the generated code reads at run time; compiling adds the objects it stashes.
      Map<String, Object> parameters = new HashMap<>();
      parameters.put("_conformance", SqlConformanceEnum.DEFAULT);
      Bindable<?> bindable;
      try {
        // As code, not interpreted: the interpreter would compile its filters at every run.
        EnumerableRel best = CompiledFilterScan.replaceInterpreters(optimize(root));
        Prepare.CatalogReader.THREAD_LOCAL.set(catalogReader);
        try {
          bindable = EnumerableInterpretable.toBindable(parameters, null, best,
              EnumerableRel.Prefer.ARRAY);
        } finally {
          Prepare.CatalogReader.THREAD_LOCAL.remove();
        }
      } catch (RuntimeException e) {
        throw cannotPlan(root, e);
      }
      return new Compiled(bindable, Collections.unmodifiableMap(parameters));
    }

    /** Values that generated code reads through {@link DataContext#get}. */
    private final class StatementContext implements DataContext {
      private final Map<String, Object> variables = new HashMap<>();

      StatementContext(Map<String, Object> parameters) {
        // As Calcite's JDBC connection does, fixed per statement; Freshet's time zone is UTC.
        long now = System.currentTimeMillis();
        variables.put(Variable.UTC_TIMESTAMP.camelName, now);
        variables.put(Variable.CURRENT_TIMESTAMP.camelName, now);
        variables.put(Variable.LOCAL_TIMESTAMP.camelName, now);
        variables.put(Variable.SYS_TIMESTAMP.camelName, now);
        variables.put(Variable.TIME_ZONE.camelName, TimeZone.getTimeZone("UTC"));
        variables.put(Variable.TIME_FRAME_SET.camelName,
            typeFactory.getTypeSystem().deriveTimeFrameSet(TimeFrames.CORE));
        variables.put(Variable.LOCALE.camelName, Locale.ROOT);
        variables.put(Variable.USER.camelName, "sa");
        variables.put(Variable.CANCEL_FLAG.camelName, new AtomicBoolean());
        variables.putAll(parameters);
      }

      @Override public SchemaPlus getRootSchema() {
        return rootSchema.plus();
      }

      @Override public JavaTypeFactory getTypeFactory() {
        return typeFactory;
      }

      @Override public QueryProvider getQueryProvider() {
        return Linq4j.DEFAULT_PROVIDER;
      }

      @Override public @Nullable Object get(String name) {
        return variables.get(name);
      }
    }
  }

  /** A query's code and the values it reads at run time besides a statement's own. */
  private record Compiled(Bindable<?> bindable, Map<String, Object> parameters) {}


  private static List<ResultColumn> columns(RelDataType rowType) {
    return rowType.getFieldList().stream().map(ResultColumn::of).toList();
  }

  private static SQLException validationError(CalciteContextException e, SqlState state,
      String hint) {
    String message = e.getMessage() + hint;
    if (state == SqlState.OBJECT_NOT_FOUND
        && message.contains("not found within '" + InformationSchema.NAME + "'")) {
      List<String> names = InformationSchema.tableNames();
      message += ". INFORMATION_SCHEMA has the tables "
          + String.join(", ", names.subList(0, names.size() - 1)) + " and "
          + names.get(names.size() - 1) + "; JDBC's DatabaseMetaData"
          + " (getTables, getColumns, getPrimaryKeys, getTypeInfo, ...) describes the rest";
    } else if (state == SqlState.OBJECT_NOT_FOUND) {
      message += ". See SHOW STREAMS and SHOW VIEWS for what exists, or create a stream with"
          + " CREATE STREAM name (...) WITH (connector = 'memory')";
    } else if (state == SqlState.COLUMN_NOT_FOUND) {
      message += ". DESCRIBE the stream or view to see its columns";
    }
    return Errors.of(state, message, e);
  }
}
