package dev.freshet.engine.dml;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import dev.freshet.planner.FreshetPlanner;
import dev.freshet.planner.FreshetTypeSystem;
import dev.freshet.planner.FreshetValidator;
import dev.freshet.planner.catalog.Catalog;
import java.sql.SQLException;
import java.util.List;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUpdate;

/**
 * An INSERT, UPDATE or DELETE of one of the engine's own tables, validated by Freshet against
 * its catalog and written in H2's SQL for the table's database: only Freshet's functions, only
 * the engine's own tables, nothing of H2's that Freshet does not have.
 *
 * <pre>{@code
 * LocalTableDml dml = LocalTableDml.of(catalog, parse(
 *     "UPDATE products SET price = price * 2 WHERE id IN (SELECT id FROM sale)"));
 * dml.h2Sql();    // UPDATE "FRESHET_TABLES"."PRODUCTS" SET "PRICE" = ... WHERE "ID" IN
 *                 //   (SELECT "SALE"."ID" FROM "FRESHET_TABLES"."SALE" AS "SALE")
 * dml.target();   // "PRODUCTS"
 * dml.reads();    // [SALE]
 * LocalTableDml.of(catalog, parse("UPDATE products SET name = FILE_READ('/etc/hostname')"));
 * // SQLException 42883: ... FILE_READ is not one of Freshet's functions, which docs/sql.md lists
 * }</pre>
 *
 * <p>The statement H2 runs is written from the validated tree, not from the text the user sent:
 * its functions are the ones Calcite resolved among Freshet's (an unknown one is {@code 42883}),
 * its tables the ones Freshet's catalog resolved, each renamed to its H2 table
 * ({@link LocalTableReferences}; a stream, a view, a table of another database, a system table
 * or H2's own catalog is {@code 0A000} or {@code 42S02}), and every identifier and string is
 * quoted anew ({@link H2DmlDialect}). H2 then runs it as an account that can reach nothing but
 * these tables, should anything get past this.
 *
 * @param target the table the statement changes
 * @param reads the engine's own tables it reads in its FROM clauses (subqueries, INSERT ...
 *     SELECT), sorted, each once
 * @param h2Sql the statement in H2's SQL, naming tables by their H2 names
 */
public record LocalTableDml(String target, List<String> reads, String h2Sql) {
  public LocalTableDml {
    requireNonNull(target, "target");
    reads = List.copyOf(reads);
    requireNonNull(h2Sql, "h2Sql");
  }

  /**
   * Validates {@code statement}, an INSERT, UPDATE or DELETE whose target is one of the
   * engine's own tables, and writes it for H2. Validation rewrites {@code statement}.
   *
   * @throws SQLException {@code 42883} for a function Freshet does not have; {@code 42S02} for
   *     a table or schema Freshet does not have (H2's {@code INFORMATION_SCHEMA} and
   *     {@code FRESHET_CATALOG} among them); {@code 0A000} for a stream, view or external
   *     table read, a table function or a hint; any other validation error with its state
   */
  public static LocalTableDml of(Catalog catalog, SqlNode statement) throws SQLException {
    String what = verb(statement) + " table " + targetName(statement);
    JavaTypeFactory typeFactory = new JavaTypeFactoryImpl(FreshetTypeSystem.INSTANCE);
    // Freshet's schema and nothing else: no SYS, no INFORMATION_SCHEMA, no schema of H2's.
    CalciteSchema root = CalciteSchema.createRootSchema(false, false);
    root.add(FreshetPlanner.SCHEMA, requireNonNull(catalog, "catalog"));
    CalciteCatalogReader catalogReader = new CalciteCatalogReader(root,
        List.of(FreshetPlanner.SCHEMA), typeFactory, CalciteConnectionConfig.DEFAULT);
    FreshetValidator validator = FreshetValidator.of(catalogReader, typeFactory);
    SqlNode validated;
    try {
      validated = validator.validate(statement);
    } catch (CalciteContextException e) {
      throw validationError(what, validator, e);
    }
    LocalTableReferences references = new LocalTableReferences(validator, catalogReader, what);
    references.rename(validated);
    String h2Sql = validated.toSqlString(c -> c.withDialect(H2DmlDialect.INSTANCE)
        .withQuoteAllIdentifiers(true).withAlwaysUseParentheses(false)
        .withSelectListItemsOnSeparateLines(false).withUpdateSetListNewline(false)
        .withIndentation(0)).getSql();
    return new LocalTableDml(references.target(), references.reads(), h2Sql);
  }

  private static SQLException validationError(String what, FreshetValidator validator,
      CalciteContextException e) {
    SqlState state = validator.state(e);
    String message = "Cannot " + what + ": " + e.getMessage() + validator.hint(e);
    if (state == SqlState.OBJECT_NOT_FOUND) {
      message += ". An INSERT, UPDATE or DELETE of a table reads only the engine's own tables"
          + " (CREATE TABLE without a connector), by their names: no stream, view, system"
          + " table (SYS, INFORMATION_SCHEMA) or other schema";
    } else if (state == SqlState.COLUMN_NOT_FOUND) {
      message += ". DESCRIBE the table to see its columns";
    }
    return Errors.of(state, message, e);
  }

  private static String verb(SqlNode statement) {
    return statement instanceof SqlInsert ? "INSERT INTO"
        : statement instanceof SqlUpdate ? "UPDATE"
        : statement instanceof SqlDelete ? "DELETE FROM" : statement.getKind().toString();
  }

  private static String targetName(SqlNode statement) {
    SqlNode target = statement instanceof SqlInsert insert ? insert.getTargetTable()
        : statement instanceof SqlUpdate update ? update.getTargetTable()
        : statement instanceof SqlDelete delete ? delete.getTargetTable() : null;
    if (target instanceof SqlIdentifier id) {
      return id.names.get(id.names.size() - 1);
    }
    return String.valueOf(target);
  }
}
