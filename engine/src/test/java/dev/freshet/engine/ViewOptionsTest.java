package dev.freshet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.sql.FreshetSqlParser;
import java.util.Map;
import org.apache.calcite.sql.ddl.SqlCreateMaterializedView;
import org.junit.jupiter.api.Test;

/**
 * {@link ViewOptions}: which engine a view runs on, its own or the engines' default. The
 * refusals are tested through JDBC (ViewWithOptionsTest in jdbc-driver).
 */
class ViewOptionsTest {
  private static final ViewEngines SPARK_BY_DEFAULT = new ViewEngines("Spark", Map.of());

  private static ViewOptions of(String sql, ViewEngines defaults) throws Exception {
    return ViewOptions.of((SqlCreateMaterializedView) FreshetSqlParser.parse(sql), defaults);
  }

  @Test void shouldRunOnTheDefaultEngineWhenNoEngineIsGiven() throws Exception {
    assertEquals("freshet", of("CREATE MATERIALIZED VIEW v AS SELECT a FROM t",
        ViewEngines.DEFAULT).engine());
    assertEquals("spark", of("CREATE MATERIALIZED VIEW v AS SELECT a FROM t",
        SPARK_BY_DEFAULT).engine());
  }

  @Test void shouldRunOnTheViewsEngineInLowerCaseWhenOneIsGiven() throws Exception {
    assertEquals("freshet", of("CREATE MATERIALIZED VIEW v WITH (ENGINE = 'Freshet')"
        + " AS SELECT a FROM t", SPARK_BY_DEFAULT).engine());
    assertEquals("my-engine-2", of("CREATE MATERIALIZED VIEW v WITH ('engine' = 'My-Engine-2')"
        + " AS SELECT a FROM t", ViewEngines.DEFAULT).engine());
  }
}
