package dev.freshet.planner.catalog;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

/**
 * The streams, materialized views and reference tables an engine knows, by name; shared by all sessions of the
 * engine.
 *
 * <pre>{@code
 * catalog.addStream(clicks);               // false if a stream or a view is called CLICKS
 * catalog.addView(clicksPerUser);
 * Optional<ViewTable> v = catalog.view("CLICKS_PER_USER");
 * }</pre>
 *
 * <p>Streams, views and tables share one namespace: a name is unique across both, so that a query's
 * {@code FROM} clause is never ambiguous. It is also the Calcite schema that queries resolve names
 * against, so an object created by one connection is visible to the next statement of any other.
 *
 * <p>Each method is atomic on its own. Checks that span several calls, such as "no view reads
 * the stream being dropped", are the caller's to serialize.
 */
public final class Catalog extends AbstractSchema {
  /**
   * Every stream, view and table, by name; values are {@link StreamTable}s, {@link ViewTable}s
   * and {@link ReferenceTable}s.
   */
  private final ConcurrentHashMap<String, Table> tables = new ConcurrentHashMap<>();
  /** Counts the changes; see {@link #version()}. */
  private final AtomicLong version = new AtomicLong();

  /**
   * A number that changes whenever a stream or view is added or removed: a plan made when the
   * catalog had version {@code v} resolved its names as they are while the version is still
   * {@code v}.
   */
  public long version() {
    return version.get();
  }

  /** Adds {@code stream}; returns false if the name is taken (nothing changes then). */
  public boolean addStream(StreamTable stream) {
    return changed(tables.putIfAbsent(stream.name(), stream) == null);
  }

  /** Adds {@code view}; returns false if the name is taken (nothing changes then). */
  public boolean addView(ViewTable view) {
    return changed(tables.putIfAbsent(view.name(), view) == null);
  }

  /** Adds reference {@code table}; returns false if the name is taken (nothing changes then). */
  public boolean addTable(ReferenceTable table) {
    return changed(tables.putIfAbsent(table.name(), table) == null);
  }

  /** Removes a reference table and returns it; a stream or view of that name is not removed. */
  public Optional<ReferenceTable> dropTable(String name) {
    Table table = tables.get(name);
    return changed(table instanceof ReferenceTable && tables.remove(name, table))
        ? Optional.of((ReferenceTable) table) : Optional.empty();
  }

  /** Looks a reference table up by its exact (case-sensitive) name. */
  public Optional<ReferenceTable> table(String name) {
    Table table = tables.get(name);
    return table instanceof ReferenceTable ? Optional.of((ReferenceTable) table)
        : Optional.empty();
  }

  /** All reference tables, sorted by name. */
  public List<ReferenceTable> referenceTables() {
    return tables.values().stream().filter(t -> t instanceof ReferenceTable)
        .map(t -> (ReferenceTable) t).sorted(Comparator.comparing(ReferenceTable::name))
        .collect(Collectors.toList());
  }

  /** Removes a stream; returns whether it existed. A view of that name is not removed. */
  public boolean dropStream(String name) {
    Table table = tables.get(name);
    return changed(table instanceof StreamTable && tables.remove(name, table));
  }

  /** Removes a view and returns it; a stream of that name is not removed. */
  public Optional<ViewTable> dropView(String name) {
    Table table = tables.get(name);
    return changed(table instanceof ViewTable && tables.remove(name, table))
        ? Optional.of((ViewTable) table) : Optional.empty();
  }

  /** Counts a change if there was one; returns {@code changed}. */
  private boolean changed(boolean changed) {
    if (changed) {
      version.incrementAndGet();
    }
    return changed;
  }

  /** Looks a stream up by its exact (case-sensitive) name. */
  public Optional<StreamTable> stream(String name) {
    Table table = tables.get(name);
    return table instanceof StreamTable ? Optional.of((StreamTable) table) : Optional.empty();
  }

  /** Looks a view up by its exact (case-sensitive) name. */
  public Optional<ViewTable> view(String name) {
    Table table = tables.get(name);
    return table instanceof ViewTable ? Optional.of((ViewTable) table) : Optional.empty();
  }

  /** Whether a stream or a view has this exact name. */
  public boolean contains(String name) {
    return tables.containsKey(name);
  }

  /** Names of all streams, sorted. */
  public List<String> streamNames() {
    return tables.entrySet().stream().filter(e -> e.getValue() instanceof StreamTable)
        .map(Map.Entry::getKey).sorted().collect(Collectors.toList());
  }

  /** All views, sorted by name. */
  public List<ViewTable> views() {
    return tables.values().stream().filter(t -> t instanceof ViewTable)
        .map(t -> (ViewTable) t).sorted(Comparator.comparing(ViewTable::name))
        .collect(Collectors.toList());
  }

  @Override protected Map<String, Table> getTableMap() {
    return Map.copyOf(tables);
  }

  @Override public boolean isMutable() {
    return true;
  }
}
