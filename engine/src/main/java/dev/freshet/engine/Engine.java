package dev.freshet.engine;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.errors.SqlState;
import dev.freshet.executor.limits.HeapBudgets;
import dev.freshet.executor.limits.MemoryPool;
import dev.freshet.executor.limits.QueryResources;
import dev.freshet.executor.runtime.StreamingQuery;
import dev.freshet.executor.source.MemoryStream;
import dev.freshet.executor.source.StreamMemoryPool;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.ViewTable;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import dev.freshet.engine.store.ResultDatabase;
import dev.freshet.engine.store.LocalTables;
import dev.freshet.engine.store.CatalogStore;
import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.engine.query.PlainQueries;
import dev.freshet.engine.query.PullQueryExecutor;
import dev.freshet.engine.security.AccessControl;
import dev.freshet.engine.security.AuditLog;
import dev.freshet.engine.security.EngineSecurity;
import dev.freshet.engine.security.Principal;
import dev.freshet.engine.security.SecretStore;

/**
 * A Freshet engine: the streams, the materialized views, the running continuous queries, and the
 * planner, shared by every session (JDBC connection) opened on it.
 *
 * <pre>{@code
 * try (Engine engine = new Engine("demo", Optional.of(Path.of("/var/lib/freshet")))) {
 *   Session session = engine.openSession();
 *   session.execute("CREATE STREAM IF NOT EXISTS clicks (user_id VARCHAR, amount DOUBLE)"
 *       + " WITH (connector = 'memory')");   // after a restart: there already, with its rows
 * }
 * }</pre>
 *
 * <p>An engine without a data directory keeps everything in memory. With one, everything
 * survives a crash: each memory stream keeps its rows in the directory, written to disk before
 * an {@code INSERT} returns; the catalog records the statement that declared each stream and
 * view ({@link CatalogStore}), and a restarted engine declares them again, each view's query
 * resuming from its checkpoint; views keep their results in the engine's database
 * (views read their state, see {@code dev.freshet.engine.view}). A sequence stream ({@code connector = 'sequence'}) keeps nothing there:
 * its rows are a function of the offset. {@link EngineStorage} draws the directory's layout.
 */
public final class Engine implements AutoCloseable {

  private final String name;
  private final Optional<Path> dataDir;
  private final Catalog catalog = new Catalog();
  private final FreshetPlanner planner = new FreshetPlanner(catalog);
  private final PullQueryExecutor pullQueries;
  /** The running continuous queries, the sinks, and the reference tables the queries read. */
  private final QueryRegistry registry;
  /** The plain queries running now, which SHOW QUERIES lists and STOP QUERY stops. */
  private final PlainQueries plainQueries;
  /**
   * Held by statements that change the catalog, so that checks spanning several objects hold when
   * the change is made: no view is created over a stream being dropped, and no stream is dropped
   * while a view reads it.
   */
  private final Object ddlLock = new Object();
  /** The threads, memory pools and directories the queries run on; see {@link #resources()}. */
  private final EngineResources resources;
  /** The lock on the data directory and the database in it: the catalog, grants, secrets. */
  private final EngineStorage storage;
  private volatile boolean closed;
  /** The recorded objects {@link #restoreCatalog} could not declare again, and why. */
  private final CatalogRestore restore = new CatalogRestore();
  /** The web UIs serving this engine ({@link #serveWebUi}); closed with it. */
  private final List<ServedWebUi> webUis = new java.util.concurrent.CopyOnWriteArrayList<>();
  /** Where views run unless they say, and the other engines' settings. */
  private final ViewEngines viewEngines;
  /** The other engines' runners opened so far; closed with the engine. */
  private final ViewRunners viewRunners;
  /** What the operator decided: connectors' reach, the secrets' key, the audit log. */
  private final EngineSecurity security;
  /** Owners and grants of the streams, tables, views and sinks. */
  private final AccessControl access;
  /** The audit log of {@code security}, open from the constructor to {@link #close()}. */
  private final AuditLog audit;

  /**
   * Creates an engine that keeps everything in memory; {@code name} identifies it in messages
   * and thread names.
   */
  public Engine(String name) {
    this(name, Optional.empty());
  }

