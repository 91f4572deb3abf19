package dev.freshet.engine.dml;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.store.LocalTables;
import dev.freshet.planner.catalog.ReferenceTable;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.ViewTable;
import java.sql.SQLException;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.schema.Table;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.validate.SqlValidatorImpl;
import org.apache.calcite.sql.validate.SqlValidatorNamespace;
import org.apache.calcite.sql.validate.SqlValidatorTable;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The tables a validated INSERT, UPDATE or DELETE of a table names, each checked to be one of
 * the engine's own tables and renamed to its H2 name ({@code FRESHET.T} becomes
 * {@code FRESHET_TABLES.T}), so that the statement written for H2 names exactly the tables that
 * Freshet validated it against. A stream, a view, a table of another database, a table function,
 * a hint, or a function of the session (CURRENT_USER, which H2 would answer with its own
 * account) is refused before anything runs.
 *
 * <pre>{@code
 * LocalTableReferences references = new LocalTableReferences(validator, catalogReader, verb);
 * references.rename(validated);   // throws for a stream read in a subquery, say
 * references.target();            // "PRODUCTS"
 * references.reads();             // [SALE]: the tables read in FROM clauses
 * }</pre>
 *
 * <p>It walks the whole statement: a table can be named only in a FROM clause, a join, or as the
 * statement's target, and every other place that could name one (a table function, UNNEST,
 * LATERAL, MATCH_RECOGNIZE, PIVOT, a table hint) is refused wherever it stands. Hints are
 * refused also because Calcite writes them back as comments with their text as given, which
 * could close the comment and become SQL of its own.
 */
final class LocalTableReferences {
  /** Kinds of node that name or produce a table another way than a FROM clause's name. */
  private static final Set<SqlKind> TABLE_PRODUCERS = EnumSet.of(SqlKind.COLLECTION_TABLE,
      SqlKind.UNNEST, SqlKind.LATERAL, SqlKind.TABLE_REF, SqlKind.EXPLICIT_TABLE,
      SqlKind.SNAPSHOT, SqlKind.TABLESAMPLE, SqlKind.MATCH_RECOGNIZE, SqlKind.PIVOT,
      SqlKind.UNPIVOT, SqlKind.EXTEND, SqlKind.HINT, SqlKind.CURSOR, SqlKind.DESCRIPTOR);
  /**
   * Functions of the session that H2 would answer about its own: its account, schema and
   * database, not the Freshet user's.
   */
  private static final Set<SqlOperator> SESSION_FUNCTIONS = Set.of(SqlStdOperatorTable.USER,
      SqlStdOperatorTable.CURRENT_USER, SqlStdOperatorTable.SESSION_USER,
      SqlStdOperatorTable.SYSTEM_USER, SqlStdOperatorTable.CURRENT_ROLE,
      SqlStdOperatorTable.CURRENT_PATH, SqlStdOperatorTable.CURRENT_SCHEMA,
      SqlStdOperatorTable.CURRENT_CATALOG);
  /** Kinds of a FROM clause's item that read no table by themselves (their parts are walked). */
  private static final Set<SqlKind> DERIVED_TABLES = EnumSet.of(SqlKind.SELECT, SqlKind.UNION,
      SqlKind.INTERSECT, SqlKind.EXCEPT, SqlKind.VALUES, SqlKind.WITH, SqlKind.ORDER_BY);

  private final SqlValidatorImpl validator;
  private final Prepare.CatalogReader catalogReader;
  /** What the statement does, for messages: {@code "UPDATE table T"}. */
  private final String statement;
  private final Set<String> reads = new TreeSet<>();
  private @Nullable String target;

  LocalTableReferences(SqlValidatorImpl validator, Prepare.CatalogReader catalogReader,
      String statement) {
    this.validator = requireNonNull(validator, "validator");
    this.catalogReader = requireNonNull(catalogReader, "catalogReader");
    this.statement = requireNonNull(statement, "statement");
  }

  /**
   * Checks every table {@code validated} names and renames each to its H2 name, in place.
   *
   * @throws SQLException 0A000 for a table that is not the engine's own, or a construct that
   *     could read one another way
   */
  void rename(SqlNode validated) throws SQLException {
    if (validated instanceof SqlInsert insert) {
      target(insert.getTargetTable());
      walk(insert.getSource());
    } else if (validated instanceof SqlUpdate update) {
      target(update.getTargetTable());
      walk(update.getSourceExpressionList());
      walk(update.getCondition());
    } else if (validated instanceof SqlDelete delete) {
      target(delete.getTargetTable());
      walk(delete.getCondition());
    } else {
      throw Errors.notSupported("Cannot run " + validated.getKind() + " as " + statement);
    }
  }

  /** The table the statement changes, as the catalog names it. */
  String target() {
    return requireNonNull(target, "target: rename first");
  }

  /** The engine's own tables the statement reads in its FROM clauses, sorted. */
  List<String> reads() {
    return List.copyOf(reads);
  }

  private void target(SqlNode node) throws SQLException {
    if (!(node instanceof SqlIdentifier id)) {
      throw notSupported("a target that is not a table's name");
    }
    Prepare.PreparingTable table = catalogReader.getTable(id.names);
    target = local(id, table == null ? null : table.unwrap(Table.class)).name();
  }

