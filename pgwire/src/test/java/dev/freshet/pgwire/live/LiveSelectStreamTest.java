package dev.freshet.pgwire.live;

import static dev.freshet.pgwire.live.LiveTesting.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.pgwire.RawPgClient;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code SELECT STREAM} on the simple protocol, on a bare socket: RowDescription with
 * {@code freshet_row_kind} and {@code freshet_version}, a DataRow per changed row as each batch
 * commits, no CommandComplete; a CancelRequest ends it with 57014 and ReadyForQuery and stops
 * the push query; a client that goes away stops it too.
 */
class LiveSelectStreamTest {
  private LiveServer live;
  private Statement s;

  @BeforeEach void start() throws Exception {
    live = LiveServer.start("pgwire-live-select-stream-test",
        "CREATE STREAM clicks (k VARCHAR, n INTEGER)");
    s = live.statement;
  }

  @AfterEach void stop() throws Exception {
    live.close();
  }

  @Test void shouldSendRowsAsBatchesCommitUntilCancelled() throws Exception {
    try (RawPgClient c = RawPgClient.started(live.port())) {
      c.sendQuery("SELECT STREAM k, n FROM clicks");
      RawPgClient.Message description = c.next();
      assertEquals('T', description.type());
      assertEquals(List.of("k", "n", "freshet_row_kind", "freshet_version"),
          description.names());
      await("the push query runs", () -> live.pushQueries() == 1);

      s.executeUpdate("INSERT INTO clicks VALUES ('a', 1)");
      RawPgClient.Message first = c.next();
      assertEquals('D', first.type());
      assertEquals(Arrays.asList("a", "1", "INSERT"), first.values().subList(0, 3));
      s.executeUpdate("INSERT INTO clicks VALUES ('b', NULL), ('c\td', 3)");
      List<String> second = c.next().values();
      List<String> third = c.next().values();
      assertEquals(Arrays.asList("b", null, "INSERT"), second.subList(0, 3));
      assertEquals(Arrays.asList("c\td", "3", "INSERT"), third.subList(0, 3));
      assertEquals(second.get(3), third.get(3), "one INSERT, one batch");
      assertTrue(Long.parseLong(second.get(3)) > Long.parseLong(first.values().get(3)));

      c.cancel();
      RawPgClient.Message error = c.next();
      assertEquals('E', error.type(), error.text());
      assertEquals("57014", error.fields().get('C'));
      RawPgClient.Message ready = c.next();
      assertEquals('Z', ready.type());
      assertEquals("I", ready.text());
      await("the push query stops", () -> live.pushQueries() == 0);

      // The connection goes on.
      List<RawPgClient.Message> next = c.run("SELECT 1 AS x");
      assertEquals("TDCZ", types(next), next.get(0).fields().toString());
      assertEquals(List.of("1"), next.get(1).values());
    }
  }

  static String types(List<RawPgClient.Message> messages) {
    StringBuilder types = new StringBuilder();
    messages.forEach(m -> types.append(m.type()));
    return types.toString();
  }

  @Test void shouldSendUpdatesOfAnAggregation() throws Exception {
    try (RawPgClient c = RawPgClient.started(live.port())) {
      c.sendQuery("SELECT STREAM k, COUNT(*) AS n FROM clicks GROUP BY k EMIT UPDATE");
      assertEquals(List.of("k", "n", "freshet_row_kind", "freshet_version"), c.next().names());
      await("the push query runs", () -> live.pushQueries() == 1);
      s.executeUpdate("INSERT INTO clicks VALUES ('a', 1)");
      assertEquals(List.of("a", "1", "INSERT"), c.next().values().subList(0, 3));
      s.executeUpdate("INSERT INTO clicks VALUES ('a', 2)");
      assertEquals(List.of("a", "2", "UPDATE"), c.next().values().subList(0, 3));
      c.cancel();
      assertEquals("57014", c.next().fields().get('C'));
      assertEquals('Z', c.next().type());
    }
  }

  @Test void shouldStopThePushQueryWhenTheClientGoesAway() throws Exception {
    RawPgClient c = RawPgClient.started(live.port());
    c.sendQuery("SELECT STREAM k FROM clicks");
    assertEquals('T', c.next().type());
    await("the push query runs", () -> live.pushQueries() == 1);
    c.close();
    await("the push query stops", () -> live.pushQueries() == 0);
  }

  @Test void shouldRunTheRestOfAQueryOnlyIfTheLiveResultEndsWell() throws Exception {
    try (RawPgClient c = RawPgClient.started(live.port())) {
      c.sendQuery("SELECT STREAM k FROM clicks; SELECT 2 AS two");
      assertEquals('T', c.next().type());
      await("the push query runs", () -> live.pushQueries() == 1);
      c.cancel();
      assertEquals("57014", c.next().fields().get('C'));
      // As after any error: the rest of the query is skipped.
      assertEquals('Z', c.next().type());
    }
  }
}
