package dev.freshet.engine;

import dev.freshet.engine.errors.Errors;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.ViewTable;
import dev.freshet.sql.FreshetSqlParser;
import dev.freshet.sql.parser.SqlEmit;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSelectKeyword;
import org.apache.calcite.sql.ddl.SqlCreateMaterializedView;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Which streams and views a statement names, decided before planning so that each query goes to
 * the engine that can run it: continuous queries and bounded queries over streams to Freshet's
 * executor, plain queries over views to Calcite.
 *
 * <pre>{@code
 * Set<String> names = ViewReferences.identifiers(node);     // e.g. [N, CLICKS_PER_USER]
 * boolean maybeView = ViewReferences.mentionsView(catalog, names);
 * }</pre>
 *
 * <p>A name in the statement is only a hint: it may be a column or an alias that happens to be
 * spelled like a view. Where the answer matters, a hint is confirmed by validating the query and
 * looking at the tables of its plan; the hint only spares queries that name no view that cost.
 */
final class ViewReferences {
  private ViewReferences() {
  }

  /** Every name part of every identifier in {@code node}: tables, columns, aliases. */
  static Set<String> identifiers(SqlNode node) {
    Set<String> names = new HashSet<>();
    node.accept(new SqlBasicVisitor<Void>() {
      @Override public Void visit(SqlIdentifier id) {
        names.addAll(id.names);
        return null;
      }
    });
    return names;
  }

  /** Whether one of {@code identifiers} is spelled like a view of {@code catalog}. */
  static boolean mentionsView(Catalog catalog, Set<String> identifiers) {
    return catalog.views().stream().anyMatch(v -> identifiers.contains(v.name()));
  }

  /** Whether one of {@code identifiers} is spelled like a stream of {@code catalog}. */
  static boolean mentionsStream(Catalog catalog, Set<String> identifiers) {
    return catalog.streamNames().stream().anyMatch(identifiers::contains);
  }

  /**
   * Fails if the query of {@code CREATE SINK} statement {@code sql} reads a materialized view:
   * a sink cannot write the deletions that reading a view's changes brings yet. (Push queries
   * and views read a view's changes.)
   *
   * @param query the parsed query, used for the cheap check
   */
  static void rejectInSinkQuery(Engine engine, SqlNode query, String sql)
      throws SQLException {
    Catalog catalog = engine.catalog();
    if (!mentionsView(catalog, identifiers(query))) {
      return;
    }
    // The caller's tree is validated later by the streaming planner, and validation rewrites a
    // tree: confirm on a tree of our own.
    SqlNode copy;
    try {
      copy = continuousQuery(FreshetSqlParser.parse(sql));
    } catch (SqlParseException e) {
      throw new IllegalStateException("statement parsed once but not twice: " + sql, e);
    }
    List<ViewTable> views;
    try {
      views = engine.pullQueries().prepare(copy).views();
    } catch (SQLException e) {
      // Not valid for Calcite alone: the streaming planner reports the problem in its own terms.
      return;
    }
    if (!views.isEmpty()) {
      String names = views.stream().map(ViewTable::name).collect(Collectors.joining(", "));
      throw Errors.notSupported("A sink's query cannot read a materialized view yet, and "
          + names + (views.size() == 1 ? " is one" : " are") + ". Read the stream the view"
          + " reads instead");
    }
  }

  /** The query of a push query or a view definition, without {@code STREAM} or {@code EMIT}. */
  private static SqlNode continuousQuery(SqlNode statement) {
    SqlNode query = statement instanceof SqlCreateMaterializedView
        ? ((SqlCreateMaterializedView) statement).query : statement;
    if (query instanceof SqlEmit) {
      query = ((SqlEmit) query).query();
    }
    if (FreshetPlanner.isStreamQuery(query)) {
      // Calcite's validator would demand a streamable table for STREAM; the keyword changes
      // nothing about which tables the query reads.
      SqlSelect select = (SqlSelect) query;
      SqlNode stream = select.getModifierNode(SqlSelectKeyword.STREAM);
      SqlNodeList keywords = new SqlNodeList(select.getParserPosition());
      for (SqlNode keyword : (SqlNodeList) select.getOperandList().get(0)) {
        if (keyword != stream) {
          keywords.add(keyword);
        }
      }
      select.setOperand(0, keywords);
    }
    return query;
  }
}
