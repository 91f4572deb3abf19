package dev.freshet.testkit.crash;

import java.io.BufferedReader;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * The child side of a crash test: how a child program tells the test, a line at a time on
 * standard output, what it did and what it sees, for {@link ChildJvm} to read.
 *
 * <pre>{@code
 * ChildLines.say("ACK " + i);                                    // flushed at once
 * ChildLines.await("the view to catch up", Duration.ofMinutes(2),
 *     () -> ChildLines.number(s, "SELECT COUNT(*) FROM totals") == rows);
 * ChildLines.printRows(s, "ROW", "SELECT user_id, n, total FROM totals");   // "ROW u1 3 12"
 * long expected = Long.parseLong(ChildLines.receive());          // sent by ChildJvm.send
 * }</pre>
 */
public final class ChildLines {
  private static final PrintStream OUT = System.out;
  private static final BufferedReader IN =
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));

  private ChildLines() {
  }

  /** A condition a child waits for. */
  @FunctionalInterface
  public interface Condition {
    boolean holds() throws SQLException;
  }

  /** Prints a line and flushes it: the test may kill the child right after. */
  public static void say(String line) {
    OUT.println(line);
    OUT.flush();
  }

  /**
   * Reads the next line the test sent ({@link ChildJvm#send}); fails if standard input ends
   * first.
   */
  public static String receive() throws IOException {
    String line = IN.readLine();
    if (line == null) {
      throw new EOFException("the test closed standard input without sending a line");
    }
    return line;
  }

  /** The first column of the first row of {@code sql}, a number. */
  public static long number(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Prints a line {@code "<tag> <column 1> <column 2> ..."} for each row of {@code sql}. */
  public static void printRows(Statement s, String tag, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder line = new StringBuilder(tag);
        for (int c = 1; c <= columns; c++) {
          line.append(' ').append(rs.getString(c));
        }
        OUT.println(line);
      }
    }
    OUT.flush();
  }

  /**
   * Polls {@code condition} every 10 ms until it holds; throws after {@code deadline}, which ends
   * the child with exit code 1 and the message on stderr, for the test to show.
   */
  public static void await(String what, Duration deadline, Condition condition)
      throws SQLException {
    long end = System.nanoTime() + deadline.toNanos();
    while (!condition.holds()) {
      if (System.nanoTime() > end) {
        throw new IllegalStateException("not within " + deadline + ": " + what);
      }
      LockSupport.parkNanos(10_000_000L);
    }
  }
}
