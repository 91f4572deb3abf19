package dev.freshet.engine.query;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.errors.Failures;
import dev.freshet.executor.runtime.StateOperatorProgress;
import dev.freshet.executor.runtime.StreamingQueryProgress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The {@code SYS} schema: the engine's continuous queries and their progress as tables that any
 * plain {@code SELECT} reads, through Calcite like the materialized views.
 *
 * <pre>{@code
 * SELECT name, status, last_batch_id, state_rows, last_error FROM sys.queries;
 * SELECT batch_id, num_input_rows, rows_dropped_by_watermark FROM sys.query_progress
 *   WHERE name = 'CLICKS_PER_USER' ORDER BY batch_id DESC LIMIT 5;
 * SELECT JSON_VALUE(json, '$.stateOperators[0].numRowsUpdated') FROM sys.query_progress;
 * }</pre>
 *
 * <p>{@code SYS.QUERIES} has one row per continuous query of the engine (what {@code SHOW
 * QUERIES} lists), with the metrics of its last batch; {@code SYS.QUERY_PROGRESS} one row per
 * progress record the queries keep (the last 100 batches of each,
 * {@link dev.freshet.executor.runtime.MicroBatchExecution#PROGRESS_RETAINED}), with the whole
 * record in Spark's {@code StreamingQueryProgress} JSON layout ({@link ProgressJson});
 * {@code SYS.STATE_OPERATORS} one row per stateful operator of each query
 * ({@link StateOperatorsTable}).
 * Event times (the watermark, the batch timestamp) are {@code TIMESTAMP(3)} in UTC; a watermark
 * is NULL for a query that has none. Each scan reads the queries as they are at that moment.
 */
public final class SystemSchema extends AbstractSchema {
  /** The schema's name, as SQL names it (unquoted {@code sys} is upper-cased). */
  public static final String NAME = "SYS";

  private final Map<String, Table> tables;

  /**
   * Creates the schema over the queries that {@code queries} returns when a table is scanned.
   */
  public SystemSchema(Supplier<List<ContinuousQuery>> queries) {
    this(queries, List::of);
  }

  /**
   * Creates the schema over the queries that {@code queries} returns and the views' key columns
   * that {@code primaryKeys} returns ({@code TABLE_SCHEM, TABLE_NAME, COLUMN_NAME, KEY_SEQ,
   * PK_NAME}) when a table is scanned.
   */
  public SystemSchema(Supplier<List<ContinuousQuery>> queries, Supplier<List<Object[]>> primaryKeys) {
    this(queries, primaryKeys, List::of);
  }

  /**
   * As {@link #SystemSchema(Supplier, Supplier)}, with the grants {@code privileges} returns
   * ({@code OBJECT_NAME, OBJECT_TYPE, GRANTEE, PRIVILEGE, GRANTOR}) as {@code sys.privileges}.
   */
  public SystemSchema(Supplier<List<ContinuousQuery>> queries, Supplier<List<Object[]>> primaryKeys,
      Supplier<List<Object[]>> privileges) {
    requireNonNull(queries, "queries");
    requireNonNull(primaryKeys, "primaryKeys");
    requireNonNull(privileges, "privileges");
    this.tables = Map.of("QUERIES", new SystemTable(SystemSchema::queriesType,
            () -> queryRows(queries.get())),
        "STATE_OPERATORS", new SystemTable(StateOperatorsTable::rowType,
            () -> StateOperatorsTable.rows(queries.get())),
        "QUERY_PROGRESS", new SystemTable(SystemSchema::progressType,
            () -> progressRows(queries.get())),
        // What DatabaseMetaData.getPrimaryKeys answers: Avatica's protocol has no request for
        // it, so Freshet's remote driver reads this table instead.
        "PRIMARY_KEYS", new SystemTable(SystemSchema::primaryKeysType, primaryKeys),
        "PRIVILEGES", new SystemTable(SystemSchema::privilegesType, privileges));
  }

  private static RelDataType privilegesType(RelDataTypeFactory f) {
    return f.builder()
        .add("OBJECT_NAME", SqlTypeName.VARCHAR).nullable(true)
        .add("OBJECT_TYPE", SqlTypeName.VARCHAR).nullable(true)
        .add("GRANTEE", SqlTypeName.VARCHAR)
        .add("PRIVILEGE", SqlTypeName.VARCHAR)
        .add("GRANTOR", SqlTypeName.VARCHAR)
        .build();
  }

  private static RelDataType primaryKeysType(RelDataTypeFactory f) {
    return f.builder()
        .add("TABLE_SCHEM", SqlTypeName.VARCHAR)
        .add("TABLE_NAME", SqlTypeName.VARCHAR)
        .add("COLUMN_NAME", SqlTypeName.VARCHAR)
        .add("KEY_SEQ", SqlTypeName.SMALLINT)
        .add("PK_NAME", SqlTypeName.VARCHAR)
        .build();
  }

  @Override public Map<String, Table> getTableMap() {
    return tables;
  }

  /** A read-only table computed at each scan. */
  static final class SystemTable extends AbstractTable implements ScannableTable {
    private final Function<RelDataTypeFactory, RelDataType> rowType;
    private final Supplier<List<Object[]>> rows;

    SystemTable(Function<RelDataTypeFactory, RelDataType> rowType,
        Supplier<List<Object[]>> rows) {
      this.rowType = rowType;
      this.rows = rows;
    }

    @Override public RelDataType getRowType(RelDataTypeFactory typeFactory) {
      return rowType.apply(typeFactory);
    }

    @Override public Schema.TableType getJdbcTableType() {
      return Schema.TableType.SYSTEM_TABLE;
    }

    @Override public Enumerable<@Nullable Object[]> scan(DataContext root) {
      return Linq4j.asEnumerable(rows.get());
    }
  }

  private static RelDataType queriesType(RelDataTypeFactory f) {
    return f.builder()
        .add("QUERY_ID", SqlTypeName.VARCHAR)
        .add("NAME", SqlTypeName.VARCHAR)
        .add("STATUS", SqlTypeName.VARCHAR)
        .add("OUTPUT_MODE", SqlTypeName.VARCHAR)
        .add("LAST_BATCH_ID", SqlTypeName.BIGINT)
        .add("WATERMARK", SqlTypeName.TIMESTAMP, 3).nullable(true)
        .add("STATE_ROWS", SqlTypeName.BIGINT).nullable(true)
        .add("INPUT_ROWS_PER_SECOND", SqlTypeName.DOUBLE).nullable(true)
        .add("PROCESSED_ROWS_PER_SECOND", SqlTypeName.DOUBLE).nullable(true)
        .add("LAST_ERROR", SqlTypeName.VARCHAR).nullable(true)
        .add("QUERY_TEXT", SqlTypeName.VARCHAR)
        .add("ENGINE", SqlTypeName.VARCHAR)
        .add("RESTART_ATTEMPT", SqlTypeName.INTEGER)
        .add("RESTARTS", SqlTypeName.BIGINT)
        .build();
  }

  /**
   * One row per query. LAST_ERROR is the error a FAILED query failed with, the one a RESTARTING
   * query restarts after (RESTART_ATTEMPT says which attempt it waits for), or the last one an
   * ACTIVE query recovered from; RESTARTS counts every restart since the query started. The metrics are those of its last batch, NULL before its first; the
   * state rows are the groups its stateful operators keep (0 for a query without one).
   */
  private static List<Object[]> queryRows(List<ContinuousQuery> queries) {
    List<Object[]> rows = new ArrayList<>();
    for (ContinuousQuery query : queries) {
      List<StreamingQueryProgress> recent = query.recentProgress();
      Optional<StreamingQueryProgress> last = recent.isEmpty()
          ? Optional.empty() : Optional.of(recent.get(recent.size() - 1));
      rows.add(new Object[] {query.id(), query.name(), query.status().name(),
          query.outputMode().name(), query.lastBatchId(),
          last.map(SystemSchema::watermark).orElse(null),
          last.map(p -> sum(p, StateOperatorProgress::numRowsTotal)).orElse(null),
          last.map(StreamingQueryProgress::inputRowsPerSecond).orElse(null),
          last.map(StreamingQueryProgress::processedRowsPerSecond).orElse(null),
          query.lastFailure().map(Failures::describe).orElse(null), query.sql(), query.engine(),
          query.restartAttempt(), query.restarts()});
    }
    return rows;
  }

  private static RelDataType progressType(RelDataTypeFactory f) {
    return f.builder()
        .add("QUERY_ID", SqlTypeName.VARCHAR)
        .add("NAME", SqlTypeName.VARCHAR)
        .add("BATCH_ID", SqlTypeName.BIGINT)
        .add("BATCH_TIMESTAMP", SqlTypeName.TIMESTAMP, 3)
        .add("NUM_INPUT_ROWS", SqlTypeName.BIGINT)
        .add("WATERMARK", SqlTypeName.TIMESTAMP, 3).nullable(true)
        .add("DURATION_MS", SqlTypeName.BIGINT)
        .add("NUM_OUTPUT_ROWS", SqlTypeName.BIGINT)
        .add("STATE_ROWS_TOTAL", SqlTypeName.BIGINT)
        .add("STATE_ROWS_UPDATED", SqlTypeName.BIGINT)
        .add("STATE_ROWS_REMOVED", SqlTypeName.BIGINT)
        .add("ROWS_DROPPED_BY_WATERMARK", SqlTypeName.BIGINT)
        .add("ROWS_DROPPED_BY_ERROR", SqlTypeName.BIGINT)
        .add("JSON", SqlTypeName.VARCHAR)
        .build();
  }

  /**
   * One row per progress record of every query, oldest first per query; the state columns add up
   * the query's stateful operators (0 without one), the JSON holds each operator apart.
   */
  private static List<Object[]> progressRows(List<ContinuousQuery> queries) {
    List<Object[]> rows = new ArrayList<>();
    for (ContinuousQuery query : queries) {
      for (StreamingQueryProgress p : query.recentProgress()) {
        rows.add(new Object[] {p.id(), p.name(), p.batchId(), p.timestampMs(),
            p.numInputRows(), watermark(p), p.durationMs(), p.numOutputRows(),
            sum(p, StateOperatorProgress::numRowsTotal),
            sum(p, StateOperatorProgress::numRowsUpdated),
            sum(p, StateOperatorProgress::numRowsRemoved),
            sum(p, StateOperatorProgress::numRowsDroppedByWatermark),
            p.numRowsDroppedByError(), ProgressJson.toJson(p)});
      }
    }
    return rows;
  }

  /** The batch's watermark in milliseconds (a TIMESTAMP's internal value), if it has one. */
  private static @Nullable Long watermark(StreamingQueryProgress p) {
    return p.eventTime().containsKey("watermark") ? p.batchWatermarkMs() : null;
  }

  private static long sum(StreamingQueryProgress p,
      java.util.function.ToLongFunction<StateOperatorProgress> metric) {
    return p.stateOperators().stream().mapToLong(metric).sum();
  }
}
