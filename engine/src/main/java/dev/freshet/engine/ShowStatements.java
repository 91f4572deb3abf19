package dev.freshet.engine;

import dev.freshet.engine.errors.CatalogErrors;
import dev.freshet.engine.errors.Failures;
import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.engine.query.PlainQueryRun;
import dev.freshet.engine.query.ResultColumn;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.engine.security.Principal;
import dev.freshet.executor.runtime.QueryStatus;
import dev.freshet.planner.catalog.ReferenceTable;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.ViewTable;
import dev.freshet.sql.parser.SqlShow;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlDescribeTable;
import org.apache.calcite.sql.SqlIdentifier;

/**
 * The {@link StatementHandler}s of {@code SHOW STREAMS | VIEWS | QUERIES | SINKS} and
 * {@code DESCRIBE}: each lists what the statement's user may see.
 *
 * <pre>{@code
 * SHOW QUERIES   -- QUERY_ID, NAME, STATUS, OUTPUT_MODE, LAST_BATCH_ID, QUERY_TEXT, ERROR
 * DESCRIBE clicks
 * }</pre>
 */
final class ShowStatements {
  private ShowStatements() {
  }

  static StatementResult show(StatementContext context, SqlShow show) throws SQLException {
    Engine engine = context.engine();
    Principal user = context.principal();
    return switch (show.kind()) {
      case STREAMS -> streams(engine, user);
      case VIEWS -> views(engine, user);
      case QUERIES -> queries(engine, user);
      case SINKS -> SinkDdl.show(engine, user);
    };
  }

  private static StatementResult streams(Engine engine, Principal user) {
    List<Object[]> rows = new ArrayList<>();
    for (String name : engine.catalog().streamNames()) {
      if (!engine.access().canSee(user, name)) {
        continue;
      }
      rows.add(new Object[] {name});
    }
    return new StatementResult.Rows(List.of(ResultColumn.varchar("STREAM_NAME", 128)), rows);
  }

  private static StatementResult views(Engine engine, Principal user) {
    List<Object[]> rows = new ArrayList<>();
    for (ViewTable view : engine.catalog().views()) {
      if (!engine.access().canSee(user, view.name())) {
        continue;
      }
      // A view's query is registered while the view exists; a view dropped meanwhile is skipped.
      Optional<ContinuousQuery> query = engine.query(view.queryId());
      if (query.isPresent()) {
        rows.add(new Object[] {view.name(), view.outputMode().name(), view.queryId(),
            query.get().status().name(), view.result().batchId()});
      }
    }
    return new StatementResult.Rows(List.of(ResultColumn.varchar("VIEW_NAME", 128),
        ResultColumn.varchar("OUTPUT_MODE", 8), ResultColumn.varchar("QUERY_ID", 36),
        ResultColumn.varchar("STATUS", 12), ResultColumn.bigint("BATCH_ID")), rows);
  }

  private static StatementResult queries(Engine engine, Principal user) {
    List<Object[]> rows = new ArrayList<>();
    for (ContinuousQuery query : engine.visibleQueries(user)) {
      QueryStatus status = query.status();
      rows.add(new Object[] {query.id(), query.name(), status.name(),
          query.outputMode().name(), query.lastBatchId(), query.sql(),
          query.exception().map(Failures::describe).orElse(null)});
    }
    // Plain queries while they run, so that STOP QUERY can name one from another connection.
    for (PlainQueryRun run : engine.plainQueries().visibleTo(user)) {
      rows.add(new Object[] {run.id(), run.id(), QueryStatus.ACTIVE.name(), "PLAIN", -1L,
          run.sql(), null});
    }
    return new StatementResult.Rows(List.of(ResultColumn.varchar("QUERY_ID", 36),
        ResultColumn.varchar("NAME", 128), ResultColumn.varchar("STATUS", 12),
        ResultColumn.varchar("OUTPUT_MODE", 8), ResultColumn.bigint("LAST_BATCH_ID"),
        ResultColumn.varchar("QUERY_TEXT", 4096), ResultColumn.varchar("ERROR", 4096)), rows);
  }

  static StatementResult describe(StatementContext context, SqlDescribeTable describe)
      throws SQLException {
    Engine engine = context.engine();
    SqlIdentifier id = describe.getTable();
    String name = id.names.get(id.names.size() - 1);
    Optional<StreamTable> stream = engine.catalog().stream(name);
    Optional<ViewTable> view = engine.catalog().view(name);
    Optional<ReferenceTable> table = engine.catalog().table(name);
    if (stream.isEmpty() && view.isEmpty() && table.isEmpty()) {
      throw CatalogErrors.objectNotFound(name);
    }
    RelDataType rowType = stream.isPresent()
        ? stream.get().getRowType(engine.planner().typeFactory())
        : view.isPresent() ? view.get().getRowType(engine.planner().typeFactory())
        : table.get().getRowType(engine.planner().typeFactory());
    List<Object[]> rows = new ArrayList<>();
    for (RelDataTypeField field : rowType.getFieldList()) {
      rows.add(new Object[] {field.getName(), field.getType().getFullTypeString(),
          stream.flatMap(StreamTable::watermark)
              .filter(w -> w.column().equals(field.getName()))
              .map(w -> "WATERMARK " + w.delayMs() + " ms").orElse(null)});
    }
    return new StatementResult.Rows(List.of(ResultColumn.varchar("COLUMN_NAME", 128),
        ResultColumn.varchar("TYPE", 64), ResultColumn.varchar("WATERMARK", 64)), rows);
  }
}
