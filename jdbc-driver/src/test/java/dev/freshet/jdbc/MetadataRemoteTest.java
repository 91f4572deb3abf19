package dev.freshet.jdbc;

import static dev.freshet.jdbc.MetadataCatalog.describe;
import static dev.freshet.jdbc.MetadataCatalog.labels;
import static dev.freshet.jdbc.MetadataCatalog.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.remote.LocalProtobufService;
import org.apache.calcite.avatica.remote.LocalService;
import org.apache.calcite.avatica.remote.ProtobufTranslationImpl;
import org.apache.calcite.avatica.remote.Service;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The metadata answers through Avatica's stock remote client, with the Meta on the server's side
 * (no client connection, as a server runs it) and every request and response going through
 * protobuf, as over HTTP.
 */
class MetadataRemoteTest {
  /** The engine the server side of the next connection uses. */
  private static volatile String engineName;

  /** Creates, per client connection, a server-side Meta behind protobuf. */
  public static final class InProcessServer implements Service.Factory {
    @Override public Service create(AvaticaConnection connection) {
      String engine = engineName;
      // The stock client sends its own properties (url, factory); the server picks the engine.
      FreshetMeta meta = new FreshetMeta(null,
          info -> EngineRegistry.INSTANCE.resolve(Map.of("engine", engine)));
      return new LocalProtobufService(new LocalService(meta), new ProtobufTranslationImpl());
    }
  }

  private Connection local;
  private Connection remote;

  @BeforeEach void connect() throws Exception {
    engineName = UUID.randomUUID().toString();
    local = DriverManager.getConnection("jdbc:freshet:engine=" + engineName);
    try (Statement statement = local.createStatement()) {
      MetadataCatalog.create(statement);
    }
    remote = DriverManager.getConnection("jdbc:avatica:remote:factory="
        + InProcessServer.class.getName());
  }

  @AfterEach void close() throws Exception {
    remote.close();
    local.close();
  }

  @Test void shouldAnswerRemotelyAsEmbedded() throws Exception {
    DatabaseMetaData embedded = local.getMetaData();
    DatabaseMetaData stock = remote.getMetaData();
    assertEquals(rows(embedded.getTables(null, null, null, null)),
        rows(stock.getTables(null, null, null, null)));
    assertEquals(rows(embedded.getColumns(null, null, null, null)),
        rows(stock.getColumns(null, null, null, null)));
    // Avatica's protocol carries only the calls above and below; the stock client answers
    // getPrimaryKeys, getImportedKeys, getIndexInfo, getProcedures ... itself, with no rows.
    assertEquals(List.of(), rows(stock.getPrimaryKeys(null, "FRESHET", "SALES_BY_CUSTOMER")));
    assertEquals(rows(embedded.getTypeInfo()), rows(stock.getTypeInfo()));
    assertEquals(rows(embedded.getSchemas()), rows(stock.getSchemas()));
    assertEquals(List.of(), rows(stock.getCatalogs()));
    assertEquals(rows(embedded.getTableTypes()), rows(stock.getTableTypes()));
    assertEquals(List.of(), rows(stock.getImportedKeys(null, null, "ORDERS")));
    assertEquals(List.of(), rows(stock.getIndexInfo(null, null, "ORDERS", false, true)));
    assertEquals(embedded.getSQLKeywords(), stock.getSQLKeywords());
    assertEquals(Connection.TRANSACTION_READ_COMMITTED, stock.getDefaultTransactionIsolation());
    assertEquals("FRESHET", remote.getSchema());
  }

  @Test void shouldDescribePreparedStatementsRemotely() throws Exception {
    try (PreparedStatement ps = remote.prepareStatement(
        "SELECT * FROM (SELECT customer, total FROM sales_by_customer) t WHERE 1 = 0")) {
      assertEquals(List.of(
          List.of("CUSTOMER", Types.VARCHAR, "VARCHAR", 20, 0, DatabaseMetaData.columnNullable,
              20),
          List.of("TOTAL", Types.DECIMAL, "DECIMAL", 19, 2, DatabaseMetaData.columnNullable,
              21)), describe(ps.getMetaData()));
      assertEquals(List.of(), rows(ps.executeQuery()));
    }
    try (PreparedStatement ps = remote.prepareStatement(
        "SELECT STREAM region, COUNT(*) AS n FROM orders GROUP BY region")) {
      assertEquals(List.of("REGION", "N", "_BATCH_ID", "_ROW_KIND"), labels(ps.getMetaData()));
    }
  }
}
