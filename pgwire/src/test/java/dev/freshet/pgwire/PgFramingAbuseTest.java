package dev.freshet.pgwire;

import static dev.freshet.pgwire.PgTesting.connect;
import static dev.freshet.pgwire.PgTesting.row;
import static dev.freshet.pgwire.PgTesting.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.Engine;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Clients that break the protocol: each gets an ErrorResponse or a closed connection, never an
 * allocation of what a length claims, and the server goes on serving other clients.
 */
class PgFramingAbuseTest {
  private Engine engine;
  private PgServer server;
  /** A client connected before the abuse, which must keep working. */
  private Connection bystander;

  @BeforeEach void start() throws Exception {
    engine = new Engine("pgwire-abuse-test");
    server = PgServer.builder(engine).port(0).start();
    bystander = connect(server);
  }

  @AfterEach void stop() throws Exception {
    try (Statement s = bystander.createStatement()) {
      assertEquals(List.of(row(1)), rows(s, "SELECT 1"));
    }
    try (Connection c = connect(server); Statement s = c.createStatement()) {
      assertEquals(List.of(row(2)), rows(s, "SELECT 2"));
    }
    bystander.close();
    server.close();
    engine.close();
  }

  @Test void shouldNameTheSupportedVersionForAnUnknownProtocol() throws Exception {
    for (int version : new int[] {2 << 16, (3 << 16) | 1, 4 << 16, 0}) {
      try (RawPgClient c = new RawPgClient(server.port())) {
        c.send(RawPgClient.startupPacket(version, "user", "x", "database", "freshet"));
        List<RawPgClient.Message> answer = c.readToClose();
        assertEquals(1, answer.size(), answer.toString());
        Map<Character, String> error = answer.get(0).fields();
        assertEquals('E', answer.get(0).type());
        assertEquals("0A000", error.get('C'));
        assertEquals("FATAL", error.get('S'));
        assertTrue(error.get('M').contains("3.0"), error.get('M'));
      }
    }
  }

  @Test void shouldRefuseAGigabyteLengthWithoutWaitingForIt() throws Exception {
    try (RawPgClient c = new RawPgClient(server.port())) {
      c.send(ByteBuffer.allocate(8).putInt(1 << 30).putInt(3 << 16).array());
      assertFatal(c, "08P01");
    }
    try (RawPgClient c = new RawPgClient(server.port())) {
      c.startup("freshet");
      c.send(ByteBuffer.allocate(9).put((byte) 'Q').putInt(1 << 30).put((byte) 'S').array());
      assertFatal(c, "54000");
    }
  }

  @Test void shouldRefuseALengthBelowItsOwnWord() throws Exception {
    for (int length : new int[] {3, 0, -1}) {
      try (RawPgClient c = new RawPgClient(server.port())) {
        c.startup("freshet");
        c.send(ByteBuffer.allocate(5).put((byte) 'Q').putInt(length).array());
        assertFatal(c, "08P01");
      }
    }
  }

  @Test void shouldRefuseTruncatedAndUnknownMessages() throws Exception {
    // A Bind whose fields run past its end.
    try (RawPgClient c = new RawPgClient(server.port())) {
      c.startup("freshet");
      c.send(RawPgClient.message('B', new byte[] {0, 0, 0, 5}));
      assertFatal(c, "08P01");
    }
    // A query without its terminating NUL.
    try (RawPgClient c = new RawPgClient(server.port())) {
      c.startup("freshet");
      c.send(RawPgClient.message('Q', "SELECT 1".getBytes()));
      assertFatal(c, "08P01");
    }
    try (RawPgClient c = new RawPgClient(server.port())) {
      c.startup("freshet");
      c.send(RawPgClient.message('y', new byte[0]));
      assertFatal(c, "08P01");
    }
    // A message cut off by the client going away: the server closes too.
    try (RawPgClient c = new RawPgClient(server.port())) {
      c.startup("freshet");
      c.send(new byte[] {'Q', 0, 0, 0, 100, 'S', 'E'});
      c.endOutput();
      assertEquals(List.of(), c.readToClose());
    }
  }