  /**
   * Creates an engine that keeps its streams' rows in {@code dataDir}, creating the directory if
   * needed, or in memory if {@code dataDir} is empty; its queries together may take 60% of the
   * heap by their estimates ({@link HeapBudgets#engineDefault()}).
   *
   * @throws UncheckedIOException if the directory cannot be created, or another engine (in this
   *     process or another) uses it; its message says which and what to do
   */
  public Engine(String name, Optional<Path> dataDir) {
    this(name, dataDir, HeapBudgets.engineDefault());
  }

  /**
   * Creates an engine whose continuous queries together may take at most
   * {@code memoryBudgetBytes} by their estimates ({@link MemoryPool}), keeping its streams' rows
   * in {@code dataDir} or, if it is empty, in memory.
   *
   * @param memoryBudgetBytes the budget of all queries together, or
   *     {@link MemoryPool#UNLIMITED}
   * @throws UncheckedIOException if the directory cannot be created, or another engine (in this
   *     process or another) uses it; its message says which and what to do
   */
  public Engine(String name, Optional<Path> dataDir, long memoryBudgetBytes) {
    this(name, dataDir, memoryBudgetBytes, ViewEngines.DEFAULT);
  }

  /**
   * As {@link #Engine(String, Optional, long)}, with views running where {@code viewEngines}
   * says unless they say otherwise: e.g. on Spark, whose master the settings name.
   *
   * <pre>{@code
   * new Engine("server", Optional.of(dir), MemoryPool.UNLIMITED,
   *     new ViewEngines("spark", Map.of("spark.master", "spark://10.0.0.5:7077")));
   * }</pre>
   */
  public Engine(String name, Optional<Path> dataDir, long memoryBudgetBytes,
      ViewEngines viewEngines) {
    this(name, dataDir, memoryBudgetBytes, viewEngines, EngineSecurity.EMBEDDED);
  }

  /**
   * As {@link #Engine(String, Optional, long, ViewEngines)}, with the operator's security
   * settings: a server's engine restricts its connectors ({@link EngineSecurity}); an embedded
   * one trusts its process.
   */
  public Engine(String name, Optional<Path> dataDir, long memoryBudgetBytes,
      ViewEngines viewEngines, EngineSecurity security) {
    this.security = requireNonNull(security, "security");
    this.dataDir = requireNonNull(dataDir, "dataDir").map(d -> d.toAbsolutePath().normalize());
    this.resources = new EngineResources(name, this.dataDir, memoryBudgetBytes);
    this.registry = new QueryRegistry(name);
    try {
      this.audit = AuditLog.open(security.auditLog());
    } catch (RuntimeException e) {
      resources.stopThreads();
      throw e;
    }
    this.viewEngines = requireNonNull(viewEngines, "viewEngines");
    this.viewRunners = new ViewRunners(name, viewEngines);
    this.plainQueries = new PlainQueries(resources.memoryPool());
    this.name = requireNonNull(name, "name");
    // The engine's threads started already: a failure from here on stops them.
    try {
      this.storage = EngineStorage.open(this.name, this.dataDir, security.secretsKeyFile());
    } catch (RuntimeException e) {
      audit.close();
      resources.stopThreads();
      throw e;
    }
    // What the system tables list is what the statement's user may see.
    this.pullQueries = EngineMetadata.pullQueries(this, catalog);
    try {
      this.access = new AccessControl(storage.privileges(), this::objectKind);
    } catch (SQLException e) {
      close();
      throw EngineStorage.cannot("open the catalog", where(), e);
    }
    restoreCatalog();
  }

  /**
   * Declares again the streams and views the catalog recorded ({@link CatalogRestore}); each
   * view's query resumes from its checkpoint.
   */
  private void restoreCatalog() {
    try {
      restore.restoreAll(this, storage.catalogStore().entries());
    } catch (SQLException e) {
      close();
      throw EngineStorage.cannot("read the catalog", where(), e);
    }
  }

  /** The data directory, or {@code memory}, as messages name where the engine keeps things. */
  private String where() {
    return dataDir.map(Path::toString).orElse("memory");
  }

  /** The recorded streams and views that could not be declared again at start, by name. */
  Map<String, CatalogRestore.NotRestored> notRestored() {
    return restore.notRestored();
  }

  /** Where views run unless they say otherwise, and the settings of the other engines. */
  public ViewEngines viewEngines() {
    return viewEngines;
  }

