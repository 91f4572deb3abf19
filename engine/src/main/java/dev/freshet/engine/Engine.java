package dev.freshet.engine;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.errors.SqlState;
import dev.freshet.executor.limits.HeapBudgets;
import dev.freshet.executor.limits.MemoryPool;
import dev.freshet.executor.limits.QueryResources;
import dev.freshet.engine.errors.Errors;
import dev.freshet.executor.runtime.StreamingQuery;
import dev.freshet.executor.source.MemoryStream;
import dev.freshet.executor.source.StreamMemoryPool;
import dev.freshet.executor.storage.DurableFiles;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.ViewTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.SQLException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import dev.freshet.engine.store.ResultDatabase;
import dev.freshet.engine.store.LocalTables;
import dev.freshet.engine.store.CatalogStore;
import dev.freshet.engine.store.DirectoryNames;
import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.engine.query.InformationSchema;
import dev.freshet.engine.query.PlainQueries;
import dev.freshet.engine.query.SystemSchema;
import dev.freshet.engine.query.PullQueryExecutor;
import dev.freshet.engine.security.AccessControl;
import dev.freshet.engine.security.CurrentPrincipal;
import dev.freshet.engine.security.AuditLog;
import dev.freshet.engine.security.EngineSecurity;
import dev.freshet.engine.store.PrivilegeStore;
import dev.freshet.engine.security.Principal;
import dev.freshet.engine.security.SecretStore;
import dev.freshet.engine.security.SecretsKey;
import dev.freshet.engine.store.OwnerOnlyFiles;
import dev.freshet.engine.store.SecretTable;

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
 * its rows are a function of the offset. The directory's layout:
 * <pre>
 * lock                     locked (an OS file lock) while an engine uses the directory
 * catalog.mv.db            H2: the catalog, the secrets and the views' results (mode 0600)
 * streams/NAME/metadata    the stream's columns
 * streams/NAME/rows.log    its rows, one record per INSERT (see {@link MemoryStream#open})
 * checkpoints/NAME/        a view's or a sink's checkpoint: offsets, commits, state
 * </pre>
 * A stream's directory is its name with every character but {@code A-Z}, {@code 0-9} and
 * {@code _} written as {@code %XX} (its UTF-8 bytes), so that any quoted name is a safe file name,
 * and names that differ only in case stay apart on case-insensitive file systems. The directory
 * is its owner's alone (mode {@code 0700}, {@link OwnerOnlyFiles}).
 */
public final class Engine implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

  private final String name;
  private final Optional<Path> dataDir;
  /** The lock on {@code <dataDir>/lock}, held until {@link #close}; null without data directory. */
  private final FileLock dataDirLock;
  private final Catalog catalog = new Catalog();
  private final FreshetPlanner planner = new FreshetPlanner(catalog);
  private final PullQueryExecutor pullQueries;
  /** Continuous queries by id: push queries until stopped, views' queries while the view exists. */
  private final Map<String, ContinuousQuery> queries = new ConcurrentHashMap<>();
  /** The plain queries running now, which SHOW QUERIES lists and STOP QUERY stops. */
  private final PlainQueries plainQueries;
  /**
   * Held by statements that change the catalog, so that checks spanning several objects hold when
   * the change is made: no view is created over a stream being dropped, and no stream is dropped
   * while a view reads it.
   */
  private final Object ddlLock = new Object();
  /**
   * How many threads may read one batch of a query, and how many the pool below has: one per
   * core, as Spark's {@code local[*]} runs a task per core.
   */
  private static final int INPUT_TASKS = Runtime.getRuntime().availableProcessors();
  /** Runs the input tasks and the state partitions of every query's batches. */
  private final java.util.concurrent.ExecutorService partitionExecutor =
      java.util.concurrent.Executors.newFixedThreadPool(INPUT_TASKS, runnable -> {
        Thread thread = new Thread(runnable, "freshet-task");
        thread.setDaemon(true);
        return thread;
      });
  /** The views' results (and, with a data directory, the catalog). */
  private final ResultDatabase results;
  /** The declared streams and views, kept in {@link #results} across restarts. */
  private final CatalogStore catalogStore;
  private volatile boolean closed;
  /**
   * Streams and views the catalog records that {@link #restoreCatalog} could not declare again,
   * by name, with why: statements naming them get that error, not "not found".
   */
  private final Map<String, NotRestored> notRestored = new ConcurrentHashMap<>();
  /** The engine's own reference tables, in {@link #results}. */
  private final LocalTables localTables;
  /** The reference tables each running query reads, by query id; see {@link #tableReaders}. */
  private final Map<String, Set<String>> tablesRead = new ConcurrentHashMap<>();
  /** The sinks, by name; changed under {@link #ddlLock}. */
  private final Map<String, SinkDdl.SinkEntry> sinks = new ConcurrentHashMap<>();

  /** A recorded stream or view that could not be declared again, and why. */
  record NotRestored(CatalogStore.Kind kind, SQLException error) {
  }
  /** The web UIs serving this engine ({@link #serveWebUi}); closed with it. */
  private final List<ServedWebUi> webUis = new java.util.concurrent.CopyOnWriteArrayList<>();
  /** Where views run unless they say, and the other engines' settings. */
  private final ViewEngines viewEngines;
  /** The other engines' runners opened so far, by name; closed with the engine. */
  private final Map<String, dev.freshet.engine.spi.ViewRunner> viewRunners =
      new ConcurrentHashMap<>();
  /** The memory every continuous query's estimate takes from; see {@link #memoryPool()}. */
  private final MemoryPool memoryPool;
  /** The bound of all its streams' rows in memory together; see {@link #streamMemoryPool()}. */
  private final StreamMemoryPool streamMemoryPool =
      new StreamMemoryPool(StreamMemoryPool.defaultMax());
  /** What the operator decided: connectors' reach, the secrets' key, the audit log. */
  private final EngineSecurity security;
  /** Owners and grants of the streams, tables, views and sinks. */
  private final AccessControl access;
  /** The audit log of {@code security}, open from the constructor to {@link #close()}. */
  private final AuditLog audit;
  /** The secrets of CREATE SECRET and of WITH clauses, in {@link #results}. */
  private final SecretStore secrets;

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
    try {
      this.audit = AuditLog.open(security.auditLog());
    } catch (RuntimeException e) {
      stopThreads();
      throw e;
    }
    this.viewEngines = requireNonNull(viewEngines, "viewEngines");
    this.memoryPool = new MemoryPool(memoryBudgetBytes);
    this.plainQueries = new PlainQueries(memoryPool);
    this.name = requireNonNull(name, "name");
    this.dataDir = requireNonNull(dataDir, "dataDir").map(d -> d.toAbsolutePath().normalize());
    // The engine's threads started with its fields: a failure from here on stops them.
    try {
      this.dataDirLock = this.dataDir.isPresent() ? lock(this.dataDir.get()) : null;
    } catch (RuntimeException e) {
      audit.close();
      stopThreads();
      throw e;
    }
    Optional<SecretsKey> secretsKey;
    try {
      secretsKey = security.secretsKeyFile().map(file -> SecretsKey.read(file, this.dataDir));
    } catch (RuntimeException e) {
      releaseLock();
      stopThreads();
      throw e;
    }
    try {
      this.results = ResultDatabase.open(this.dataDir);
    } catch (SQLException | RuntimeException e) {
      audit.close();
      releaseLock();
      stopThreads();
      if (e instanceof RuntimeException runtime) {
        throw runtime;
      }
      String message = "Cannot open the database of the views' results in "
          + this.dataDir.map(Path::toString).orElse("memory") + ": " + e.getMessage();
      throw new UncheckedIOException(message, new IOException(message, e));
    }
    this.localTables = new LocalTables(results);
    // What the system tables list is what the statement's user may see.
    this.pullQueries = new PullQueryExecutor(catalog, new SystemSchema(
        () -> visibleQueries(CurrentPrincipal.get()),
        () -> new EngineMetadata(this, CurrentPrincipal.get()).primaryKeyRows(),
        () -> Grants.rows(this, CurrentPrincipal.get(), Optional.empty())),
        new InformationSchema(
            () -> new EngineMetadata(this, CurrentPrincipal.get()).informationSchemaTables(),
            () -> new EngineMetadata(this, CurrentPrincipal.get()).informationSchemaColumns(),
            () -> new EngineMetadata(this, CurrentPrincipal.get()).informationSchemaViews()));
    try {
      this.catalogStore = new CatalogStore(results);
      this.access = new AccessControl(new PrivilegeStore(results), this::objectKind);
    } catch (SQLException e) {
      close();
      String message = "Cannot open the catalog in " + this.dataDir.map(Path::toString)
          .orElse("memory") + ": " + e.getMessage();
      throw new UncheckedIOException(message, new IOException(message, e));
    }
    String database = this.dataDir.map(d -> d.resolve("catalog.mv.db").toString())
        .orElse("the engine's in-memory database");
    try {
      this.secrets = SecretStore.open(new SecretTable(results), secretsKey, database);
    } catch (SQLException e) {
      close();
      String message = "Cannot open the secrets in " + database + ": " + e.getMessage();
      throw new UncheckedIOException(message, new IOException(message, e));
    } catch (RuntimeException e) {
      close();
      throw e;
    }
    restoreCatalog();
  }

  /**
   * Declares again the streams and views the catalog recorded, in creation order; each view's
   * query resumes from its checkpoint. An object that cannot be declared again (its statement
   * is no longer valid, say) is left out with a warning and stays recorded; one that failed
   * because something outside the engine was away is tried again ({@link RestoreRetries}).
   */
  private void restoreCatalog() {
    List<CatalogStore.Entry> entries;
    try {
      entries = catalogStore.entries();
    } catch (SQLException e) {
      close();
      String message = "Cannot read the catalog in " + dataDir.map(Path::toString).orElse("memory")
          + ": " + e.getMessage();
      throw new UncheckedIOException(message, new IOException(message, e));
    }
    for (CatalogStore.Entry entry : entries) {
      try {
        new Session(this, Principal.LOCAL).recreate(entry);
      } catch (SQLException | RuntimeException e) {
        LOG.warn("Engine {}: cannot declare {} {} again from the catalog; it is left out: {}",
            name, entry.kind(), entry.name(), e.getMessage(), e);
        SQLException error = e instanceof SQLException sql ? sql
            : Errors.of(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, String.valueOf(e.getMessage()),
                e);
        notRestored.put(entry.name(), new NotRestored(entry.kind(), error));
        // A database or broker that is away now may be back soon: tried again with backoff.
        RestoreRetries.scheduleIfRecoverable(this, entry, error);
      }
    }
  }

  /** The recorded streams and views that could not be declared again at start, by name. */
  Map<String, NotRestored> notRestored() {
    return notRestored;
  }

  /**
   * Locks the data directory: two engines appending to one stream log would interleave their
   * records and corrupt it.
   */
  private static FileLock lock(Path dataDir) {
    Path file = dataDir.resolve("lock");
    FileChannel channel = null;
    try {
      DurableFiles.createDirectories(dataDir);
      // It holds the catalog, the secrets and every stream's rows: its owner's alone.
      OwnerOnlyFiles.directory(dataDir);
      channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null;
      }
      if (lock == null) {
        channel.close();
        String message = "Data directory " + dataDir + " is in use by another Freshet engine,"
            + " which holds " + file + ". Stop that engine, or use another data directory";
        throw new UncheckedIOException(message, new IOException(message));
      }
      // For whoever looks: which process holds the lock. The OS lock is what counts.
      channel.truncate(0);
      channel.write(java.nio.ByteBuffer.wrap((ProcessHandle.current().pid() + "\n")
          .getBytes(StandardCharsets.US_ASCII)));
      return lock;
    } catch (IOException e) {
      if (channel != null) {
        try {
          channel.close();
        } catch (IOException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw new UncheckedIOException("Cannot use data directory " + dataDir + " (" + e + ")", e);
    }
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
    synchronized (viewRunners) {
      if (closed) {
        throw new IllegalStateException("engine " + this.name + " is closed");
      }
      dev.freshet.engine.spi.ViewRunner runner = viewRunners.get(name);
      if (runner == null) {
        dev.freshet.engine.spi.ViewRunnerProvider provider =
            dev.freshet.engine.spi.ViewRunnerProvider.named(name).orElseThrow(() -> Errors.notSupported("Engine '" + name + "' is not"
                + " on this server's class path, so no view can run on it. Add the module that"
                + " provides it (for 'spark': dev.freshet:freshet-engine-spark and Spark's jars;"
                + " ./freshet serve --engine spark does), or leave 'engine' out to run the view"
                + " on Freshet's own executor"));
        runner = provider.open(viewEngines.settings());
        viewRunners.put(name, runner);
      }
      return runner;
    }
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
    return memoryPool;
  }

  /**
   * The rows all the engine's streams keep in memory for their readers, bounded together (a
   * fifth of the heap) as each stream is by its {@code 'memory.max'}.
   */
  public StreamMemoryPool streamMemoryPool() {
    return streamMemoryPool;
  }

  /** Where the engine keeps its streams' rows; empty if it keeps them in memory. */
  public Optional<Path> dataDir() {
    return dataDir;
  }

  /** The directory of stream {@code stream}'s files, if the engine has a data directory. */
  Optional<Path> streamDirectory(String stream) {
    return dataDir.map(d -> d.resolve("streams").resolve(DirectoryNames.of(stream)));
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
        : sinks.containsKey(name) ? "sink" : "object";
  }

  /** The names of every stream, table, view and sink, sorted. */
  public List<String> objectNames() {
    List<String> names = new ArrayList<>(catalog.streamNames());
    catalog.views().forEach(v -> names.add(v.name()));
    catalog.referenceTables().forEach(t -> names.add(t.name()));
    names.addAll(sinks.keySet());
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
    return secrets;
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
    return catalogStore;
  }

  ResultDatabase results() {
    return results;
  }

  Object ddlLock() {
    return ddlLock;
  }

  /** The sinks by name, for CREATE, DROP and SHOW SINKS. */
  Map<String, SinkDdl.SinkEntry> sinks() {
    return sinks;
  }

  void register(ContinuousQuery query) {
    queries.put(query.id(), query);
  }

  /** Default of {@link #setMaxPushQueries}. */
  public static final int DEFAULT_MAX_PUSH_QUERIES = 1000;
  private volatile int maxPushQueries = DEFAULT_MAX_PUSH_QUERIES;
  /** Makes counting and registering one step, so that racing push queries cannot overshoot. */
  private final Object pushAdmission = new Object();

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
    if (max < 1) {
      throw new IllegalArgumentException("max push queries must be positive: " + max);
    }
    maxPushQueries = max;
  }

  /** How many push queries may run on this engine at once. */
  public int maxPushQueries() {
    return maxPushQueries;
  }

  /**
   * Registers a push query unless the engine runs {@link #maxPushQueries()} already.
   *
   * @throws SQLException with SQLSTATE 53400 ({@link SqlState#CONFIGURATION_LIMIT_EXCEEDED}) if
   *     it does
   */
  void registerPush(ContinuousQuery query) throws SQLException {
    synchronized (pushAdmission) {
      long running = queries.values().stream().filter(q -> q.viewName().isEmpty()).count();
      if (running >= maxPushQueries) {
        throw Errors.of(SqlState.CONFIGURATION_LIMIT_EXCEEDED, "Engine " + name + " already runs "
            + running + " push queries, its limit: close result sets or statements you no longer"
            + " read, or raise the limit (the server's --max-push-queries,"
            + " Engine.setMaxPushQueries)");
      }
      register(query);
    }
  }

  /** Runs push queries' timeouts; one daemon thread, as the timeouts only flag and stop. */
  private final java.util.concurrent.ScheduledThreadPoolExecutor scheduler = newScheduler();

  private java.util.concurrent.ScheduledThreadPoolExecutor newScheduler() {
    java.util.concurrent.ScheduledThreadPoolExecutor executor =
        new java.util.concurrent.ScheduledThreadPoolExecutor(1, runnable -> {
          Thread thread = new Thread(runnable, "freshet-timeouts-" + name);
          thread.setDaemon(true);
          return thread;
        });
    // A cancelled timeout (the query ended first) must not stay queued until it would fire.
    executor.setRemoveOnCancelPolicy(true);
    return executor;
  }

  java.util.concurrent.ScheduledExecutorService scheduler() {
    return scheduler;
  }

  void unregister(ContinuousQuery query) {
    if (queries.remove(query.id(), query)) {
      tablesRead.remove(query.id());
    }
  }

  /** The engine's own reference tables. */
  LocalTables localTables() {
    return localTables;
  }

  /**
   * Records that query {@code queryId} reads reference {@code tables}, which cannot be dropped
   * while it is registered.
   */
  void readsTables(String queryId, Set<String> tables) {
    if (!tables.isEmpty()) {
      tablesRead.put(queryId, Set.copyOf(tables));
    }
  }

  /** The names of the registered queries that read reference table {@code table}, sorted. */
  List<String> tableReaders(String table) {
    List<String> names = new ArrayList<>();
    tablesRead.forEach((id, tables) -> {
      ContinuousQuery query = queries.get(id);
      if (query != null && tables.contains(table)) {
        names.add(query.name());
      }
    });
    names.sort(null);
    return names;
  }

  /** The continuous queries running now, and views' queries that stopped or failed. */
  public List<StreamingQuery> queries() {
    return new ArrayList<>(queries.values());
  }

  /**
   * The registered continuous queries {@code user} may see, sorted by name: a view's or a
   * sink's query to whoever may see the view or sink, a push query to whoever opened it;
   * everything to an administrator.
   */
  public List<ContinuousQuery> visibleQueries(Principal user) {
    if (user.admin()) {
      return continuousQueries();
    }
    Map<String, String> sinkOfQuery = new java.util.HashMap<>();
    sinks.values().forEach(sink -> sinkOfQuery.put(sink.queryId(), sink.name()));
    List<ContinuousQuery> visible = new ArrayList<>();
    for (ContinuousQuery query : continuousQueries()) {
      Optional<String> object = query.viewName().or(
          () -> Optional.ofNullable(sinkOfQuery.get(query.id())));
      if (user.admin() || (object.isPresent() ? access.canSee(user, object.get())
          : access.pushOwner(query.id()).map(p -> p.key().equals(user.key())).orElse(false))) {
        visible.add(query);
      }
    }
    return visible;
  }

  /**
   * Passes if {@code user} may stop {@code query}: owns its view or sink, opened it (a push
   * query), or administers.
   *
   * @throws SQLException 42501 naming the query and who may
   */
  void checkQueryOwner(Principal user, ContinuousQuery query, String action) throws SQLException {
    Optional<String> object = queryObject(query);
    if (object.isPresent()) {
      access.checkOwner(user, object.get(), action + " the query of");
    } else if (!user.admin() && !access.pushOwner(query.id())
        .map(p -> p.key().equals(user.key())).orElse(false)) {
      throw dev.freshet.engine.security.PrivilegeErrors.notOwner(user, action, "push query",
          query.name(), access.pushOwner(query.id()).map(Principal::name).orElse("unknown"));
    }
  }

  /** The view or sink whose query {@code query} is; empty for a push query. */
  private Optional<String> queryObject(ContinuousQuery query) {
    if (query.viewName().isPresent()) {
      return query.viewName();
    }
    for (SinkDdl.SinkEntry sink : sinks.values()) {
      if (sink.queryId().equals(query.id())) {
        return Optional.of(sink.name());
      }
    }
    return Optional.empty();
  }

  /** The registered continuous queries, sorted by name. */
  public List<ContinuousQuery> continuousQueries() {
    List<ContinuousQuery> list = new ArrayList<>(queries.values());
    list.sort(Comparator.comparing(ContinuousQuery::name).thenComparing(ContinuousQuery::id));
    return list;
  }

  /**
   * Whether {@code query} is the query of a sink ({@code CREATE SINK}) rather than of a view or a
   * push query: both a view's and a sink's query are named after their object
   * ({@link ContinuousQuery#viewName()}).
   *
   * <pre>{@code
   * String kind = query.pushResult().isPresent() ? "push" : engine.isSink(query) ? "sink" : "view";
   * }</pre>
   */
  public boolean isSink(ContinuousQuery query) {
    SinkDdl.SinkEntry sink = sinks.get(query.name());
    return sink != null && sink.queryId().equals(query.id());
  }

  /**
   * Finds a query by its id, or else by its name ignoring case (a view's query is named after the
   * view).
   */
  public Optional<ContinuousQuery> query(String idOrName) {
    ContinuousQuery byId = queries.get(idOrName);
    if (byId != null) {
      return Optional.of(byId);
    }
    String lower = idOrName.toLowerCase(Locale.ROOT);
    return queries.values().stream()
        .filter(q -> q.name().toLowerCase(Locale.ROOT).equals(lower)).findFirst();
  }

  /**
   * Snapshots and cleans the checkpointed state stores in the background, as Spark's maintenance
   * task does (every 60 s there; 10 s here, as batches are small and frequent).
   */
  private final dev.freshet.executor.state.StateStoreMaintenance stateStoreMaintenance =
      new dev.freshet.executor.state.StateStoreMaintenance(java.time.Duration.ofSeconds(10));

  /** The thread that maintains checkpointed state stores. */
  dev.freshet.executor.state.StateStoreMaintenance stateStoreMaintenance() {
    return stateStoreMaintenance;
  }

  /** The pool that runs input tasks and state partitions in parallel. */
  java.util.concurrent.Executor partitionExecutor() {
    return partitionExecutor;
  }

  /** How many threads may read one batch of a query (see {@code ExecPlanBuilder}). */
  int inputTasks() {
    return INPUT_TASKS;
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
      unregister(query);
    }
    synchronized (viewRunners) {
      viewRunners.values().forEach(dev.freshet.engine.spi.ViewRunner::close);
      viewRunners.clear();
    }
    stopThreads();
    synchronized (ddlLock) {
      for (ViewTable view : catalog.views()) {
        MaterializedViewDdl.closeResult(view);
      }
      for (String stream : catalog.streamNames()) {
        catalog.stream(stream).flatMap(StreamTable::memoryStream).ifPresent(MemoryStream::close);
      }
      // External tables' pools; the engine's own tables live in the results database.
      catalog.referenceTables().forEach(TableDdl::close);
      try {
        results.close();
      } catch (SQLException e) {
        // Every view's batch was made durable when it committed; nothing is lost here.
        LOG.warn("Engine {}: closing the results database failed", name, e);
      }
      releaseLock();
    }
    audit.close();
  }

  /** Stops the pools and the maintenance thread; queries using them are stopped already. */
  private void stopThreads() {
    partitionExecutor.shutdown();
    scheduler.shutdownNow();
    stateStoreMaintenance.stop();
  }

  private void releaseLock() {
    if (dataDirLock != null && dataDirLock.channel().isOpen()) {
      try {
        dataDirLock.channel().close();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot release " + dataDir.get().resolve("lock"), e);
      }
    }
  }
}