  /** Walks an expression, a query or a list of them, where tables are named only in FROM. */
  private void walk(@Nullable SqlNode node) throws SQLException {
    if (node == null || node instanceof SqlLiteral || node instanceof SqlDataTypeSpec
        || node instanceof SqlIntervalQualifier || node instanceof SqlDynamicParam) {
      // A value or a type.
      return;
    }
    if (node instanceof SqlIdentifier id) {
      // A column or a WITH item's name, or a function without parentheses (CURRENT_USER), which
      // Calcite and H2 both take an unquoted name of such a function for; the validator left
      // it a name where it did not rewrite the statement (an INSERT's VALUES).
      SqlCall function = validator.makeNullaryCall(id);
      if (function != null) {
        call(function);
      }
    } else if (node instanceof SqlNodeList list) {
      for (SqlNode item : list) {
        walk(item);
      }
    } else if (node instanceof SqlSelect select) {
      select(select);
    } else if (node instanceof SqlJoin join) {
      from(join.getLeft());
      from(join.getRight());
      walk(join.getCondition());
    } else if (node instanceof SqlCall call) {
      call(call);
    } else {
      throw notSupported(node.getKind().toString());
    }
  }

  private void select(SqlSelect select) throws SQLException {
    if (select.hasHints()) {
      throw notSupported("a hint (/*+ ... */)");
    }
    for (SqlNode operand : select.getOperandList()) {
      if (operand != null && operand == select.getFrom()) {
        from(operand);
      } else {
        walk(operand);
      }
    }
  }

  private void call(SqlCall call) throws SQLException {
    if (TABLE_PRODUCERS.contains(call.getKind())) {
      throw notSupported(call.getOperator().getName());
    }
    if (SESSION_FUNCTIONS.contains(call.getOperator())) {
      throw notSupported(call.getOperator().getName() + " (H2 would answer with its own account,"
          + " schema or database)");
    }
    if (call.getOperator() instanceof SqlUnresolvedFunction) {
      // Validation resolves every function or fails; one left unresolved never runs.
      throw Errors.of(SqlState.UNDEFINED_FUNCTION, "Cannot " + statement + ": function "
          + call.getOperator().getName() + " is not one of Freshet's functions, which"
          + " docs/sql.md lists (Functions)");
    }
    if (call.getKind() == SqlKind.AS) {
      // The alias and its column names are names.
      walk(call.operand(0));
      return;
    }
    for (SqlNode operand : call.getOperandList()) {
      walk(operand);
    }
  }

  /** Walks an item of a FROM clause: a table's name, a join, a subquery, VALUES. */
  private void from(SqlNode node) throws SQLException {
    if (node instanceof SqlIdentifier id) {
      table(id);
    } else if (node.getKind() == SqlKind.AS) {
      // The alias and its column names are names, not tables.
      from(((SqlCall) node).operand(0));
    } else if (node.getKind() == SqlKind.WITH_ITEM_TABLE_REF) {
      // A WITH item named in FROM, whose query is walked with the WITH clause.
      return;
    } else if (node instanceof SqlJoin || DERIVED_TABLES.contains(node.getKind())) {
      walk(node);
    } else {
      throw notSupported((node instanceof SqlCall call ? call.getOperator().getName()
          : node.getKind().toString()) + " in FROM");
    }
  }

  private void table(SqlIdentifier id) throws SQLException {
    SqlValidatorNamespace namespace = validator.getNamespace(id);
    if (namespace == null) {
      throw Errors.of(SqlState.INTERNAL_ERROR, "Cannot " + statement + ": validation left "
          + id + " unresolved. This is a bug: please report it with the statement");
    }
    SqlValidatorTable table = namespace.getTable();
    if (table == null && namespace.resolve().getNode() != null
        && namespace.resolve().getNode().getKind() == SqlKind.WITH_ITEM) {
      // A WITH item's name: H2 resolves it to the same query.
      return;
    }
    ReferenceTable local = local(id, table == null ? null : table.unwrap(Table.class));
    reads.add(local.name());
  }

  /**
   * The engine's own table that {@code table} is, with {@code id} renamed to its H2 name; or
   * the error that says what else it is.
   */
  private ReferenceTable local(SqlIdentifier id, @Nullable Table table) throws SQLException {
    if (table instanceof ReferenceTable reference
        && reference.data() instanceof LocalTables.Table data) {
      id.setNames(data.h2Name(), null);
      return reference;
    }
    String what = table instanceof StreamTable stream ? "stream " + stream.name()
        : table instanceof ViewTable view ? "materialized view " + view.name()
        : table instanceof ReferenceTable reference ? "table " + reference.name()
            + ", which is read from another database (connector 'jdbc')"
        : String.join(".", id.names);
    throw Errors.of(SqlState.FEATURE_NOT_SUPPORTED, "Cannot " + statement + ": it reads "
        + what + ", and an INSERT, UPDATE or DELETE of a table reads only the engine's own"
        + " tables (CREATE TABLE without a connector). Query the " + (table instanceof StreamTable
            ? "stream" : table instanceof ViewTable ? "view" : "table")
        + " on its own, and write the values it returns into the statement");
  }

  private SQLException notSupported(String what) {
    return Errors.of(SqlState.FEATURE_NOT_SUPPORTED, "Cannot " + statement + ": " + what
        + " is not supported in an INSERT, UPDATE or DELETE of a table, which reads the"
        + " engine's own tables by name, subqueries and VALUES only. Write the statement"
        + " without it");
  }
}