  /**
   * The runner of views on engine {@code name} (e.g. {@code spark}), opened with this engine's
   * settings at its first use, found with {@link ServiceLoader}.
   *
   * @throws SQLException (0A000) if no runner of that name is on the class path; or the runner's
   *     own error if it cannot be opened
   */
  dev.freshet.engine.spi.ViewRunner viewRunner(String name) throws SQLException {
    if (closed) {
      throw new IllegalStateException("engine " + this.name + " is closed");
    }
    return viewRunners.get(name);
  }

  /**
   * Serves this engine's web UI on {@code port} of the loopback address (0 picks a free port)
   * until the engine closes: pages of its streams, views and queries with live charts, a SQL box,
   * and Prometheus metrics at {@code /metrics}. It needs the server module
   * ({@code freshet-server}) on the class path, which provides the {@link WebUiProvider}.
   *
   * <pre>{@code
   * ServedWebUi ui = engine.serveWebUi(8766);   // http://127.0.0.1:8766/ui/
   * }</pre>
   *
   * <p>The UI has no authentication here, so it listens on loopback only; serve an engine with
   * {@code freshet serve --ui-port} for users on other machines.
   *
   * @throws IllegalStateException if no provider is on the class path or the port is taken
   */
  public ServedWebUi serveWebUi(int port) {
    if (closed) {
      throw new IllegalStateException("engine " + name + " is closed");
    }
    WebUiProvider provider = ServiceLoader.load(WebUiProvider.class,
            Engine.class.getClassLoader()).findFirst()
        .orElseThrow(() -> new IllegalStateException("Cannot serve the web UI of engine " + name
            + ": no web UI on the class path. Add dev.freshet:freshet-server to it"));
    ServedWebUi ui = provider.serve(this, InetAddress.getLoopbackAddress().getHostAddress(), port);
    webUis.add(ui);
    return ui;
  }

  /** Whether {@link #close} was called; a closed engine opens no sessions. */
  public boolean isClosed() {
    return closed;
  }

  /** The engine's name. */
  public String name() {
    return name;
  }

  /** The plain queries running now: SHOW QUERIES lists them, STOP QUERY stops them. */
  public PlainQueries plainQueries() {
    return plainQueries;
  }

  /**
   * The memory of the engine's queries, continuous and plain: each query's
   * {@link QueryResources} takes its estimate from it, and the query whose estimate would pass
   * its limit fails.
   */
  public MemoryPool memoryPool() {
    return resources.memoryPool();
  }

  /**
   * The rows all the engine's streams keep in memory for their readers, bounded together (a
   * fifth of the heap) as each stream is by its {@code 'memory.max'}.
   */
  public StreamMemoryPool streamMemoryPool() {
    return resources.streamMemoryPool();
  }

  /** Where the engine keeps its streams' rows; empty if it keeps them in memory. */
  public Optional<Path> dataDir() {
    return dataDir;
  }

  /** Opens a session with default options, run by the process's own user ({@link Principal#LOCAL}). */
  public Session openSession() {
    return openSession(Principal.LOCAL);
  }

  /** Opens a session with default options whose statements {@code principal} runs. */
  public Session openSession(Principal principal) {
    if (closed) {
      throw new IllegalStateException("engine " + name + " is closed");
    }
    return new Session(this, principal);
  }

  /** What the operator decided about this engine's security. */
  public EngineSecurity security() {
    return security;
  }

  /** Who owns each object and what others were granted on it. */
  public AccessControl access() {
    return access;
  }

  /**
   * What {@code name} is, as messages say it: {@code stream}, {@code table},
   * {@code materialized view}, {@code sink}, or {@code object} if nothing has that name.
   */
  public String objectKind(String name) {
    return catalog.stream(name).isPresent() ? "stream"
        : catalog.view(name).isPresent() ? "materialized view"
        : catalog.table(name).isPresent() ? "table"
        : registry.sinks().containsKey(name) ? "sink" : "object";
  }

  /** The names of every stream, table, view and sink, sorted. */
  public List<String> objectNames() {
    List<String> names = new ArrayList<>(catalog.streamNames());
    catalog.views().forEach(v -> names.add(v.name()));
    catalog.referenceTables().forEach(t -> names.add(t.name()));
    names.addAll(registry.sinks().keySet());
    names.sort(null);
    return names;
  }

