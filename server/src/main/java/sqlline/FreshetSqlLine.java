package sqlline;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * sqlline as {@code freshet console} runs it: a plan prints whole, and a result that
 * {@code rowLimit} cut says so.
 *
 * <pre>
 * SqlLine console = new FreshetSqlLine();
 * console.begin(new String[] {"-u", "jdbc:freshet:", "--rowLimit=10"}, null, true);
 * </pre>
 *
 * <p>It lives in sqlline's package because the only places that see a query's statement and
 * result set, {@code createStatement} and {@code print}, are package-private in sqlline 1.12;
 * its public extension points (output formats, command handlers) see neither. Overriding those
 * two keeps the rest of sqlline as it is, and needs nothing from the driver: the JDBC driver cuts
 * at {@code setMaxRows} without telling anyone, and Avatica's protocol carries no warning that
 * could say so.
 *
 * <ul>
 *   <li>With {@code rowLimit} N, the statement's row limit is N + 1 and the result set sqlline
 *   prints ends after N rows: the one more row, if a pull result has it, tells a result that was
 *   cut from one of exactly N rows. A push result never reads it (the next row of a query that
 *   never ends may be hours away): it ends after N rows and closing it stops the query.
 *   <li>A plan ({@code EXPLAIN}: one column named {@code PLAN}, its text of many lines) prints as
 *   its lines, not in a table, whose cells would be cut at {@code maxColumnWidth} and whose
 *   lines at {@code maxWidth}.
 * </ul>
 */
public final class FreshetSqlLine extends SqlLine {
  /** The only column of what {@code EXPLAIN} returns. */
  static final String PLAN_COLUMN = "PLAN";
  /** The output format that cuts cells and lines (csv, json and others print values whole). */
  static final String TABLE_FORMAT = "table";
  /** The columns every push result ends with. */
  static final String BATCH_ID_COLUMN = "_BATCH_ID";
  static final String ROW_KIND_COLUMN = "_ROW_KIND";

  @Override Statement createStatement() throws SQLException {
    Statement statement = super.createStatement();
    int limit = getOpts().getRowLimit();
    if (limit > 0 && limit < Integer.MAX_VALUE) {
      statement.setMaxRows(limit + 1);  // the one more row that tells a cut result: see print
    }
    return statement;
  }

  @Override int print(ResultSet rs, DispatchCallback callback) throws SQLException {
    ResultSetMetaData meta = rs.getMetaData();
    if (meta.getColumnCount() == 1 && PLAN_COLUMN.equalsIgnoreCase(meta.getColumnLabel(1))
        && TABLE_FORMAT.equals(getOpts().getOutputFormat())) {
      return printPlan(rs, callback);
    }
    int limit = getOpts().getRowLimit();
    if (limit <= 0) {
      return super.print(rs, callback);
    }
    boolean push = isPush(meta);
    RowLimit rows = new RowLimit(rs, limit, !push);
    int count = super.print(rows.resultSet(), callback);
    if (rows.cut) {
      output(push
          ? "(push query ended after " + limit + " rows by --rowLimit)"
          : "(result cut at " + limit + " rows by --rowLimit; raise it or add LIMIT)");
    }
    return count;
  }

  private int printPlan(ResultSet rs, DispatchCallback callback) throws SQLException {
    int count = 0;
    while (!callback.isCanceled() && rs.next()) {
      String plan = rs.getString(1);
      for (String line : plan == null ? new String[0] : plan.split("\\R")) {
        output(line);
      }
      count++;
    }
    return count;
  }

  private static boolean isPush(ResultSetMetaData meta) throws SQLException {
    int n = meta.getColumnCount();
    return n >= 2 && BATCH_ID_COLUMN.equalsIgnoreCase(meta.getColumnLabel(n - 1))
        && ROW_KIND_COLUMN.equalsIgnoreCase(meta.getColumnLabel(n));
  }

  /**
   * A result set that ends after {@code limit} rows, and knows whether that cut it. A proxy: the
   * console prints a few rows for a person, and sqlline reads them through a dozen getters.
   */
  private static final class RowLimit {
    private final ResultSet rs;
    private final int limit;
    private final boolean peek;
    private int returned;
    /** Whether rows were left out: the limit was reached and (when peeking) there was more. */
    boolean cut;

    RowLimit(ResultSet rs, int limit, boolean peek) {
      this.rs = rs;
      this.limit = limit;
      this.peek = peek;
    }

    ResultSet resultSet() {
      return (ResultSet) Proxy.newProxyInstance(ResultSet.class.getClassLoader(),
          new Class<?>[] {ResultSet.class}, (proxy, method, args) ->
              method.getName().equals("next") && method.getParameterCount() == 0
                  ? next() : invoke(method, args));
    }

    private boolean next() throws SQLException {
      if (returned >= limit) {
        cut = cut || !peek || rs.next();
        return false;
      }
      if (rs.next()) {
        returned++;
        return true;
      }
      return false;
    }

    private Object invoke(Method method, Object[] args) throws Throwable {
      try {
        return method.invoke(rs, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    }
  }
}
