package org.apache.calcite.sql.ddl;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Opens {@link SqlCreateMaterializedView} to subclasses outside Calcite.
 *
 * <p>Calcite's constructor is package-private, so a node that adds to the statement (Freshet's
 * {@code WITH} options) and must stay a {@code SqlCreateMaterializedView}, as every caller that
 * runs a view tests, can only reach it from this package. This class adds nothing else; Calcite's
 * jar is neither sealed nor a named module, so the shared package loads on the class path.
 *
 * <pre>{@code
 * public class SqlCreateFreshetMaterializedView extends SqlCreateMaterializedViewBase { ... }
 * }</pre>
 */
public abstract class SqlCreateMaterializedViewBase extends SqlCreateMaterializedView {
  /** As Calcite's constructor: the name, the columns named (or null) and the query. */
  protected SqlCreateMaterializedViewBase(SqlParserPos pos, boolean replace,
      boolean ifNotExists, SqlIdentifier name, @Nullable SqlNodeList columnList,
      SqlNode query) {
    super(pos, replace, ifNotExists, name, columnList, query);
  }
}
