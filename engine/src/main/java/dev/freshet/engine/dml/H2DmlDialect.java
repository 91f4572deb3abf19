package dev.freshet.engine.dml;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.dialect.H2SqlDialect;

/**
 * H2's SQL as a validated statement of a table is written in for H2 to run: Calcite's H2
 * dialect, identifiers always quoted ({@code "T"}, with {@code ""} for a quote inside) and
 * string literals always escaped ({@code 'it''s'}), so no name or value can end early and
 * become SQL of its own. {@code EXISTS} always has its parentheses: Calcite leaves them out
 * where the predicate is a whole condition ({@code WHERE EXISTS SELECT ...}), which H2 refuses.
 *
 * <pre>{@code
 * validated.toSqlString(c -> c.withDialect(H2DmlDialect.INSTANCE).withQuoteAllIdentifiers(true))
 * // DELETE FROM "FRESHET_TABLES"."T" WHERE EXISTS (SELECT ...)
 * }</pre>
 */
final class H2DmlDialect extends H2SqlDialect {
  static final H2DmlDialect INSTANCE = new H2DmlDialect();

  private H2DmlDialect() {
    super(H2SqlDialect.DEFAULT_CONTEXT);
  }

  @Override public void unparseCall(SqlWriter writer, SqlCall call, int leftPrec,
      int rightPrec) {
    if (call.getKind() == SqlKind.EXISTS) {
      writer.keyword("EXISTS");
      // A query's frame: the query inside takes it for its own and adds no second parentheses.
      SqlWriter.Frame frame = writer.startList(SqlWriter.FrameTypeEnum.SELECT, "(", ")");
      SqlNode query = call.operand(0);
      query.unparse(writer, 0, 0);
      writer.endList(frame);
      return;
    }
    super.unparseCall(writer, call, leftPrec, rightPrec);
  }
}
