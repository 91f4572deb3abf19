package dev.freshet.engine.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import dev.freshet.engine.Engine;
import dev.freshet.engine.ViewEngines;
import dev.freshet.executor.limits.MemoryPool;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The audit log's file: its lines, their bounds, its mode, and the engine that opens it. */
class AuditLogTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> KEYS = List.of("time", "user", "action", "object",
      "outcome", "sqlstate", "message", "remote_address");

  @TempDir Path dir;

  @Test void shouldWriteOneJsonLinePerEventToAFileOnlyItsOwnerReads() throws Exception {
    Path file = dir.resolve("audit.jsonl");
    Instant before = Instant.now();
    try (AuditLog audit = AuditLog.open(Optional.of(file))) {
      assertTrue(audit.enabled());
      assertEquals(Optional.of(file), audit.file());
      audit.record(AuditEvent.ok("alice", "CREATE STREAM", "clicks"));
      audit.record(AuditEvent.refused("bob", "DROP VIEW", "totals",
          new SQLException("permission denied for view totals", "42501"))
          .from("192.0.2.7"));
      audit.record(AuditEvent.refused(null, AuditEvent.REFUSED_HTTP, null, "42501",
          "Cross-site request refused"));
    }
    Instant after = Instant.now();
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    List<JsonNode> lines = lines(file);
    assertEquals(3, lines.size());
    for (JsonNode line : lines) {
      List<String> keys = new ArrayList<>();
      line.fieldNames().forEachRemaining(keys::add);
      assertEquals(KEYS, keys, line.toString());
      String time = line.get("time").asText();
      assertTrue(time.endsWith("Z"), time);
      Instant at = Instant.parse(time);
      assertFalse(at.isBefore(before) || at.isAfter(after), time);
    }
    assertLine(lines.get(0), "alice", "CREATE STREAM", "clicks", "ok", null, null, null);
    assertLine(lines.get(1), "bob", "DROP VIEW", "totals", "refused", "42501",
        "permission denied for view totals", "192.0.2.7");
    assertLine(lines.get(2), null, "REFUSED HTTP", null, "refused", "42501",
        "Cross-site request refused", null);
  }

  @Test void shouldAppendToTheLinesAFileHoldsAlready() throws Exception {
    Path file = dir.resolve("audit.jsonl");
    try (AuditLog audit = AuditLog.open(Optional.of(file))) {
      audit.record(AuditEvent.ok("alice", "GRANT", "clicks"));
    }
    try (AuditLog audit = AuditLog.open(Optional.of(file))) {
      audit.record(AuditEvent.ok("alice", "REVOKE", "clicks"));
    }
    List<JsonNode> lines = lines(file);
    assertEquals(List.of("GRANT", "REVOKE"), lines.stream().map(l -> l.get("action").asText())
        .toList());
  }

  @Test void shouldCutLongValuesSoThatALineStaysWithinItsBound() throws Exception {
    Path file = dir.resolve("audit.jsonl");
    // Control characters take six bytes each as JSON: the worst a caller can send.
    String worst = "\u0001".repeat(100_000);
    String emoji = "\uD83D\uDE00".repeat(3_000);
    try (AuditLog audit = AuditLog.open(Optional.of(file))) {
      audit.record(new AuditEvent(worst, worst, worst, false, worst, worst, worst));
      audit.record(AuditEvent.refused("u", "REFUSED", "o", "42000", emoji));
      audit.record(AuditEvent.refused("u", "REFUSED", "o", "42000", "x".repeat(5_000)));
      // A lone surrogate, which UTF-8 cannot hold, and a pair cut in the middle.
      audit.record(AuditEvent.refused("\uD83D", "REFUSED", "o", "42000",
          "y".repeat(AuditLog.MAX_MESSAGE_CHARS - 1) + "\uD83D\uDE00"));
    }
    List<String> raw = Files.readAllLines(file, StandardCharsets.UTF_8);
    assertEquals(4, raw.size());
    for (String line : raw) {
      int bytes = (line + "\n").getBytes(StandardCharsets.UTF_8).length;
      assertTrue(bytes <= AuditLog.MAX_LINE_BYTES, bytes + " bytes");
    }
    List<JsonNode> lines = lines(file);
    for (String key : List.of("user", "action", "object", "sqlstate", "message",
        "remote_address")) {
      assertTrue(lines.get(0).get(key).asText().endsWith(AuditLog.CUT), key);
    }
    String emojis = lines.get(1).get("message").asText();
    assertTrue(emojis.endsWith(AuditLog.CUT), emojis);
    assertTrue(emojis.startsWith("\uD83D\uDE00\uD83D\uDE00"), emojis);
    assertEquals("x".repeat(AuditLog.MAX_MESSAGE_CHARS) + AuditLog.CUT,
        lines.get(2).get("message").asText());
    assertEquals("\uFFFD", lines.get(3).get("user").asText());
    assertEquals("y".repeat(AuditLog.MAX_MESSAGE_CHARS - 1) + AuditLog.CUT,
        lines.get(3).get("message").asText());
  }

  @Test void shouldKeepTheLinesOfConcurrentCallersWhole() throws Exception {
    Path file = dir.resolve("audit.jsonl");
    int threads = 8;
    int each = 250;
    try (AuditLog audit = AuditLog.open(Optional.of(file))) {
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          String user = "user" + t;
          done.add(pool.submit(() -> {
            for (int i = 0; i < each; i++) {
              audit.record(AuditEvent.refused(user, "REFUSED", "object" + i, "42501",
                  "m".repeat(i * 7)));
            }
          }));
        }
        for (Future<?> future : done) {
          future.get();
        }
      } finally {
        pool.shutdownNow();
      }
    }
    List<JsonNode> lines = lines(file);
    assertEquals(threads * each, lines.size());
    for (int t = 0; t < threads; t++) {
      String user = "user" + t;
      assertEquals(each, lines.stream().filter(l -> l.get("user").asText().equals(user))
          .count(), user);
    }
  }

  @Test void shouldRecordNothingWithoutAFileAndNothingOnceClosed() throws Exception {
    try (AuditLog none = AuditLog.open(Optional.empty())) {
      assertFalse(none.enabled());
      assertEquals(Optional.empty(), none.file());
      none.record(AuditEvent.ok("alice", "CREATE STREAM", "clicks"));
    }
    Path file = dir.resolve("audit.jsonl");
    AuditLog audit = AuditLog.open(Optional.of(file));
    audit.record(AuditEvent.ok("alice", "CREATE STREAM", "clicks"));
    audit.close();
    audit.close();
    audit.record(AuditEvent.ok("alice", "DROP STREAM", "clicks"));
    assertEquals(1, lines(file).size());
  }

  @Test void shouldRefuseAFileItCannotOpenNamingIt() {
    Path file = dir.resolve("no-such-directory").resolve("audit.jsonl");
    UncheckedIOException e = assertThrows(UncheckedIOException.class,
        () -> AuditLog.open(Optional.of(file)));
    assertTrue(e.getMessage().startsWith("Cannot open the audit log " + file + " for"
        + " appending"), e.getMessage());
    assertTrue(e.getMessage().endsWith("Give --audit-log a file in an existing directory the"
        + " server may write"), e.getMessage());
  }

  @Test void shouldBeOpenedAndClosedByTheEngine() throws Exception {
    Path file = dir.resolve("audit.jsonl");
    EngineSecurity security = new EngineSecurity(ConnectorPolicy.restricted(List.of()),
        Optional.empty(), Optional.of(file));
    Engine engine = new Engine("audited", Optional.empty(), MemoryPool.UNLIMITED,
        ViewEngines.DEFAULT, security);
    try {
      assertTrue(engine.audit().enabled());
      engine.audit().record(AuditEvent.ok("alice", "CREATE STREAM", "clicks"));
    } finally {
      engine.close();
    }
    engine.audit().record(AuditEvent.ok("alice", "DROP STREAM", "clicks"));
    assertEquals(List.of("CREATE STREAM"), lines(file).stream()
        .map(l -> l.get("action").asText()).toList());
    try (Engine embedded = new Engine("embedded")) {
      assertFalse(embedded.audit().enabled());
    }
    // A file the engine cannot open: it does not start, and says why.
    Path missing = dir.resolve("missing").resolve("audit.jsonl");
    UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> new Engine("bad",
        Optional.empty(), MemoryPool.UNLIMITED, ViewEngines.DEFAULT, new EngineSecurity(
            ConnectorPolicy.restricted(List.of()), Optional.empty(), Optional.of(missing))));
    assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
  }

  private static void assertLine(JsonNode line, String user, String action, String object,
      String outcome, String sqlState, String message, String remoteAddress) {
    assertText(user, line.get("user"));
    assertText(action, line.get("action"));
    assertText(object, line.get("object"));
    assertText(outcome, line.get("outcome"));
    assertText(sqlState, line.get("sqlstate"));
    assertText(message, line.get("message"));
    assertText(remoteAddress, line.get("remote_address"));
  }

  private static void assertText(String expected, JsonNode value) {
    if (expected == null) {
      assertEquals(JsonNodeType.NULL, value.getNodeType(), value.toString());
    } else {
      assertEquals(expected, value.asText());
    }
  }

  private static List<JsonNode> lines(Path file) throws IOException {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      lines.add(JSON.readTree(line));
    }
    return lines;
  }
}
