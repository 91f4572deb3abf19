package dev.freshet.engine.query;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.security.Principal;
import dev.freshet.executor.limits.MemoryBudgetExceededException;
import dev.freshet.executor.limits.MemoryPool;
import dev.freshet.executor.limits.QueryCancelledException;
import dev.freshet.executor.limits.QueryResources;
import java.sql.SQLException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One execution of a plain {@code SELECT}: its id ({@code plain-7}), its memory budget and its
 * cancellation, which {@code Statement.cancel()} and {@code STOP QUERY plain-7} set from another
 * thread. The rows it reads from streams and the rows of its result count against its budget
 * ({@code 'query.memory.budget'}) and the engine's, as a continuous query's state does; the
 * loops that read or hand out rows check the cancellation every {@value #CHECK_INTERVAL} rows.
 *
 * <pre>{@code
 * try (PlainQueryRun run = PlainQueryRun.start(sql, principal, budget, engine.memoryPool())) {
 *   cancelSignal.attach(run::cancel);
 *   rows = select.execute(maxRows, run);   // 53200 over budget, 57014 once cancelled
 * }
 * }</pre>
 */
public final class PlainQueryRun implements AutoCloseable {
  /** Rows between two checks of the budget and the cancellation. */
  public static final int CHECK_INTERVAL = 256;
  /** Longest excerpt of the statement quoted in an error. */
  private static final int QUOTE_LIMIT = 120;
  private static final AtomicLong IDS = new AtomicLong();

  private final long sequence;
  private final String id;
  private final String sql;
  private final Principal principal;
  private final long startedNanos = System.nanoTime();
  private final QueryResources resources;
  /** Calcite's {@code DataContext.Variable.CANCEL_FLAG}, set with the resources' flag. */
  private final AtomicBoolean calciteCancelFlag = new AtomicBoolean();

  private PlainQueryRun(String sql, Principal principal, long budgetBytes, MemoryPool pool) {
    this.sequence = IDS.incrementAndGet();
    this.id = "plain-" + sequence;
    this.sql = requireNonNull(sql, "sql");
    this.principal = requireNonNull(principal, "principal");
    this.resources = new QueryResources(id, budgetBytes, pool);
  }

  /** A run of {@code sql} by {@code principal}, within {@code budgetBytes} and {@code pool}. */
  public static PlainQueryRun start(String sql, Principal principal, long budgetBytes,
      MemoryPool pool) {
    return new PlainQueryRun(sql, principal, budgetBytes, pool);
  }

  /** A run with no budget, for callers that plan rather than serve a statement. */
  public static PlainQueryRun unlimited(String sql) {
    return new PlainQueryRun(sql, Principal.LOCAL, MemoryPool.UNLIMITED,
        new MemoryPool(MemoryPool.UNLIMITED));
  }

  /**
   * The estimated heap of a row of {@code columns} columns that a plain query holds: the array,
   * and a boxed value or short string per column.
   */
  public static long bytesPerRow(int columns) {
    return 32 + 40L * columns;
  }

  /** Its id, {@code plain-<n>}, as SHOW QUERIES lists it and STOP QUERY takes it. */
  public String id() {
    return id;
  }

  /** Its number, in the order runs started. */
  long sequence() {
    return sequence;
  }

  /** The statement's text. */
  public String sql() {
    return sql;
  }

  /** Who runs it. */
  public Principal principal() {
    return principal;
  }

  /** The budget and cancellation flag that the loops reading rows check. */
  public QueryResources resources() {
    return resources;
  }

  /** The flag Calcite's generated code and enumerables read. */
  public AtomicBoolean calciteCancelFlag() {
    return calciteCancelFlag;
  }

  /** Asks the run to end at its next check, with 57014. Idempotent, any thread. */
  public void cancel() {
    resources.cancel();
    calciteCancelFlag.set(true);
  }

  /** Gives its memory back to the engine's pool. */
  @Override public void close() {
    resources.release();
  }

  /** 57014: the run was cancelled; says by what and after how long. */
  public SQLException cancelled(Throwable cause) {
    long ms = (System.nanoTime() - startedNanos) / 1_000_000;
    return Errors.of(SqlState.QUERY_CANCELED, "Plain query " + id + " (" + quote(sql)
        + ") was cancelled after " + ms + " ms, by Statement.cancel() or STOP QUERY " + id,
        cause);
  }

  /** 53200: the rows it holds would pass its budget or the engine's; says which option raises it. */
  public SQLException overBudget(MemoryBudgetExceededException e) {
    String which = e.scope() == MemoryBudgetExceededException.Scope.QUERY
        ? "its memory budget of " + e.budgetBytes() + " bytes. Raise it with SET"
          + " 'query.memory.budget' = '...' (e.g. '1 GB' or 'unlimited'; the default is 40%"
          + " of the JVM's maximum heap)"
        : "the engine's memory budget of " + e.budgetBytes() + " bytes for all its queries"
          + " together. Stop other queries, or raise the engine's budget when it starts (the"
          + " connection property engineMemoryBudget, or freshet serve --engine-memory-budget)";
    return Errors.of(SqlState.OUT_OF_MEMORY, "Plain query " + id + " (" + quote(sql)
        + ") holds an estimated " + e.neededBytes() + " bytes of rows read and rows of its"
        + " result, more than " + which + ", or read fewer rows: filter the streams, or keep the"
        + " aggregate in a materialized view and query that", e);
  }

  /**
   * The statement's error for {@code e} if it, or a cause of it (an operator's task on another
   * thread), is the run's budget or cancellation: 53200 or 57014; empty for any other failure.
   */
  public Optional<SQLException> failure(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof MemoryBudgetExceededException overBudget) {
        return Optional.of(overBudget(overBudget));
      }
      if (t instanceof QueryCancelledException cancelled) {
        return Optional.of(cancelled(cancelled));
      }
    }
    return Optional.empty();
  }

  private static String quote(String sql) {
    String oneLine = sql.strip().replaceAll("\\s+", " ");
    return oneLine.length() <= QUOTE_LIMIT ? oneLine : oneLine.substring(0, QUOTE_LIMIT) + "...";
  }
}
