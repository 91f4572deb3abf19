package dev.freshet.engine.dml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.engine.store.LocalTables;
import dev.freshet.engine.store.ResultDatabase;
import dev.freshet.engine.table.TableColumn;
import dev.freshet.planner.catalog.Catalog;
import dev.freshet.planner.catalog.ReferenceTable;
import dev.freshet.sql.FreshetSqlParser;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeImpl;
import org.apache.calcite.rel.type.RelDataTypeSystem;
import org.apache.calcite.sql.type.SqlTypeFactoryImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The H2 statement written from a validated INSERT, UPDATE or DELETE of the engine's own tables:
 * every table by its H2 name, every identifier quoted, every string escaped, and the tables it
 * reads listed.
 */
class LocalTableDmlSqlTest {
  private final ResultDatabase db;
  private final Catalog catalog = new Catalog();

  LocalTableDmlSqlTest() throws SQLException {
    db = ResultDatabase.open(Optional.empty());
    LocalTables tables = new LocalTables(db);
    RelDataTypeFactory types = new SqlTypeFactoryImpl(RelDataTypeSystem.DEFAULT);
    RelDataType rowType = types.builder()
        .add("ID", SqlTypeName.INTEGER)
        .add("V", SqlTypeName.VARCHAR).nullable(true)
        .build();
    for (String name : List.of("T", "U", "we\"ird; DROP TABLE T --")) {
      catalog.addTable(new ReferenceTable(name, RelDataTypeImpl.proto(rowType), List.of("ID"),
          Map.of(), true, tables.create(name, TableColumn.of(rowType), List.of("ID"))));
    }
  }

  @AfterEach void close() throws SQLException {
    db.close();
  }

  private LocalTableDml of(String sql) throws Exception {
    return LocalTableDml.of(catalog, FreshetSqlParser.parse(sql));
  }

  @Test void shouldWriteEachTableByItsH2NameAndQuoteEveryIdentifier() throws Exception {
    LocalTableDml update = of("UPDATE t SET v = UPPER(v) || 'it''s' WHERE id IN"
        + " (SELECT id FROM u WHERE v = 'x') AND NOT EXISTS (SELECT 1 FROM \"we\"\"ird; DROP"
        + " TABLE T --\" w WHERE w.id = t.id)");
    assertEquals("T", update.target());
    assertEquals(List.of("U", "we\"ird; DROP TABLE T --"), update.reads());
    assertEquals("UPDATE \"FRESHET_TABLES\".\"T\" SET \"V\" = UPPER(\"T\".\"V\") || 'it''s'"
        + " WHERE \"ID\" IN (SELECT \"U\".\"ID\" FROM \"FRESHET_TABLES\".\"U\" AS \"U\" WHERE"
        + " \"U\".\"V\" = 'x') AND NOT EXISTS (SELECT 1 FROM \"FRESHET_TABLES\".\"we\"\"ird;"
        + " DROP TABLE T --\" AS \"W\" WHERE \"W\".\"ID\" = \"T\".\"ID\")",
        update.h2Sql().replace('\n', ' '));

    LocalTableDml insert = of("INSERT INTO t (id, v) WITH w AS (SELECT id + 1 AS id, v FROM"
        + " t) SELECT id, v FROM w");
    assertEquals(List.of("T"), insert.reads());
    assertEquals("INSERT INTO \"FRESHET_TABLES\".\"T\" (\"ID\", \"V\") WITH \"W\" AS (SELECT"
        + " \"T\".\"ID\" + 1 AS \"ID\", \"T\".\"V\" FROM \"FRESHET_TABLES\".\"T\" AS \"T\")"
        + " SELECT \"W\".\"ID\", \"W\".\"V\" FROM \"W\" AS \"W\"",
        insert.h2Sql().replace('\n', ' '));

    LocalTableDml delete = of("DELETE FROM t WHERE EXISTS (SELECT * FROM u WHERE u.id = t.id)");
    assertEquals("DELETE FROM \"FRESHET_TABLES\".\"T\" WHERE EXISTS (SELECT \"U\".\"ID\","
        + " \"U\".\"V\" FROM \"FRESHET_TABLES\".\"U\" AS \"U\" WHERE \"U\".\"ID\" ="
        + " \"T\".\"ID\")", delete.h2Sql().replace('\n', ' '));
  }

  @Test void shouldRefuseATableOfAnotherSchemaEvenOfTheSameName() {
    SQLException e = assertThrows(SQLException.class, () -> of("DELETE FROM t WHERE id IN"
        + " (SELECT id FROM FRESHET_TABLES.u)"));
    assertEquals("42S02", e.getSQLState(), e.getMessage());
  }
}
