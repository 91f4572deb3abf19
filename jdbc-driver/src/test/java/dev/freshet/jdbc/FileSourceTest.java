package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.freshet.engine.Engine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The filesystem source end to end: files moved into a directory while a view reads it, each
 * counted once (the view equals H2's GROUP BY over the files' rows), also across a restart with
 * files added while the engine was down; at most 'source.max-files-per-batch' files a batch;
 * malformed lines fail the view naming file and line, or are skipped and counted; option errors.
 */
class FileSourceTest {
  private final String engineName = UUID.randomUUID().toString();
  private Connection connection;
  private Statement statement;
  /** The oracle: the rows of the files moved in. */
  private Connection h2;

  @TempDir Path root;
  private Path input;
  private Path staging;
  private Path dataDir;

  @BeforeEach void connect() throws Exception {
    input = Files.createDirectory(root.resolve("in"));
    staging = Files.createDirectory(root.resolve("staging"));
    dataDir = root.resolve("data");
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + engineName
        + ";timeZone=UTC");
    statement = connection.createStatement();
    h2 = DriverManager.getConnection("jdbc:h2:mem:" + UUID.randomUUID());
    try (Statement s = h2.createStatement()) {
      s.execute("CREATE TABLE orders (id BIGINT, item VARCHAR, qty INT)");
    }
  }

  @AfterEach void close() throws Exception {
    connection.close();
    h2.close();
    // Its views stop before the temp directory they read goes.
    EngineRegistry.INSTANCE.resolve(Map.of(EngineRegistry.ENGINE, engineName)).close();
  }

  private void createOrders(Statement s, String format, String extraOptions)
      throws SQLException {
    s.execute("CREATE STREAM orders (id BIGINT NOT NULL, item VARCHAR, qty INTEGER)"
        + " WITH (connector = 'filesystem', 'path' = '" + input + "', 'format' = '" + format
        + "'" + extraOptions + ")");
  }

  private static final String BY_ITEM = "CREATE MATERIALIZED VIEW by_item AS SELECT item,"
      + " COUNT(*) AS n, SUM(qty) AS q FROM orders GROUP BY item";

  /**
   * Writes orders {@code from..to-1} as file {@code name} in the staging directory and moves it
   * into the input directory in one step, as a writer must; the oracle gets the same rows.
   */
  private Path drop(String name, long from, long to, String format) throws Exception {
    StringBuilder text = new StringBuilder();
    try (PreparedStatement insert = h2.prepareStatement("INSERT INTO orders VALUES (?, ?, ?)")) {
      for (long id = from; id < to; id++) {
        String item = "item-" + (id % 7);
        int qty = (int) (id % 5) + 1;
        text.append(format.equals("csv") ? id + "," + item + "," + qty
            : "{\"id\":" + id + ",\"item\":\"" + item + "\",\"qty\":" + qty + "}").append('\n');
        insert.setLong(1, id);
        insert.setString(2, item);
        insert.setInt(3, qty);
        insert.executeUpdate();
      }
    }
    return move(name, text.toString());
  }

  private Path move(String name, String text) throws IOException {
    Path staged = Files.writeString(staging.resolve(name), text);
    return Files.move(staged, input.resolve(name), StandardCopyOption.ATOMIC_MOVE);
  }

  private List<List<Object>> oracle(String sql) throws SQLException {
    try (Statement s = h2.createStatement()) {
      return ViewResults.normalized(ViewResults.query(s, sql));
    }
  }


  /** Re-runs the view's query until it returns what H2 returns over the files' rows. */
  private void awaitOracle() throws SQLException {
    ViewResults.awaitNormalized(statement, "SELECT item, n, q FROM by_item",
        oracle("SELECT item, COUNT(*), SUM(qty) FROM orders GROUP BY item"));
  }


  @Test void shouldCountEachOfTwentyFilesDroppedWhileAViewRunsOnce() throws Exception {
    createOrders(statement, "csv", "");
    statement.execute(BY_ITEM);
    for (int f = 0; f < 20; f++) {
      drop("part-" + f + ".csv", f * 50L, f * 50L + 50, "csv");
    }
    awaitOracle();
    // A file written in place under a hidden name is not read, nor is a subdirectory's.
    Files.writeString(input.resolve(".in-progress.csv"), "9999,item-0,1\n");
    Files.createDirectory(input.resolve("sub"));
    Files.writeString(input.resolve("sub").resolve("x.csv"), "9999,item-0,1\n");
    drop("part-20.csv", 1_000, 1_010, "csv");
    awaitOracle();
    assertEquals(List.of(List.of(1_010L)), ViewResults.normalized(ViewResults.query(statement,
        "SELECT SUM(n) FROM by_item")));
  }

  @Test void shouldReadNoFileTwiceAcrossARestartAndReadFilesAddedWhileDown() throws Exception {
    String url = "jdbc:freshet:dataDir=" + dataDir;
    try (Connection first = DriverManager.getConnection(url);
         Statement s = first.createStatement()) {
      Statement previous = statement;
      statement = s;
      createOrders(s, "json", "");
      s.execute(BY_ITEM);
      for (int f = 0; f < 10; f++) {
        drop("part-" + f + ".json", f * 20L, f * 20L + 20, "json");
      }
      awaitOracle();
      statement = previous;
    }
    engine(url).close();
    // Moved in while the engine is down: the next run reads them, and only them.
    for (int f = 10; f < 15; f++) {
      drop("part-" + f + ".json", f * 20L, f * 20L + 20, "json");
    }
    try (Connection second = DriverManager.getConnection(url);
         Statement s = second.createStatement()) {
      statement = s;
      awaitOracle();
      for (int f = 15; f < 20; f++) {
        drop("part-" + f + ".json", f * 20L, f * 20L + 20, "json");
      }
      awaitOracle();
      assertEquals(List.of(List.of(400L)), ViewResults.normalized(ViewResults.query(s,
          "SELECT SUM(n) FROM by_item")));
    } finally {
      engine(url).close();
    }
    // The view's checkpoint lists each file once, in Spark's sources/0/N.
    List<String> listed = new ArrayList<>();
    try (var checkpoints = Files.walk(dataDir)) {
      for (Path p : checkpoints.filter(p -> p.getParent().getFileName().toString().equals("0")
          && p.getParent().getParent().getFileName().toString().equals("sources")
          && !p.getFileName().toString().equals("0")).toList()) {
        for (String line : Files.readAllLines(p)) {
          if (line.startsWith("{")) {
            listed.add(line.substring(0, line.indexOf("\",\"timestamp\"")));
          }
        }
      }
    }
    assertEquals(20, listed.size(), listed.toString());
    assertEquals(20, listed.stream().distinct().count(), listed.toString());
  }

  @Test void shouldTakeAtMostMaxFilesPerBatch() throws Exception {
    for (int f = 0; f < 7; f++) {
      drop("part-" + f + ".csv", f * 3L, f * 3L + 3, "csv");
    }
    createOrders(statement, "csv", ", 'source.max-files-per-batch' = '2'");
    statement.execute(BY_ITEM);
    awaitOracle();

    List<List<Object>> batches = ViewResults.normalized(ViewResults.query(statement,
        "SELECT num_input_rows, JSON_VALUE(json, '$.sources[0].endOffset.logOffset')"
        + " FROM sys.query_progress WHERE name = 'BY_ITEM' ORDER BY batch_id"));
    assertEquals(List.of(List.of(6L, "1"), List.of(6L, "2"), List.of(6L, "3"),
        List.of(3L, "4")), batches);
  }

  @Test void shouldFailTheViewNamingTheFileAndLineOfAMalformedLine() throws Exception {
    createOrders(statement, "json", "");
    statement.execute(BY_ITEM);
    Path file = move("bad.json", "{\"id\":1,\"item\":\"a\",\"qty\":1}\n\n"
        + "{\"id\":2,\"qty\":\"many\"}\n");

    SQLException e = ViewResults.awaitFailure(statement, "SELECT * FROM by_item");
    assertEquals("22000", e.getSQLState(), e.getMessage());
    assertTrue(e.getMessage().contains("Line 3 of file " + file + " is not a row of stream"
        + " ORDERS (format json): field \"qty\" (column QTY): 'many' is not a whole number that"
        + " fits INTEGER. Fix the file, or skip such lines with 'format.ignore-parse-errors' ="
        + " 'true'"), e.getMessage());
  }

  @Test void shouldSkipAndCountMalformedLinesWhenAskedTo() throws Exception {
    createOrders(statement, "csv", ", 'format.ignore-parse-errors' = 'true'");
    statement.execute(BY_ITEM);
    drop("a.csv", 0, 30, "csv");
    move("bad.csv", "1,2\nx,item-0,1\n\n40,item-1,2,extra\n");
    drop("c.csv", 30, 60, "csv");

    awaitOracle();
    assertEquals(3, ViewResults.awaitDroppedRows(statement, "BY_ITEM", 3));
  }

  @Test void shouldRefuseWrongOptionsNamingThem() throws Exception {
    String dir = input.toString();
    String prefix = "CREATE STREAM files (id BIGINT) WITH (connector = 'filesystem'";
    Map<String, String> cases = new java.util.LinkedHashMap<>();
    cases.put(", 'format' = 'csv')", "Stream FILES (connector 'filesystem') needs option"
        + " 'path': the directory whose files it reads, such as '/data/orders'");
    cases.put(", 'path' = 'in', 'format' = 'csv')", "Option 'path' of stream FILES is 'in',"
        + " but must be an absolute path of an existing directory, such as '/data/orders'.");
    cases.put(", 'path' = '" + dir + "/missing', 'format' = 'csv')", "Option 'path' of stream"
        + " FILES is '" + dir + "/missing', but must be an absolute path of an existing"
        + " directory");
    cases.put(", 'path' = '" + dir + "')", "Stream FILES (connector 'filesystem') needs option"
        + " 'format': how its files' lines are written, 'json' or 'csv'");
    cases.put(", 'path' = '" + dir + "', 'format' = 'xml')", "Option 'format' of stream FILES"
        + " is 'xml', but must be 'json' or 'csv'.");
    cases.put(", 'path' = '" + dir + "', 'format' = 'csv', 'source.max-files-per-batch' = '0')",
        "Option 'source.max-files-per-batch' of stream FILES is '0', but must be a whole number"
        + " of files, 1 or more, such as '10'.");
    cases.put(", 'path' = '" + dir + "', 'format' = 'csv', 'source.monitor-interval' = 'soon')",
        "Option 'source.monitor-interval' of stream FILES is 'soon', but must be milliseconds,"
        + " 10 or more, such as '1000'.");
    cases.put(", 'path' = '" + dir + "', 'format' = 'csv', 'format.ignore-parse-errors' ="
        + " 'maybe')", "Option 'format.ignore-parse-errors' of stream FILES is 'maybe', but"
        + " must be 'true' or 'false'.");
    cases.put(", 'path' = '" + dir + "', 'format' = 'csv', 'topic' = 'x')", "Unknown option"
        + " 'topic' for connector 'filesystem' of stream FILES. Valid options: connector, path,"
        + " format, source.max-files-per-batch, source.monitor-interval,"
        + " format.ignore-parse-errors, watermark.idle-timeout");
    for (Map.Entry<String, String> c : cases.entrySet()) {
      SQLException e = assertThrows(SQLException.class,
          () -> statement.execute(prefix + c.getKey()), c.getKey());
      assertEquals("42000", e.getSQLState(), e.getMessage());
      assertTrue(e.getMessage().contains(c.getValue()), e.getMessage());
    }
  }

  @Test void shouldRefuseAPlainSelectOrAnInsert() throws Exception {
    createOrders(statement, "csv", "");
    SQLException insert = assertThrows(SQLException.class,
        () -> statement.executeUpdate("INSERT INTO orders VALUES (1, 'a', 1)"));
    assertEquals("42809", insert.getSQLState(), insert.getMessage());
    SQLException e = assertThrows(SQLException.class,
        () -> statement.executeQuery("SELECT COUNT(*) FROM orders"));
    assertEquals("0A000", e.getSQLState());
    assertTrue(e.getMessage().contains("reads the files that appear in directory " + input
        + ", which has no end (connector 'filesystem')"), e.getMessage());
  }

  private static Engine engine(String url) throws SQLException {
    return EngineRegistry.INSTANCE.resolve(
        Map.of(EngineRegistry.DATA_DIR, url.substring(url.indexOf('=') + 1)));
  }
}
