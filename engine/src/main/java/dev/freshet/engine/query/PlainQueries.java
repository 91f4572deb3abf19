package dev.freshet.engine.query;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.security.Principal;
import dev.freshet.executor.limits.MemoryPool;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The plain queries an engine is running now, by id: what {@code SHOW QUERIES} lists besides the
 * continuous queries, and what {@code STOP QUERY plain-7} finds. A run is here from its start to
 * its end, both on the statement's own thread.
 *
 * <pre>{@code
 * PlainQueryRun run = engine.plainQueries().start(sql, principal, budget);
 * try {
 *   return select.execute(maxRows, run);
 * } finally {
 *   engine.plainQueries().end(run);
 * }
 * }</pre>
 */
public final class PlainQueries {
  private final MemoryPool pool;
  private final Map<String, PlainQueryRun> running = new ConcurrentHashMap<>();

  /** The registry of an engine whose queries share {@code pool}. */
  public PlainQueries(MemoryPool pool) {
    this.pool = requireNonNull(pool, "pool");
  }

  /** Starts and lists a run of {@code sql} by {@code principal} within {@code budgetBytes}. */
  public PlainQueryRun start(String sql, Principal principal, long budgetBytes) {
    PlainQueryRun run = PlainQueryRun.start(sql, principal, budgetBytes, pool);
    running.put(run.id(), run);
    return run;
  }

  /** Ends {@code run}: no longer listed, its memory given back. */
  public void end(PlainQueryRun run) {
    running.remove(run.id(), run);
    run.close();
  }

  /** The run {@code id}, if it is running. */
  public Optional<PlainQueryRun> get(String id) {
    return Optional.ofNullable(running.get(id));
  }

  /** The runs {@code user} may see and stop: their own, or all for an administrator; oldest first. */
  public List<PlainQueryRun> visibleTo(Principal user) {
    List<PlainQueryRun> visible = new ArrayList<>();
    for (PlainQueryRun run : running.values()) {
      if (user.admin() || run.principal().key().equals(user.key())) {
        visible.add(run);
      }
    }
    visible.sort(Comparator.comparingLong(PlainQueryRun::sequence));
    return visible;
  }
}
