package dev.freshet.engine.security;

import dev.freshet.planner.FreshetPlanner;
import dev.freshet.sql.parser.SqlCreateSink;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlMerge;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The objects a statement reads and the one it writes, by the names its {@code FROM} clauses
 * (subqueries, joins, table functions and {@code WITH} included) and its DML target give, before
 * any planning: what the privileges are checked against. Names are those written, upper case for
 * unquoted ones; {@link #matching} resolves them to the catalog's, ignoring case as the planner
 * does.
 *
 * <pre>{@code
 * ObjectReferences refs = ObjectReferences.of(parse(
 *     "INSERT INTO out SELECT * FROM clicks c JOIN users u ON c.u = u.id"));
 * refs.reads();    // [CLICKS, USERS]
 * refs.written();  // OUT
 * }</pre>
 *
 * <p>Names in other schemas than Freshet's ({@code sys}, {@code INFORMATION_SCHEMA}) are not
 * objects with owners; what those list is filtered per user instead. A {@code WITH} item's name
 * is not an object either.
 */
public final class ObjectReferences {
  private final Set<String> reads = new LinkedHashSet<>();
  private final Set<String> withNames = new LinkedHashSet<>();
  private @Nullable String written;

  private ObjectReferences() {
  }

  /** The objects {@code statement} reads and writes. */
  public static ObjectReferences of(SqlNode statement) {
    ObjectReferences refs = new ObjectReferences();
    statement.accept(refs.new Walker());
    refs.reads.removeAll(refs.withNames);
    return refs;
  }

  /** The names the statement reads from, as written. */
  public Set<String> reads() {
    return reads;
  }

  /** The name the statement inserts into, updates or deletes from; null if none. */
  public @Nullable String written() {
    return written;
  }

  /**
   * The names of {@code objects} that {@code name} may resolve to: equal ignoring case, as the
   * planner resolves names.
   */
  public static List<String> matching(String name, List<String> objects) {
    return objects.stream().filter(o -> o.equalsIgnoreCase(name)).toList();
  }

  /** The object an identifier names in Freshet's schema; null for another schema's. */
  private static @Nullable String objectName(SqlIdentifier id) {
    if (id.isStar()) {
      return null;
    }
    List<String> names = id.names;
    if (names.size() == 1) {
      return names.get(0);
    }
    if (names.size() == 2 && names.get(0).toUpperCase(Locale.ROOT)
        .equals(FreshetPlanner.SCHEMA)) {
      return names.get(1);
    }
    return null;
  }

  private void read(SqlNode node) {
    if (node instanceof SqlIdentifier id) {
      String name = objectName(id);
      if (name != null) {
        reads.add(name);
      }
    }
  }

  /** Visits every node; at each FROM clause and DML target it records the names. */
  private final class Walker extends SqlBasicVisitor<Void> {
    @Override public Void visit(SqlCall call) {
      if (call instanceof SqlSelect select && select.getFrom() != null) {
        from(select.getFrom());
      } else if (call instanceof SqlInsert insert) {
        target(insert.getTargetTable());
      } else if (call instanceof SqlUpdate update) {
        target(update.getTargetTable());
      } else if (call instanceof SqlDelete delete) {
        target(delete.getTargetTable());
      } else if (call instanceof SqlMerge merge) {
        target(merge.getTargetTable());
        from(merge.getSourceTableRef());
      } else if (call instanceof SqlWithItem item) {
        withNames.add(item.name.getSimple());
      } else if (call instanceof SqlCreateSink sink && sink.view() != null) {
        read(sink.view());
      }
      return super.visit(call);
    }

    private void target(SqlNode table) {
      if (table instanceof SqlIdentifier id) {
        written = objectName(id);
      } else if (table != null) {
        from(table);
      }
    }

    /** A FROM item: a name, a join, an alias, a table function, or a subquery. */
    private void from(SqlNode node) {
      if (node instanceof SqlIdentifier) {
        read(node);
      } else if (node instanceof SqlJoin join) {
        from(join.getLeft());
        from(join.getRight());
      } else if (node instanceof SqlCall call && call.getKind() == SqlKind.EXPLICIT_TABLE) {
        // TABLE clicks, as a table function's argument.
        from(call.operand(0));
      } else if (node instanceof SqlCall call && call.getKind() == SqlKind.AS) {
        // The alias (and column aliases) after the first operand are not objects.
        from(call.operand(0));
      } else if (node instanceof SqlCall call && call.getKind() != SqlKind.DESCRIPTOR
          && !call.getOperator().getName().equalsIgnoreCase("DESCRIPTOR")
          && call.getKind() != SqlKind.UNNEST && call.getKind() != SqlKind.VALUES
          && !call.isA(SqlKind.QUERY)) {
        // AS, TABLE name, LATERAL, table functions (TUMBLE(TABLE clicks, ...)): their first
        // operands name what they read; queries inside are visited as every node is.
        for (SqlNode operand : call.getOperandList()) {
          if (operand != null) {
            from(operand);
          }
        }
      }
    }
  }
}