  @Test void shouldSurviveAThousandRandomMalformedMessages() throws Exception {
    long seed = System.nanoTime();
    System.out.println("PgFramingAbuseTest seed " + seed);
    Random random = new Random(seed);
    String types = "QPBDESCHXpdcfy\0";
    for (int i = 0; i < 1_000; i++) {
      try (RawPgClient c = new RawPgClient(server.port())) {
        c.startup("freshet");
        int size = random.nextInt(40);
        ByteBuffer m = ByteBuffer.allocate(5 + size);
        m.put((byte) types.charAt(random.nextInt(types.length())));
        m.putInt(random.nextInt(4) == 0 ? random.nextInt() : 4 + random.nextInt(size + 8));
        byte[] body = new byte[size];
        random.nextBytes(body);
        m.put(body);
        c.send(m.array());
        c.endOutput();
        // Whatever the server answers is well formed (read() checks), and it closes.
        for (RawPgClient.Message answer : c.readToClose()) {
          assertTrue("EZCTDInst123N".indexOf(answer.type()) >= 0,
              "seed " + seed + ": unexpected " + answer);
        }
      }
    }
  }

  @Test void shouldCloseConnectionsThatStayIdleOrNeverStart() throws Exception {
    try (PgServer strict = PgServer.builder(engine).port(0)
        .limits(1 << 20, java.time.Duration.ofMillis(300), java.time.Duration.ofMillis(300))
        .start()) {
      try (RawPgClient c = new RawPgClient(strict.port())) {
        // Half a start-up packet, then nothing.
        c.send(new byte[] {0, 0, 0, 40, 0, 3});
        assertFatal(c, "08P01");
      }
      try (RawPgClient c = new RawPgClient(strict.port())) {
        c.startup("freshet");
        assertFatal(c, "57P05");
      }
    }
  }

  @Test void shouldRefuseConnectionsBeyondTheLimitWith53300() throws Exception {
    try (PgServer small = PgServer.builder(engine).port(0).maxConnections(2).start();
         RawPgClient first = new RawPgClient(small.port());
         RawPgClient second = new RawPgClient(small.port())) {
      first.startup("freshet");
      second.startup("freshet");
      try (RawPgClient third = new RawPgClient(small.port())) {
        assertFatal(third, "53300");
      }
      first.close();
      // The closed one's place is free again once the server saw it close.
      long deadline = System.nanoTime() + PgTesting.DEADLINE.toNanos();
      while (true) {
        try (RawPgClient again = new RawPgClient(small.port())) {
          again.startup("freshet");
          break;
        } catch (java.io.IOException e) {
          assertTrue(System.nanoTime() < deadline, e.toString());
          java.util.concurrent.locks.LockSupport.parkNanos(PgTesting.POLL.toNanos());
        }
      }
    }
  }

  @Test void shouldServeOthersBesideFiveHundredIdleConnections() throws Exception {
    List<RawPgClient> idle = new java.util.ArrayList<>();
    try {
      for (int i = 0; i < 500; i++) {
        RawPgClient c = new RawPgClient(server.port());
        idle.add(c);
        c.startup("freshet");
      }
      try (Connection c = connect(server); Statement s = c.createStatement()) {
        assertEquals(List.of(row(3)), rows(s, "SELECT 3"));
      }
      // Each of them is still served.
      RawPgClient last = idle.get(idle.size() - 1);
      last.send(RawPgClient.query("SELECT 4"));
      List<Character> answer = new java.util.ArrayList<>();
      RawPgClient.Message m;
      do {
        m = last.read();
        answer.add(m.type());
      } while (m.type() != 'Z');
      assertEquals(List.of('T', 'D', 'C', 'Z'), answer);
    } finally {
      for (RawPgClient c : idle) {
        c.close();
      }
    }
  }

  private static void assertFatal(RawPgClient c, String state) throws Exception {
    RawPgClient.Message m = c.read();
    assertEquals('E', m.type(), m.toString());
    assertEquals(state, m.fields().get('C'), m.fields().toString());
    assertEquals("FATAL", m.fields().get('S'));
    assertNull(c.read(), "the connection stays open");
  }
}
