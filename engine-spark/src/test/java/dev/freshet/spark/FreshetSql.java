package dev.freshet.spark;

import dev.freshet.engine.Engine;
import dev.freshet.engine.Session;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.logical.LogicalQuery;
import dev.freshet.planner.logical.LogicalStream;
import dev.freshet.planner.logical.conversion.LogicalPlanConverter;
import dev.freshet.planner.logical.conversion.LogicalTypes;
import dev.freshet.sql.FreshetSqlParser;
import dev.freshet.sql.parser.EmitMode;
import java.sql.SQLException;

/**
 * An embedded Freshet engine (no data directory) whose DDL declares the streams, and its planner,
 * which plans queries over them as the server would before they are translated for Spark.
 *
 * <pre>{@code
 * try (FreshetSql sql = new FreshetSql()) {
 *   sql.execute("CREATE STREAM clicks (...) WITH (connector = 'kafka', ...)");
 *   SparkSource clicks = SparkSources.of(spark, sql.stream("CLICKS"));
 *   LogicalQuery plan = sql.plan("SELECT STREAM * FROM clicks", EmitMode.APPEND);
 * }
 * }</pre>
 */
public final class FreshetSql implements AutoCloseable {
  private final Engine engine = new Engine("spark-test");
  private final Session session = engine.openSession();

  /** Runs a statement, such as CREATE STREAM. */
  public void execute(String sql) throws SQLException {
    session.execute(sql);
  }

  /**
   * The catalog's stream {@code name} (upper case, as declared without quotes), as queries read
   * it.
   */
  public LogicalStream stream(String name) {
    return LogicalTypes.stream(engine.planner().catalog().stream(name).orElseThrow());
  }

  /** Freshet's windowed plan of {@code sql}, as translated for Spark. */
  public LogicalQuery plan(String sql, EmitMode emit) throws Exception {
    return LogicalPlanConverter.convert(engine.planner().planWindowed(
        FreshetSqlParser.parse(sql), emit, FreshetPlanner.DEFAULT_MAX_WINDOWS_PER_ROW));
  }

  @Override public void close() {
    engine.close();
  }
}
