package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.engine.Engine;
import dev.freshet.engine.Session;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.testkit.CrashTest;
import dev.freshet.testkit.crash.ChildJvm;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SIGKILL before {@code commit()} loses the transaction's rows and nothing else: a child JVM
 * commits one transaction of two INSERTs on a durable stream, starts another, prints
 * {@code pending} and waits; the test kills it (SIGKILL, {@link ChildJvm#kill()}) and
 * reopens the data directory on a new engine, which holds exactly the committed rows.
 */
@CrashTest
class TransactionCrashTest {
  private static final String CREATE = "CREATE STREAM IF NOT EXISTS events (seq BIGINT NOT NULL,"
      + " label VARCHAR) WITH (connector = 'memory')";
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  /** The child: commits rows 1 and 2, inserts row 3 without committing, and waits to die. */
  static final class Child {
    private Child() {
    }

    public static void main(String[] args) throws Exception {
      try (Connection connection = DriverManager.getConnection("jdbc:freshet:dataDir=" + args[0]);
           Statement statement = connection.createStatement()) {
        statement.execute(CREATE);
        connection.setAutoCommit(false);
        statement.executeUpdate("INSERT INTO events VALUES (1, 'committed')");
        statement.executeUpdate("INSERT INTO events VALUES (2, 'committed')");
        connection.commit();
        statement.executeUpdate("INSERT INTO events VALUES (3, 'pending'), (4, 'pending')");
        System.out.println("pending");
        System.out.flush();
        // Until killed: stdin stays open and empty.
        System.in.read();
      }
    }
  }

  @TempDir Path dataDir;

  @Test void shouldLoseOnlyTheUncommittedRowsWhenKilledBeforeCommit() throws Exception {
    try (ChildJvm child = ChildJvm.of(Child.class).jvmOptions("-XX:+UseSerialGC")
        .deadline(DEADLINE).args(dataDir).start()) {
      assertEquals("pending", child.awaitLine(line -> true), "the child's first line");
      child.kill();
    }

    try (Engine engine = new Engine("verify", Optional.of(dataDir))) {
      Session session = engine.openSession();
      session.execute(CREATE);
      List<List<Object>> rows = new ArrayList<>();
      for (Object[] row : ((StatementResult.Rows) session.execute(
          "SELECT seq, label FROM events")).rows()) {
        rows.add(Arrays.asList(row));
      }
      assertEquals(List.of(List.of(1L, "committed"), List.of(2L, "committed")), rows);
    }
  }
}