  /**
   * The audit log ({@code freshet serve --audit-log}): records nothing unless the operator gave
   * a file.
   *
   * <pre>{@code
   * engine.audit().record(AuditEvent.ok(principal.name(), "CREATE STREAM", "clicks"));
   * }</pre>
   */
  public AuditLog audit() {
    return audit;
  }

  /** The secrets of {@code CREATE SECRET} and of {@code WITH} clauses. */
  SecretStore secrets() {
    return storage.secrets();
  }

  /**
   * The planner over this engine's catalog: what another engine that runs its queries (Spark,
   * in {@code engine-spark}) plans them with.
   *
   * <pre>{@code
   * WindowedQuery q = engine.planner().planWindowed(node, EmitMode.UPDATE, 10_000);
   * }</pre>
   */
  public FreshetPlanner planner() {
    return planner;
  }

  Catalog catalog() {
    return catalog;
  }

  public PullQueryExecutor pullQueries() {
    return pullQueries;
  }

  CatalogStore catalogStore() {
    return storage.catalogStore();
  }

  ResultDatabase results() {
    return storage.results();
  }

  Object ddlLock() {
    return ddlLock;
  }

  /** The running continuous queries, the sinks, and the reference tables the queries read. */
  QueryRegistry queryRegistry() {
    return registry;
  }

  /** The engine's own reference tables. */
  LocalTables localTables() {
    return storage.localTables();
  }

  /** The threads, memory pools and directories the engine's queries run on. */
  EngineResources resources() {
    return resources;
  }

  /** Default of {@link #setMaxPushQueries}. */
  public static final int DEFAULT_MAX_PUSH_QUERIES = QueryRegistry.DEFAULT_MAX_PUSH_QUERIES;

  /**
   * Sets how many push queries may run on this engine at once; one more is refused with
   * SQLSTATE 53400 ({@link SqlState#CONFIGURATION_LIMIT_EXCEEDED}). Each holds a batch thread
   * and its state.
   *
   * <pre>{@code
   * engine.setMaxPushQueries(200);   // the server's --max-push-queries
   * }</pre>
   */
  public void setMaxPushQueries(int max) {
    registry.setMaxPushQueries(max);
  }

  /** How many push queries may run on this engine at once. */
  public int maxPushQueries() {
    return registry.maxPushQueries();
  }

  /** The continuous queries running now, and views' queries that stopped or failed. */
  public List<StreamingQuery> queries() {
    return new ArrayList<>(registry.unordered());
  }

  /** The registered continuous queries, sorted by name. */
  public List<ContinuousQuery> continuousQueries() {
    return registry.continuousQueries();
  }

  /** The registered continuous queries {@code user} may see ({@link QueryRegistry#visibleTo}). */
  public List<ContinuousQuery> visibleQueries(Principal user) {
    return registry.visibleTo(user, access);
  }

  /**
   * Whether {@code query} is a sink's ({@code CREATE SINK}) rather than a view's or a push
   * query: both a view's and a sink's query are named after their object.
   *
   * <pre>{@code
   * String kind = query.pushResult().isPresent() ? "push" : engine.isSink(query) ? "sink" : "view";
   * }</pre>
   */
  public boolean isSink(ContinuousQuery query) {
    return registry.isSink(query);
  }

  /** Finds a query by its id, or else by its name ignoring case (a view's is the view's). */
  public Optional<ContinuousQuery> query(String idOrName) {
    return registry.query(idOrName);
  }

  /**
   * Stops every continuous query, closes the memory streams' files and releases the data
   * directory. Idempotent.
   */
  @Override public void close() {
    closed = true;
    webUis.forEach(ServedWebUi::close);
    for (ContinuousQuery query : continuousQueries()) {
      query.stop();
      registry.unregister(query);
    }
    viewRunners.closeAll();
    resources.stopThreads();
    synchronized (ddlLock) {
      for (ViewTable view : catalog.views()) {
        MaterializedViewDdl.closeResult(view);
      }
      for (String stream : catalog.streamNames()) {
        catalog.stream(stream).flatMap(StreamTable::memoryStream).ifPresent(MemoryStream::close);
      }
      // External tables' pools; the engine's own tables live in the results database.
      catalog.referenceTables().forEach(TableDdl::close);
      storage.close();
    }
    audit.close();
  }
}
