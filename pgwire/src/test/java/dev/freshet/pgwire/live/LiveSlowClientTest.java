package dev.freshet.pgwire.live;

import static dev.freshet.pgwire.live.LiveTesting.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.pgwire.RawPgClient;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A client that stops reading a live result: the server writes no more than the channel takes,
 * the push query keeps the unread rows within its bound ({@code push.buffer.rows} for an APPEND
 * result) and fails the subscription beyond it with 53000, which the client reads when it reads
 * again; meanwhile the server stays up and another client's live result goes on.
 */
class LiveSlowClientTest {
  private LiveServer live;
  private Statement s;

  @BeforeEach void start() throws Exception {
    live = LiveServer.start("pgwire-live-slow-client-test",
        "CREATE STREAM big (k INTEGER, v VARCHAR)",
        "CREATE STREAM small (k INTEGER)");
    s = live.statement;
  }

  @AfterEach void stop() throws Exception {
    live.close();
  }

  @Test void shouldBoundAStalledReaderAndServeOthers() throws Exception {
    String wide = "x".repeat(1000);
    StringBuilder values = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      values.append(i == 0 ? "" : ", ").append("(").append(i).append(", '").append(wide)
          .append("')");
    }
    try (RawPgClient slow = RawPgClient.started(live.port(), 4096);
        RawPgClient other = RawPgClient.started(live.port())) {
      slow.run("SET 'push.buffer.rows' = '100'");
      slow.sendQuery("SELECT STREAM k, v FROM big");
      other.sendQuery("SELECT STREAM k FROM small");
      assertEquals('T', other.next().type());
      await("both push queries run", () -> live.pushQueries() == 2);

      // The slow client reads nothing: its socket, then the channel fill, then its push query's
      // buffer, which fails the subscription; each INSERT goes on meanwhile.
      int inserts = 0;
      while (live.pushQueries() == 2) {
        assertTrue(inserts < 200, "the stalled subscription was never bounded");
        s.executeUpdate("INSERT INTO big VALUES " + values);
        inserts++;
      }
      assertEquals(1, live.pushQueries());

      // The other client is served as before.
      s.executeUpdate("INSERT INTO small VALUES (7)");
      assertEquals(List.of("7", "INSERT"), other.next().values().subList(0, 2));
      try (Connection fresh = live.connect(); Statement f = fresh.createStatement()) {
        assertTrue(f.execute("SELECT 1"));
      }

      // Reading again, the slow client gets what was sent, then the bound's error.
      assertEquals('T', slow.next().type());
      RawPgClient.Message m;
      int rows = 0;
      while ((m = slow.next()).type() == 'D') {
        rows++;
      }
      assertEquals('E', m.type());
      assertEquals("53000", m.fields().get('C'), m.fields().toString());
      assertEquals('Z', slow.next().type());
      assertTrue(rows < inserts * 200, rows + " rows of " + inserts * 200);
      other.cancel();
      assertEquals("57014", other.next().fields().get('C'));
    }
  }
}
