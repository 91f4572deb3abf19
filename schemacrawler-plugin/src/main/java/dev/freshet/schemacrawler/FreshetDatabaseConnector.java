package dev.freshet.schemacrawler;

import static schemacrawler.schemacrawler.MetadataRetrievalStrategy.data_dictionary_all;
import static schemacrawler.schemacrawler.SchemaInfoMetadataRetrievalStrategy.primaryKeysRetrievalStrategy;

import java.util.regex.Pattern;
import schemacrawler.schemacrawler.DatabaseServerType;
import schemacrawler.tools.databaseconnector.DatabaseConnector;
import us.fatehi.utility.datasource.DatabaseConnectionSourceBuilder;

/**
 * SchemaCrawler's database plugin for Freshet, chosen by SchemaCrawler for any {@code jdbc:freshet:}
 * URL once this jar is on its class path (for the command line, in its {@code lib/} beside
 * Freshet's remote driver):
 *
 * <pre>
 * schemacrawler.sh --url "jdbc:freshet:remote:url=http://localhost:8765" --info-level=standard \
 *     --command=schema
 * </pre>
 *
 * <p>What {@code DatabaseMetaData} alone cannot give SchemaCrawler, the plugin reads with SQL
 * (the files under {@code freshet.information_schema/}, named after SchemaCrawler's keys):
 * <ul>
 *   <li>view definitions, from {@code INFORMATION_SCHEMA.VIEWS}: JDBC has no call for them;</li>
 *   <li>primary keys, from {@code SYS.PRIMARY_KEYS}: SchemaCrawler asks
 *       {@code getPrimaryKeys} for tables only, never for views, and a materialized view's group
 *       key is exactly what a BI tool wants to join on.</li>
 * </ul>
 */
public final class FreshetDatabaseConnector extends DatabaseConnector {
  /** Both drivers: embedded {@code jdbc:freshet:...} and {@code jdbc:freshet:remote:...}. */
  private static final Pattern URL = Pattern.compile("jdbc:freshet:.*");

  /** Called by SchemaCrawler, which finds the plugin with {@link java.util.ServiceLoader}. */
  public FreshetDatabaseConnector() {
    super(new DatabaseServerType("freshet", "Freshet"),
        url -> url != null && URL.matcher(url).matches(),
        (views, connection) -> views.fromResourceFolder("/freshet.information_schema"),
        (options, connection) -> options.with(primaryKeysRetrievalStrategy, data_dictionary_all),
        limits -> { },
        () -> DatabaseConnectionSourceBuilder.builder(
                "jdbc:freshet:remote:url=http://${host}:${port}")
            .withDefaultHost("localhost")
            .withDefaultPort(8765));
  }
}
