package dev.freshet.jdbc;

import static dev.freshet.jdbc.ViewResults.row;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.engine.Engine;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Text in any script (CJK, emoji outside the Basic Multilingual Plane, right-to-left Hebrew and
 * Arabic, combining accents) and Unicode identifiers survive INSERT, a push query, a view, a pull
 * query, and a restart from the data directory, unchanged.
 */
class UnicodeRoundTripTest {
  private static final String CJK = "中文字符";
  private static final String EMOJI = "🚀 fire 🔥";
  private static final String RTL = "שלום عليكم";
  private static final String ACCENTS = "e\u0301te\u0301 Zoë";

  @TempDir Path dataDir;

  @AfterEach void closeEngine() throws SQLException {
    engine().close();
  }

  private Engine engine() throws SQLException {
    return EngineRegistry.INSTANCE.resolve(Map.of(EngineRegistry.DATA_DIR, dataDir.toString()));
  }

  private String url() {
    return "jdbc:freshet:dataDir=" + dataDir;
  }

  @Test void shouldKeepTextInEveryScriptThroughEveryPathAndARestart() throws Exception {
    List<List<Object>> expected = List.of(row(CJK, 2L, "中" + CJK), row(EMOJI, 1L, "中" + EMOJI),
        row(RTL, 1L, "中" + RTL), row(ACCENTS, 1L, "中" + ACCENTS));
    String pull = "SELECT \"名前\", \"件数\", \"ラベル\" FROM \"名前ごと\"";
    try (Connection c = DriverManager.getConnection(url());
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM \"イベント\" (\"名前\" VARCHAR, n INT)");
      s.execute("CREATE MATERIALIZED VIEW \"名前ごと\" AS SELECT \"名前\", COUNT(*) AS \"件数\","
          + " '中' || \"名前\" AS \"ラベル\" FROM \"イベント\" GROUP BY \"名前\"");
      try (Connection pushConnection = DriverManager.getConnection(url());
           Statement push = pushConnection.createStatement();
           ResultSet rs = push.executeQuery("SELECT STREAM \"名前\", COUNT(*) AS c FROM"
               + " \"イベント\" WHERE \"名前\" <> 'Ω' GROUP BY \"名前\"")) {
        s.execute("INSERT INTO \"イベント\" VALUES ('" + CJK + "', 1), ('" + EMOJI + "', 2),"
            + " ('" + RTL + "', 3), ('" + ACCENTS + "', 4), ('" + CJK + "', 5)");
        List<List<Object>> pushed = PushResults.readData(rs, 4);
        assertEquals(true, ViewResults.sameRows(pushed, List.of(row(CJK, 2L), row(EMOJI, 1L),
            row(RTL, 1L), row(ACCENTS, 1L))), pushed.toString());
      }
      ViewResults.awaitRows(s, pull, expected);
      assertEquals(List.of(row(EMOJI)), ViewResults.query(s,
          "SELECT \"名前\" FROM \"名前ごと\" WHERE \"名前\" LIKE '%🔥'"));
    }
    engine().close();

    try (Connection c = DriverManager.getConnection(url());
         Statement s = c.createStatement()) {
      // The view's result and the stream's log are read back from disk.
      ViewResults.awaitRows(s, pull, expected);
      s.execute("INSERT INTO \"イベント\" VALUES ('" + RTL + "', 6)");
      ViewResults.awaitRows(s, pull, List.of(row(CJK, 2L, "中" + CJK),
          row(EMOJI, 1L, "中" + EMOJI), row(RTL, 2L, "中" + RTL), row(ACCENTS, 1L, "中" + ACCENTS)));
    }
  }
}
