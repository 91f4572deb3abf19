package dev.freshet.sql.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.sql.FreshetSqlParser;
import java.util.List;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.parser.SqlParseException;
import org.junit.jupiter.api.Test;

/** Tests of {@code GRANT}, {@code REVOKE} and {@code SHOW GRANTS}: nodes, round trips, errors. */
class GrantParserTest {
  /** Parses, checks that the unparsed text parses to the same text, and returns the node. */
  private static SqlNode parse(String sql) throws SqlParseException {
    SqlNode node = FreshetSqlParser.parse(sql);
    String unparsed = unparse(node);
    assertEquals(unparsed, unparse(FreshetSqlParser.parse(unparsed)), () -> "round trip of " + sql);
    return node;
  }

  private static String unparse(SqlNode node) {
    return node.toSqlString(CalciteSqlDialect.DEFAULT).getSql();
  }

  @Test void shouldParseGrantOfPrivilegesOnAnObjectOfAKind() throws Exception {
    SqlGrant grant = (SqlGrant) parse("GRANT SELECT, INSERT ON STREAM clicks TO bob");
    assertTrue(grant.isGrant());
    assertEquals(List.of("SELECT", "INSERT"), grant.privileges());
    assertEquals(SqlGrant.ObjectKind.STREAM, grant.kind());
    assertEquals("CLICKS", grant.object().getSimple());
    assertEquals("BOB", grant.grantee().getSimple());
    assertEquals("GRANT SELECT, INSERT ON STREAM \"CLICKS\" TO \"BOB\"", unparse(grant));

    SqlGrant view = (SqlGrant) parse("grant all privileges on materialized view totals to public");
    assertEquals(List.of("ALL"), view.privileges());
    assertEquals(SqlGrant.ObjectKind.MATERIALIZED_VIEW, view.kind());
    assertNull(view.grantee());
    assertEquals(SqlGrant.ObjectKind.TABLE,
        ((SqlGrant) parse("GRANT ALL ON TABLE products TO \"Alice\"")).kind());
    assertEquals("Alice", ((SqlGrant) parse("GRANT ALL ON TABLE products TO \"Alice\""))
        .grantee().getSimple());
  }

  @Test void shouldParseRevokeAndCreateConnector() throws Exception {
    SqlGrant revoke = (SqlGrant) parse("REVOKE SELECT ON totals FROM alice");
    assertFalse(revoke.isGrant());
    assertEquals(SqlGrant.ObjectKind.ANY, revoke.kind());
    assertEquals("REVOKE SELECT ON \"TOTALS\" FROM \"ALICE\"", unparse(revoke));

    SqlGrant connector = (SqlGrant) parse("GRANT CREATE CONNECTOR TO bob");
    assertTrue(connector.isCreateConnector());
    assertNull(connector.object());
    assertEquals("GRANT CREATE CONNECTOR TO \"BOB\"", unparse(connector));
  }

  @Test void shouldReadAnObjectCalledMaterializedAsAName() throws Exception {
    SqlGrant grant = (SqlGrant) parse("GRANT SELECT ON materialized TO bob");
    assertEquals(SqlGrant.ObjectKind.ANY, grant.kind());
    assertEquals("MATERIALIZED", grant.object().getSimple());
  }

  @Test void shouldRefuseTheWrongPrepositionWithItsPosition() {
    SqlParseException grant = assertThrows(SqlParseException.class,
        () -> FreshetSqlParser.parse("GRANT SELECT ON t FROM bob"));
    assertTrue(grant.getMessage().startsWith("GRANT names its users with TO"),
        grant.getMessage());
    assertEquals(1, grant.getPos().getLineNum());
    assertEquals(19, grant.getPos().getColumnNum());
    SqlParseException revoke = assertThrows(SqlParseException.class,
        () -> FreshetSqlParser.parse("REVOKE SELECT ON t TO bob"));
    assertTrue(revoke.getMessage().startsWith("REVOKE names its users with FROM"),
        revoke.getMessage());
    assertThrows(SqlParseException.class,
        () -> FreshetSqlParser.parse("GRANT UPDATE ON t TO bob"));
  }

  @Test void shouldParseShowGrantsWithAndWithoutAnObject() throws Exception {
    assertNull(((SqlShowGrants) parse("SHOW GRANTS")).object());
    SqlShowGrants on = (SqlShowGrants) parse("SHOW GRANTS ON totals");
    assertEquals("TOTALS", on.object().getSimple());
    assertEquals("SHOW GRANTS ON \"TOTALS\"", unparse(on));
  }

  @Test void shouldKeepConnectorAndGrantsUsableAsColumnNames() throws Exception {
    SqlSelect select = (SqlSelect) parse("SELECT connector, grants, public FROM t");
    assertEquals(3, select.getSelectList().size());
  }
}
