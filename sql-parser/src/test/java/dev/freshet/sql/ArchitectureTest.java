package dev.freshet.sql;

import com.tngtech.archunit.lang.ArchRule;
import dev.freshet.testkit.ArchitectureCheck;
import dev.freshet.testkit.archfixture.Breaches;
import dev.freshet.testkit.archfixture.lower.Lower;
import dev.freshet.testkit.archfixture.upper.Upper;
import java.util.List;
import org.apache.calcite.sql.ddl.SqlCreateMaterializedViewBase;

/**
 * The SQL parser's architecture (STYLE.md §1), checked on its production classes, the generated
 * parser included: it turns text into Calcite's SQL trees and knows no other Freshet module; and
 * its packages form no cycle.
 *
 * <p>Each rule also runs against fixture classes that break it ({@code archfixture}), which
 * proves that it can fail. To add a rule, declare it and list it in {@link #BREACHES} with a
 * class that breaks it: one line each.
 */
class ArchitectureTest extends ArchitectureCheck {
  static final ArchRule SQL_PARSER_KNOWS_NO_OTHER_MODULE = knowsNo("dev.freshet.executor..",
      "dev.freshet.planner..", "dev.freshet.engine..", "dev.freshet.jdbc..",
      "dev.freshet.server..");
  static final ArchRule SQL_PARSER_PACKAGES_FORM_NO_CYCLE = packagesFormNoCycle();

  /** Every rule checked, with classes that break it: one breach per forbidden package. */
  private static final List<Breach> BREACHES = List.of(
      new Breach(SQL_PARSER_KNOWS_NO_OTHER_MODULE, Breaches.KnowsExecutor.class),
      new Breach(SQL_PARSER_KNOWS_NO_OTHER_MODULE, Breaches.KnowsPlanner.class),
      new Breach(SQL_PARSER_KNOWS_NO_OTHER_MODULE, Breaches.KnowsEngine.class),
      new Breach(SQL_PARSER_KNOWS_NO_OTHER_MODULE, Breaches.KnowsJdbcDriver.class),
      new Breach(SQL_PARSER_KNOWS_NO_OTHER_MODULE, Breaches.KnowsServer.class),
      new Breach(SQL_PARSER_PACKAGES_FORM_NO_CYCLE, Upper.class, Lower.class));

  ArchitectureTest() {
    super(FreshetSqlParser.class, "dev.freshet.sql", BREACHES);
  }

  /** The bridge to Calcite's package-private constructor of a materialized view's node. */
  @Override protected boolean isAllowedOutside(String className) {
    return className.equals(SqlCreateMaterializedViewBase.class.getName());
  }
}
